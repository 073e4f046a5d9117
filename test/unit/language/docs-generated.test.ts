// The parts of docs/language.md written from the engine (scripts/generated-docs.ts): the probe kinds index from the
// registry and the settings tables from the settings declarations. They must be what the script writes now, so a
// setting or a kind added without running `npm run docs:generated` fails here; and each family's `docs` must name a
// section of docs/probes.md that exists.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { generatedParts, LANGUAGE_DOC, withGenerated } from '../../../scripts/generated-docs.js';
import { BUILTIN_FAMILIES } from '../../../src/core/probes/registry.js';

const DOCS = path.resolve(import.meta.dirname, '../../../docs');

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to dashes. */
const slug = (heading: string) =>
    heading
        .trim()
        .toLowerCase()
        .replace(/[^\w\- ]/g, '')
        .replace(/ /g, '-');

describe('docs/language.md generated parts', () => {
    it("the kinds index and the settings tables are the registry's and the declarations'", () => {
        const text = readFileSync(LANGUAGE_DOC, 'utf8');
        for (const [name, body] of Object.entries(generatedParts())) {
            const written = new RegExp(`<!-- generated: ${name} -->\\n([\\s\\S]*?)\\n<!-- end: ${name} -->`).exec(text)?.[1];
            assert.equal(written, body, `docs/language.md's ${name}: run \`npm run docs:generated\``);
        }
        assert.equal(withGenerated(text, generatedParts()), text);
    });

    it('lists every declared setting of every block', () => {
        const settings = generatedParts().settings;
        for (const name of [
            'concurrency',
            'rpm',
            'timeout_ms',
            'limit',
            'read_with',
            'delimiter',
            'statement_timeout',
            'ar_ext',
            'perturb',
        ]) {
            assert.match(settings, new RegExp(`\\| \`${name}\` \\|`), name);
        }
        assert.doesNotMatch(settings, /knowledge_probe|max_hops|api_version/);
    });

    it("each built-in family's docs name a section of docs/probes.md", () => {
        for (const { core: family } of Object.values(BUILTIN_FAMILIES)) {
            assert.ok(family.docs, `${family.kind} has no docs`);
            const [file, anchor] = family.docs.split('#');
            const headings = readFileSync(path.join(DOCS, file!), 'utf8')
                .split('\n')
                .filter(l => /^#{1,4} /.test(l))
                .map(l => slug(l.replace(/^#+ /, '')));
            assert.ok(headings.includes(anchor!), `${family.kind}: ${family.docs} (headings: ${headings.join(', ')})`);
        }
    });
});
