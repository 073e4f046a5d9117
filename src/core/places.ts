/**
 * Where the engine keeps things by default, decided once for every face (the CLI's commands, the editor's
 * settings): the results store. Native-free, so a face can ask before it loads the store.
 */
import * as path from 'node:path';

/** The results store: `.halluprobe/results.db` beside the spec, or in `cwd` when no spec is named (report, compare, runs). */
export function defaultStorePath(specFile?: string, cwd = process.cwd()): string {
    return path.join(specFile === undefined ? path.resolve(cwd) : path.dirname(path.resolve(specFile)), '.halluprobe', 'results.db');
}

/** The store a step uses: the one named (relative to `cwd`), else the default. */
export function storePath(named: string | undefined, specFile?: string, cwd = process.cwd()): string {
    return named !== undefined ? path.resolve(cwd, named) : defaultStorePath(specFile, cwd);
}
