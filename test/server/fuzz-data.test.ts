import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { FIXTURES, open, serverServices, type Services } from './support.js';

const SPEC = path.join(FIXTURES, 'movie.probe');
const TOKENS = fs.readFileSync(SPEC, 'utf8').match(/\/\/[^\n]*|"(?:\\.|[^"\\])*"|\w+|->|\s+|[^\w\s]/g)!;
const WORDS = [
    ...new Set(TOKENS.filter(t => t.trim() !== '')),
    'choice',
    'path',
    'knows',
    'along',
    'about',
    'Movie.director',
    '->',
    'Director.birth_year',
    'stem',
    'option',
    'ask',
    'when',
    '"{decade(year)}"',
    '"{count(title)}"',
    'fk',
    'suite',
    'probes',
    'sample',
    'random',
    '3',
    'variant',
    'few_shot(2)',
    'list<int>',
    'distinct',
    '"entity9"',
    '"data/none.csv"',
    'key',
    '(',
    ')',
];

/** The server's whole diagnostics path (language + data + probe generator) on mutated specs over real data. */
describe('bad specs over real data never crash the server diagnostics', () => {
    let s: Services;
    before(() => {
        s = serverServices();
    });

    it('mutations of the fixture spec (deletions, insertions, swaps)', async () => {
        const mutation = fc.record({
            op: fc.constantFrom('delete', 'insert', 'swap'),
            at: fc.nat(),
            other: fc.nat(),
            token: fc.constantFrom(...WORDS),
        });
        let n = 0;
        await fc.assert(
            fc.asyncProperty(fc.array(mutation, { minLength: 1, maxLength: 5 }), async ms => {
                const out = [...TOKENS];
                for (const m of ms) {
                    const i = m.at % out.length,
                        j = m.other % out.length;
                    if (m.op === 'delete') out.splice(i, 1);
                    else if (m.op === 'insert') out.splice(i, 0, m.token);
                    else [out[i], out[j]] = [out[j]!, out[i]!];
                }
                const text = out.join('');
                const logged: unknown[] = [];
                const original = console.error;
                console.error = (...args: unknown[]) => {
                    logged.push(args.join(' '));
                };
                let doc;
                try {
                    doc = await open(s, path.join(FIXTURES, `fuzz-${n++}.probe`), text);
                } finally {
                    console.error = original;
                }
                assert.deepEqual(logged, [], 'nothing thrown inside validation, data loading or probe diagnostics');
                const lines = text.split(/\r\n|\r|\n/);
                for (const d of doc.diagnostics ?? []) {
                    assert.ok(d.range.start.line < lines.length && d.range.end.line < lines.length, d.message as string);
                    assert.equal(typeof d.code, 'string');
                }
            }),
            { numRuns: 120, seed: 4242 },
        );
    });
});
