import { loadSpec, type LoadedSpec } from './load.js';

/**
 * Everything `halluprobe check` and the editor report for a spec: language diagnostics, then (when the
 * spec has no errors that would make them meaningless) the data checks.
 */
export async function checkSpec(entry: string): Promise<LoadedSpec> {
    const loaded = await loadSpec(entry);
    // Data checks (coercion, keys, FDs, FKs) are added here by core/data.
    return loaded;
}
