// Issue 29, item 2: the key scrubber, property-tested with random keys inside random wrappings — the header and
// basic-auth forms, base64 of them (standard and URL-safe), JSON with escaped slashes, \u and URL escapes, a
// finish reason — never lets the key through, and leaves text without the key alone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { keyScrubber, redact } from '../../src/core/models/secrets.js';

const KEY_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_/+=.:'.split('');
const key = fc.array(fc.constantFrom(...KEY_CHARS), { minLength: 12, maxLength: 64 }).map(cs => cs.join(''));
const user = fc.array(fc.constantFrom(...KEY_CHARS.slice(0, 62)), { minLength: 0, maxLength: 12 }).map(cs => cs.join(''));
const prose = fc.string({ maxLength: 40 });

const b64 = (s: string) => Buffer.from(s).toString('base64');
const b64url = (s: string) => Buffer.from(s).toString('base64url');
const uEscape = (s: string) => s.replace(/[^A-Za-z0-9]/g, c => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** The ways an endpoint might send the key back. */
const WRAPS: [string, (k: string, u: string) => string][] = [
    ['plain', k => k],
    ['header', k => `Authorization: Bearer ${k}`],
    ['base64 of Bearer', k => b64(`Bearer ${k}`)],
    ['base64 of Bearer, unpadded', k => b64(`Bearer ${k}`).replace(/=+$/, '')],
    ['basic auth', (k, u) => `Basic ${b64(`${u}:${k}`)}`],
    ['base64url of user:key', (k, u) => b64url(`${u}:${k}`)],
    ['base64 of the key', k => b64(k)],
    ['JSON, escaped slashes', k => JSON.stringify({ authorization: `Bearer ${k}` }).replaceAll('/', '\\/')],
    ['base64 of JSON', (k, u) => b64(JSON.stringify({ user: u, key: k }))],
    ['\\u escapes', k => uEscape(k)],
    ['URL-encoded', k => `?api_key=${encodeURIComponent(k)}`],
    ['finish reason', k => `stop-${k}`],
];

/** Whether the key can be read back from `text`: as it is, or by decoding a base64 run. */
function readable(text: string, k: string): boolean {
    if (
        text.includes(k) ||
        text.includes(k.replaceAll('/', '\\/')) ||
        text.includes(encodeURIComponent(k)) ||
        text.includes(uEscape(k))
    )
        return true;
    return (text.match(/[A-Za-z0-9+/_-]{8,}={0,2}/g) ?? []).some(run =>
        Buffer.from(run.replaceAll('-', '+').replaceAll('_', '/'), 'base64').toString('latin1').includes(k),
    );
}

test('no wrapping of a random key gets past the scrubber', () => {
    fc.assert(
        fc.property(key, user, prose, prose, fc.constantFrom(...WRAPS), (k, u, before, after, [, wrap]) => {
            const text = `${before} ${wrap(k, u)} ${after}`;
            assert.ok(readable(text, k), 'the echo holds the key');
            const scrubbed = keyScrubber(k)(text);
            assert.ok(!readable(scrubbed, k), `${wrap.name}: ${scrubbed}`);
            assert.match(scrubbed, /\[redacted\]/);
            assert.ok(!readable(redact(text, [k]), k));
        }),
        { numRuns: 2000 },
    );
});

test('text without the key is left as it was', () => {
    fc.assert(
        fc.property(key, fc.string({ maxLength: 200 }), (k, text) => {
            fc.pre(!text.includes(k));
            assert.equal(keyScrubber(k)(text), text);
        }),
        { numRuns: 2000 },
    );
});

test('every wrapping is scrubbed for a fixed key too (one per kind, named)', () => {
    const k = 'sk-proj/Ab+cd=ef_0123456789';
    for (const [name, wrap] of WRAPS) assert.ok(!readable(keyScrubber(k)(`x ${wrap(k, 'me')} y`), k), name);
});
