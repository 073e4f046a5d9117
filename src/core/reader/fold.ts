/**
 * Text normalisation for keyword matching and entity linking, keeping a map back to the response so that every match can be
 * shown as a span of what the model actually wrote.
 *
 * Two forms, as METHODS.md §1 asks: `folded` (Unicode NFKD → ASCII, lower case, whitespace runs → one space)
 * and `stripped` (folded, then every character that is not a letter, digit or space removed, spaces collapsed).
 */

export interface Folded {
    text: string;
    /**
     * Offset in the original of the character that produced text[i], for i < text.length (a transient fold's arrays
     * are the reused buffers themselves: longer than the text).
     */
    starts: Int32Array;
    /** End offset (exclusive) in the original of that character. */
    ends: Int32Array;
}

/** Typographic characters NFKD leaves alone but models write all the time. */
const TYPOGRAPHIC: Record<string, string> = {
    '\u2018': "'",
    '\u2019': "'",
    '\u201a': "'",
    '\u201b': "'",
    '\u2032': "'",
    '\u201c': '"',
    '\u201d': '"',
    '\u201e': '"',
    '\u00ab': '"',
    '\u00bb': '"',
    '\u2033': '"',
    '\u2010': '-',
    '\u2011': '-',
    '\u2012': '-',
    '\u2013': '-',
    '\u2014': '-',
    '\u2212': '-',
    '\u00a0': ' ',
    '\u2009': ' ',
    '\u202f': ' ',
    '\u2026': '...',
    '\u00df': 'ss',
    '\u00e6': 'ae',
    '\u00c6': 'ae',
    '\u0153': 'oe',
    '\u0152': 'oe',
    '\u00f8': 'o',
    '\u00d8': 'o',
    '\u0142': 'l',
    '\u0141': 'l',
    '\u0111': 'd',
    '\u0110': 'd',
};

const foldCache = new Map<string, string>();

/** The ASCII, lower-case replacement of one non-ASCII code point ('' when it has none). */
function foldChar(ch: string): string {
    let out = foldCache.get(ch);
    if (out !== undefined) return out;
    out = TYPOGRAPHIC[ch] ?? '';
    if (out === '') {
        for (const c of ch.normalize('NFKD')) {
            const code = c.charCodeAt(0);
            if (code < 128) out += c;
        }
    }
    out = out.toLowerCase().replace(/\s+/g, ' ');
    if (foldCache.size < 10_000) foldCache.set(ch, out);
    return out;
}

// Reused output buffers (the engine is single-threaded): one set per form for `transient` results, which view
// them directly and stay valid until the next transient fold of the same form, and a scratch set for the
// copying folds (values, the exported functions), so those never clobber a transient result in use.
interface Buffers {
    /**
     * The folded text's character codes. Folded text is ASCII only, one byte a character, so a Latin-1 read of these
     * bytes (a Buffer's) builds the string at once (a TextDecoder's windows-1252 decode was twice as slow).
     */
    codes: Buffer;
    starts: Int32Array;
    ends: Int32Array;
}
const buffers = [0, 1, 2].map(() => ({
    codes: Buffer.alloc(4096),
    starts: new Int32Array(4096),
    ends: new Int32Array(4096),
})) as [Buffers, Buffers, Buffers];

function ensure(b: Buffers, size: number): void {
    if (b.codes.length >= size) return;
    const n = Math.max(size, b.codes.length * 2);
    b.codes = Buffer.alloc(n);
    b.starts = new Int32Array(n);
    b.ends = new Int32Array(n);
}

/**
 * Folds `text`; `alnumOnly` drops everything but letters, digits and spaces (the stripped form).
 * A hot path (every response, twice): one pass, no closures, ASCII handled inline.
 */
export function fold(text: string, alnumOnly: boolean, transient = false, into?: Buffers): Folded {
    const n = text.length;
    const b = into ?? (transient ? buffers[alnumOnly ? 1 : 0] : buffers[2]);
    // NFKD expands a character to at most a few ASCII letters (ligatures, '…'); extra output is dropped.
    ensure(b, n * 4 + 8);
    const { codes: codeBuf, starts: startBuf, ends: endBuf } = b;
    const cap = codeBuf.length;
    let len = 0;
    let lastSpace = true; // drops leading spaces and collapses runs
    for (let i = 0; i < n; i++) {
        let c = text.charCodeAt(i);
        if (c < 128) {
            if (c === 32 || (c >= 9 && c <= 13)) {
                if (lastSpace) continue;
                lastSpace = true;
                c = 32;
            } else {
                if (c >= 65 && c <= 90) c += 32;
                else if (alnumOnly && !((c >= 48 && c <= 57) || (c >= 97 && c <= 122))) continue;
                lastSpace = false;
            }
            codeBuf[len] = c;
            startBuf[len] = i;
            endBuf[len] = i + 1;
            len++;
            continue;
        }
        const wide = c >= 0xd800 && c <= 0xdbff && i + 1 < n;
        const ch = wide ? text.slice(i, i + 2) : text[i]!;
        const rep = foldChar(ch);
        const to = i + ch.length;
        for (let j = 0; j < rep.length && len < cap; j++) {
            const r = rep.charCodeAt(j);
            if (r === 32) {
                if (lastSpace) continue;
                lastSpace = true;
            } else {
                if (alnumOnly && !((r >= 48 && r <= 57) || (r >= 97 && r <= 122))) continue;
                lastSpace = false;
            }
            codeBuf[len] = r;
            startBuf[len] = i;
            endBuf[len] = to;
            len++;
        }
        if (wide) i++;
    }
    if (len > 0 && codeBuf[len - 1] === 32) len--;
    const text2 = codeBuf.toString('latin1', 0, len);
    // transient: the buffers themselves (a view cut to length cost two typed-array objects a call)
    return transient
        ? { text: text2, starts: startBuf, ends: endBuf }
        : { text: text2, starts: startBuf.slice(0, len), ends: endBuf.slice(0, len) };
}

/** The stripped text alone (no offset map, no copy, no cache): for one-off texts such as questions. */
export function stripText(text: string): string {
    return fold(text, true, true, buffers[2]).text;
}

// One cache per mode, keyed by the value itself (a key built per call cost a string and its hash each time).
const foldedCache = new Map<string, string>();
const strippedCache = new Map<string, string>();

function cachedValue(value: string, alnumOnly: boolean): string {
    const cache = alnumOnly ? strippedCache : foldedCache;
    let out = cache.get(value);
    if (out === undefined) {
        out = fold(value, alnumOnly).text;
        if (cache.size > 50_000) cache.clear();
        cache.set(value, out);
    }
    return out;
}

/** The folded form of a short value (keywords, domain values), without the offset map; cached. */
export function foldValue(value: string): string {
    return cachedValue(value, false);
}

export function stripValue(value: string): string {
    return cachedValue(value, true);
}

function isAlnumCode(c: number): boolean {
    return (c >= 48 && c <= 57) || (c >= 97 && c <= 122);
}

/**
 * Every occurrence of `needle` in `hay` (both already folded) that starts and ends at a word boundary, so that
 * "Up" does not match inside "update" and "1954" not inside "19545".
 */
export function findWord(hay: string, needle: string, from = 0): number {
    if (needle.length === 0) return -1;
    let i = hay.indexOf(needle, from);
    while (i >= 0) {
        const before = i === 0 ? 32 : hay.charCodeAt(i - 1);
        const after = i + needle.length >= hay.length ? 32 : hay.charCodeAt(i + needle.length);
        const headAlnum = isAlnumCode(needle.charCodeAt(0));
        const tailAlnum = isAlnumCode(needle.charCodeAt(needle.length - 1));
        if ((!headAlnum || !isAlnumCode(before)) && (!tailAlnum || !isAlnumCode(after))) return i;
        i = hay.indexOf(needle, i + 1);
    }
    return -1;
}

/** Maps a [start, end) range of a folded text back to the original text. */
export function toSpan(f: Folded, start: number, end: number, offset = 0): { start: number; end: number } {
    return { start: f.starts[start]! + offset, end: f.ends[end - 1]! + offset };
}
