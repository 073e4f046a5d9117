/**
 * Random API keys and the ways an endpoint might send one back — escaped for JSON (all or some characters, once or
 * twice), for Markdown, URLs, HTML, or base64 of any of these — and a reader that tries every unescape step in turn
 * (up to six deep) to get the key back. For the redactor's property tests (issue 40).
 */
import fc from 'fast-check';

const KEY_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_/+=.:'.split('');

/** Random keys: provider-shaped (`sk-proj-…` with a long body) or short ones full of punctuation. */
export const keyArb: fc.Arbitrary<string> = fc.oneof(
    fc.array(fc.constantFrom(...KEY_CHARS), { minLength: 12, maxLength: 64 }).map(cs => cs.join('')),
    fc
        .tuple(
            fc.constantFrom('sk-proj-', 'sk-', 'sk-or-v1-', 'rk-'),
            fc.array(fc.constantFrom(...KEY_CHARS.slice(0, 64)), { minLength: 24, maxLength: 80 }),
        )
        .map(([p, cs]) => p + cs.join('')),
);

/** A small deterministic generator: whether to escape the i-th character under `seed`. */
function coin(seed: number, i: number): boolean {
    let x = (seed ^ (i * 0x9e3779b1)) >>> 0;
    x = Math.imul(x ^ (x >>> 15), 0x2c1b3c6d) >>> 0;
    return ((x ^ (x >>> 12)) & 1) === 1;
}

const hex4 = (c: string, upper: boolean) => {
    const h = c.charCodeAt(0).toString(16).padStart(4, '0');
    return `\\u${upper ? h.toUpperCase() : h}`;
};
const b64 = (s: string) => Buffer.from(s, 'latin1').toString('base64');

export type Encoder = (s: string, seed: number) => string;

export const encoders: [string, Encoder][] = [
    ['plain', s => s],
    ['json \\u every symbol', s => s.replace(/[^A-Za-z0-9]/g, c => hex4(c, false))],
    // A backslash is always escaped (JSON must), as \\ or \u005c; any other character may be.
    [
        'json \\u some characters',
        (s, seed) =>
            [...s]
                .map((c, i) =>
                    c === '\\' ? (coin(seed, i) ? '\\\\' : hex4(c, false)) : coin(seed, i) ? hex4(c, coin(seed, i + 1)) : c,
                )
                .join(''),
    ],
    ['json string, escaped slashes', s => JSON.stringify(s).slice(1, -1).replaceAll('/', '\\/')],
    ['json object', s => JSON.stringify({ auth: `Bearer ${s}` })],
    ['markdown \\-', (s, seed) => s.replace(/[-_.+=:/*\\`]/g, (c: string) => (coin(seed, c.charCodeAt(0)) ? `\\${c}` : c))],
    ['url', s => encodeURIComponent(s)],
    ['url, lower-case hex', s => encodeURIComponent(s).replace(/%[0-9A-F]{2}/g, m => m.toLowerCase())],
    ['html entities', s => s.replace(/[^A-Za-z0-9 ]/g, c => `&#x${c.charCodeAt(0).toString(16)};`)],
    ['base64', (s, seed) => b64(`${coin(seed, 1) ? 'Bearer ' : ''}${s}`)],
    ['base64url, unpadded', (s, seed) => Buffer.from(`${coin(seed, 2) ? 'user:' : ''}${s}`, 'latin1').toString('base64url')],
];

/** One unescape step of every kind, each giving a new reading of the text. */
function steps(text: string): string[] {
    const out = [
        text.replace(/\\(u[0-9a-fA-F]{4}|[^u])/g, (_m, e: string) =>
            e.length === 5 ? String.fromCharCode(parseInt(e.slice(1), 16)) : e,
        ),
        text.replace(/%([0-9a-fA-F]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16))),
        text
            .replace(/&#x([0-9a-fA-F]+);/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16)))
            .replace(/&#(\d+);/g, (_m, d: string) => String.fromCharCode(Number(d)))
            .replaceAll('&amp;', '&'),
    ];
    for (const run of text.match(/[A-Za-z0-9+/_-]{8,}={0,2}/g) ?? []) {
        for (let o = 0; o < 4; o++)
            out.push(Buffer.from(run.slice(o).replaceAll('-', '+').replaceAll('_', '/'), 'base64').toString('latin1'));
    }
    return out.filter(s => s !== text);
}

/** Whether the key can be read back from `text` by up to six unescape steps of any kinds. */
export function recoverable(text: string, key: string): boolean {
    let level = [text];
    const seen = new Set(level);
    for (let depth = 0; depth <= 6 && level.length; depth++) {
        if (level.some(t => t.includes(key))) return true;
        const next: string[] = [];
        for (const t of level)
            for (const s of steps(t))
                if (!seen.has(s) && seen.size < 4000) {
                    seen.add(s);
                    next.push(s);
                }
        level = next;
    }
    return false;
}
