// The TextMate grammar's probe kinds come from the registry: the keys of BUILTIN_FAMILIES
// (src/core/probes/registry.ts) are written into the two kind alternations of syntaxes/probe.tmLanguage.json.
// Run by scripts/build.mjs; test/unit/language/syntaxes.test.ts checks the grammar matches the registry.
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
const REGISTRY = path.join(ROOT, 'src/core/probes/registry.ts');
const GRAMMAR = path.join(ROOT, 'syntaxes/probe.tmLanguage.json');

/** The registry's kinds, in its order (the keys of the BUILTIN_FAMILIES object literal). */
export function registryKinds(text = readFileSync(REGISTRY, 'utf8')) {
    const body = /export const BUILTIN_FAMILIES = \{([^}]*)\}/.exec(text)?.[1];
    if (!body) throw new Error(`no BUILTIN_FAMILIES in ${REGISTRY}`);
    return [...body.matchAll(/^\s*([a-z_]+)\s*:/gm)].map(m => m[1]);
}

/**
 * The grammar's text with its two kind alternations set to `kinds` (the registry's: the build passes the
 * BUILTIN_FAMILIES keys; test/unit/repo/new-family-touches-folder-and-registry.test.ts the kinds registered at run time).
 */
export function grammarWithKinds(text, kinds) {
    const list = kinds.join('|');
    return text
        .replace(/("match": "\\\\b\(probe\)\\\\s\+\(\[A-Za-z_\]\\\\w\*\)\\\\s\+\()[a-z_|]+(\)\\\\b")/, `$1${list}$2`)
        .replace(/("match": "\\\\b\()[a-z_|]+(\)\\\\b",\s*"name": "support\.constant\.probe-kind\.probe")/, `$1${list}$2`);
}

/** Rewrites the grammar's kind alternations; returns true when the file changed. */
export function syncGrammarKinds() {
    const text = readFileSync(GRAMMAR, 'utf8');
    const next = grammarWithKinds(text, registryKinds());
    if (next !== text) writeFileSync(GRAMMAR, next);
    return next !== text;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
    console.log(syncGrammarKinds() ? 'grammar kinds updated from the registry' : 'grammar kinds match the registry');
}
