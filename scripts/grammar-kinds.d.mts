// Types of grammar-kinds.mjs (plain JavaScript, run by the build without a TypeScript loader), for the tests.
/** The registry's kinds, in its order (the keys of the BUILTIN_FAMILIES object literal in src/core/probes/registry.ts). */
export function registryKinds(text?: string): string[];
/** The grammar's text with its two kind alternations set to `kinds`. */
export function grammarWithKinds(text: string, kinds: readonly string[]): string;
/** Rewrites syntaxes/probe.tmLanguage.json's kinds from the registry; true when the file changed. */
export function syncGrammarKinds(): boolean;
