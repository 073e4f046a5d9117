/**
 * Text normalisation for keyword matching, keeping a map back to the response so that every match can be
 * shown as a span of what the model actually wrote.
 *
 * Two forms, as METHODS.md §1 asks: `folded` (Unicode NFKD → ASCII, lower case, whitespace runs → one space)
 * and `stripped` (folded, then every character that is not a letter, digit or space removed, spaces collapsed).
 */

export interface Folded {
    text: string;
    /** Offset in the original of the character that produced text[i]. */
    starts: Int32Array;
    /** End offset (exclusive) in the original of that character. */
    ends: Int32Array;
}

/** Typographic characters NFKD leaves alone but models write all the time. */
const TYPOGRAPHIC: Record<string, string> = {
    '\u2018': "'", '\u2019': "'", '\u201a': "'", '\u201b': "'", '\u2032': "'",
    '\u201c': '"', '\u201d': '"', '\u201e': '"', '\u00ab': '"', '\u00bb': '"', '\u2033': '"',
    '\u2010': '-', '\u2011': '-', '\u2012': '-', '\u2013': '-', '\u2014': '-', '\u2212': '-',
    '\u00a0': ' ', '\u2009': ' ', '\u202f': ' ', '\u2026': '...', '\u00df': 'ss', '\u00e6': 'ae', '\u00c6': 'ae',
    '\u0153': 'oe', '\u0152': 'oe', '\u00f8': 'o', '\u00d8': 'o', '\u0142': 'l', '\u0141': 'l', '\u0111': 'd', '\u0110': 'd',
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
    out = out.toLowerCase();
    if (/^\s+$/.test(out)) out = ' ';
    if (foldCache.size < 10_000) foldCache.set(ch, out);
    return out;
}

function isSpaceCode(c: number): boolean {
    return c === 32 || (c >= 9 && c <= 13);
}

/** Folds `text`; `keep` decides which folded characters survive (the stripped form drops punctuation). */
function fold(text: string, keep: (code: number) => boolean): Folded {
    const n = text.length;
    let out = '';
    // NFKD expands a character to at most a few ASCII letters (ligatures, '…'); extra output is dropped.
    const starts = new Int32Array(n * 4 + 8);
    const ends = new Int32Array(n * 4 + 8);
    let len = 0;
    let lastSpace = true; // drops leading spaces and collapses runs
    const push = (s: string, from: number, to: number) => {
        for (let j = 0; j < s.length; j++) {
            if (len >= starts.length) return;
            const c = s.charCodeAt(j);
            if (isSpaceCode(c)) {
                if (lastSpace) continue;
                lastSpace = true;
                out += ' ';
            } else {
                if (!keep(c)) continue;
                lastSpace = false;
                out += c >= 65 && c <= 90 ? String.fromCharCode(c + 32) : s[j];
            }
            starts[len] = from; ends[len] = to; len++;
        }
    };
    for (let i = 0; i < n; i++) {
        const c = text.charCodeAt(i);
        if (c < 128) { push(text[i]!, i, i + 1); continue; }
        const wide = c >= 0xd800 && c <= 0xdbff && i + 1 < n;
        const ch = wide ? text.slice(i, i + 2) : text[i]!;
        push(foldChar(ch), i, i + ch.length);
        if (wide) i++;
    }
    if (out.endsWith(' ')) { out = out.slice(0, -1); len--; }
    return { text: out, starts: starts.subarray(0, len), ends: ends.subarray(0, len) };
}

const keepAll = () => true;
const keepAlnum = (c: number) => (c >= 48 && c <= 57) || (c >= 97 && c <= 122) || (c >= 65 && c <= 90);

export function folded(text: string): Folded {
    return fold(text, keepAll);
}

export function stripped(text: string): Folded {
    return fold(text, keepAlnum);
}

/** The folded form of a short value, without the offset map. */
export function foldValue(value: string): string {
    return folded(value).text;
}

export function stripValue(value: string): string {
    return stripped(value).text;
}

export function isAlnumCode(c: number): boolean {
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

/** All word-boundary occurrences, as [start, end) in the folded text. */
export function findAllWords(hay: string, needle: string): [number, number][] {
    const out: [number, number][] = [];
    let i = findWord(hay, needle);
    while (i >= 0 && out.length < 50) {
        out.push([i, i + needle.length]);
        i = findWord(hay, needle, i + needle.length);
    }
    return out;
}

/** Maps a [start, end) range of a folded text back to the original text. */
export function toSpan(f: Folded, start: number, end: number, offset = 0): { start: number; end: number } {
    return { start: f.starts[start]! + offset, end: f.ends[end - 1]! + offset };
}
