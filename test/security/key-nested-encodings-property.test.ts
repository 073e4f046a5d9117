// Issue 40, item 1: the key scrubber against random keys sent back through nested encodings — JSON-escaped once
// and twice (`\u002d`, `\\u002d`, `\/`), a random mix of escaped and plain characters, Markdown-escaped (`\-`),
// URL-encoded (once, twice), HTML entities and base64 (standard, URL-safe, unpadded) of any of these, one inside
// another. What the scrubber lets through must not give the key back after any number of unescape steps.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { keyScrubber } from '../../src/core/models/secrets.js';
import { encoders, keyArb, recoverable } from '../support/key-encodings.js';

test('a random key through 1–3 random nested encodings, inside prose, is never recoverable after scrubbing', () => {
    fc.assert(
        fc.property(
            keyArb,
            fc.array(fc.constantFrom(...encoders), { minLength: 1, maxLength: 3 }),
            fc.integer(),
            fc.string({ maxLength: 30 }),
            fc.string({ maxLength: 30 }),
            (k, chain, seed, before, after) => {
                let echo = k;
                chain.forEach(([, enc], i) => {
                    echo = enc(echo, seed + i);
                });
                const text = `${before} ${echo} ${after}`;
                assert.ok(recoverable(text, k), `the echo holds the key: ${chain.map(c => c[0]).join(' > ')}`);
                const scrubbed = keyScrubber(k)(text);
                assert.ok(!recoverable(scrubbed, k), `${chain.map(c => c[0]).join(' > ')}: ${scrubbed}`);
            },
        ),
        { numRuns: 1500 },
    );
});

test("the issue's forms: sk\\u002dproj inside an escaped JSON string, \\\\u002d, and Markdown \\-", () => {
    const k = 'sk-proj-Ab12Cd34Ef56Gh78Ij90Kl12Mn34';
    const forms = [
        JSON.stringify({ subject: k.replaceAll('-', '\\u002d') }), // {"subject":"sk\\u002dproj…"}: \u002d after one parse
        JSON.stringify(JSON.stringify({ subject: k })).replaceAll('-', '\\\\u002d'),
        k.replaceAll('-', '\\-'),
        `**${k.replaceAll('-', '\\-')}**`,
        k.replace('-', '\\u002D').replace('-', '-'),
    ];
    for (const f of forms) {
        const out = keyScrubber(k)(`see ${f} there`);
        assert.ok(!recoverable(out, k), `${f} → ${out}`);
        assert.match(out, /\[redacted\]/);
    }
});

test('text without the key is left as it was, escapes and base64 included', () => {
    fc.assert(
        fc.property(
            keyArb,
            fc.string({ maxLength: 200 }),
            fc.constantFrom(...encoders),
            fc.integer(),
            (k, text, [, enc], seed) => {
                const other = enc(text, seed);
                fc.pre(!recoverable(other, k));
                assert.equal(keyScrubber(k)(other), other);
            },
        ),
        { numRuns: 2000 },
    );
});
