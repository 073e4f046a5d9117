/**
 * A package loaded at its first use rather than with the module that names it: what a start does not need (the
 * language server before a reload's first diagnostics, a CLI command that calls no model) it does not compile or run
 * (issue 39). `bundled` is the literal `require('name')`, so that esbuild sees it: in a bundle it becomes a module
 * initialised when called, and the language server's bundle takes the package from dist/vendor/ (scripts/build.mjs).
 * From the sources (tsx), `require` is absent and the package is loaded from node_modules.
 */
import { createRequire } from 'node:module';

export function lazyPackage<T>(name: string, bundled: () => unknown): () => T {
    let loaded: T | undefined;
    return () => (loaded ??= (typeof require === 'function' ? bundled() : createRequire(import.meta.url)(name)) as T);
}
