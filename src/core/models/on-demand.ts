/**
 * Declared models resolved with their keys on first use (once per name), for the steps that ask models after
 * verification (the model reader, rule claim extraction, embeddings).
 */
import type { SpecModel } from '../spec/model.js';
import { modelFromFlag, resolveModel, type ResolvedModel } from './providers.js';

/** The key of a resolved model, as `resolveKey` gives it (the caller knows the secrets, bindings and host prompts). */
export type KeyFor = (model: ResolvedModel) => Promise<{ ok: true; key: string } | { ok: false; message: string }>;

/**
 * Declared models resolved with their keys on first use (once per name), made into what a step needs; a model that
 * cannot be used gives why, once in `problems`.
 */
export function modelsOnDemand<T>(spec: SpecModel, setting: string, keyFor: KeyFor, make: (model: ResolvedModel, key: string) => T, problems: string[]): (name: string) => Promise<T | string> {
    const ready = new Map<string, T | string>();
    return async name => {
        let c = ready.get(name);
        if (c === undefined) {
            const decl = modelFromFlag(name, spec.models);
            const resolved = decl ? resolveModel(decl) : undefined;
            const key = resolved?.model ? await keyFor(resolved.model) : undefined;
            c = !decl ? `${setting}: unknown model "${name}"` : !resolved?.model ? `${setting}: ${resolved!.problems.join('; ')}`
                : !key!.ok ? `${setting} ${name}: ${key!.message}` : make(resolved.model, key!.key);
            ready.set(name, c);
            if (typeof c === 'string') problems.push(c);
        }
        return c;
    };
}

