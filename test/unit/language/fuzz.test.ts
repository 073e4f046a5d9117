import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { parseSpec } from './support.js';

const MOVIE = fs.readFileSync(path.resolve(import.meta.dirname, '../../../examples/movie/movie.probe'), 'utf8');
/** The example as tokens (strings, words, numbers, punctuation, whitespace, comments), so mutations stay near the language. */
const TOKENS = MOVIE.match(/\/\/[^\n]*|"(?:\\.|[^"\\])*"|\w+|->|\s+|[^\w\s]/g)!;
const VOCABULARY = [
    ...new Set(TOKENS.filter(t => t.trim() !== '')),
    '{',
    '}',
    '"',
    '/*',
    '*/',
    '\\',
    '{{',
    'list<',
    '>',
    '-1',
    '1e9',
    '\u0000',
    '\uFEFF',
    '"{',
    '}"',
];

type Mutation = { op: 'delete' | 'insert' | 'swap' | 'duplicate'; at: number; other: number; token: string };

const mutation = fc.record({
    op: fc.constantFrom('delete', 'insert', 'swap', 'duplicate'),
    at: fc.nat(),
    other: fc.nat(),
    token: fc.constantFrom(...VOCABULARY),
}) as fc.Arbitrary<Mutation>;

function mutate(tokens: string[], mutations: Mutation[]): string {
    const out = [...tokens];
    for (const m of mutations) {
        if (out.length === 0) break;
        const i = m.at % out.length;
        const j = m.other % out.length;
        if (m.op === 'delete') out.splice(i, 1);
        else if (m.op === 'insert') out.splice(i, 0, m.token);
        else if (m.op === 'duplicate') out.splice(i, 0, out[j]!);
        else [out[i], out[j]] = [out[j]!, out[i]!];
    }
    return out.join('');
}

/** Parses and validates; every diagnostic must lie inside the document (and nothing may throw). */
async function checkText(text: string): Promise<void> {
    // Langium catches exceptions in linking and validation and logs them; count a logged exception as a crash.
    const logged: unknown[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => {
        logged.push(args);
    };
    let doc;
    try {
        doc = await parseSpec(text);
    } finally {
        console.error = original;
    }
    assert.deepEqual(logged.map(String), [], 'no exception inside parsing, linking or validation');
    const lines = text.split(/\r\n|\r|\n/);
    for (const d of doc.diagnostics ?? []) {
        for (const p of [d.range.start, d.range.end]) {
            assert.ok(p.line >= 0 && p.line < lines.length, `line ${p.line} outside ${lines.length} lines: ${d.message}`);
            assert.ok(
                p.character >= 0 && p.character <= lines[p.line]!.length,
                `character ${p.character} outside line ${p.line}: ${d.message}`,
            );
        }
        assert.ok(
            d.range.start.line < d.range.end.line || d.range.start.character <= d.range.end.character,
            'range start before end',
        );
        assert.equal(typeof d.code, 'string');
    }
}

describe('bad input never crashes parsing and validation', () => {
    it('mutations of the movie example (token deletions, insertions, swaps)', async () => {
        await fc.assert(
            fc.asyncProperty(fc.array(mutation, { minLength: 1, maxLength: 8 }), async ms => checkText(mutate(TOKENS, ms))),
            { numRuns: 300, seed: 20261122 },
        );
    });

    it("random text made of the language's own tokens", async () => {
        await fc.assert(
            fc.asyncProperty(fc.array(fc.constantFrom(...VOCABULARY, ' ', '\n'), { maxLength: 120 }), async ts =>
                checkText(ts.join('')),
            ),
            { numRuns: 200, seed: 7 },
        );
    });

    it('arbitrary unicode strings', async () => {
        await fc.assert(fc.asyncProperty(fc.string({ unit: 'binary', maxLength: 200 }), checkText), { numRuns: 200, seed: 11 });
    });
});
