/**
 * Removes a key from every text an endpoint sent back (answers, extractions, judge verdicts, finish reasons, batch
 * lines, errors) before it is stored, cached, parsed or shown — whatever escapes surround it (docs/models.md "Where a
 * key may go"). Three passes:
 *  1. the key written with any mix of escapes per character, nested to any depth: JSON `\u002d` / `\\u002d` / `\/`,
 *     Markdown `\-`, URL `%2D` / `%252D`, HTML `&#x2d;` / `&#45;` / `&amp;#45;`; and each long run of letters and
 *     digits of the key (its distinctive body, ≥ 16 characters) on its own, so that a prefix written differently
 *     (`sk_proj_`, a typographic dash) does not hide it;
 *  2. base64 of any text holding the key or its body (standard or URL-safe, padded or not): the whole base64 run;
 *  3. what is left, word by word: a word that gives the key back after up to four unescape steps of any kind
 *     (JSON, URL, HTML, base64 — e.g. base64 of a JSON-escaped key, or a URL-encoded `\u002d`) loses the smallest
 *     piece of it that does.
 * Unlike `redact` it leaves other key-shaped text alone, since an answer may legitimately mention one.
 */

const REDACTED = '[redacted]';

/** A key's alphanumeric runs this long are distinctive enough to be matched on their own. */
const KEY_BODY_MIN = 16;

const regexEscape = (s: string) => s.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
const anyCaseHex = (h: string) => h.replace(/[a-f]/gi, c => `[${c.toLowerCase()}${c.toUpperCase()}]`);

/** One character of the key, as it may be written after any number of escapes of any kind. */
function charPattern(c: string): string {
    const code = c.charCodeAt(0);
    const hex = code.toString(16);
    const alts = [
        regexEscape(c),
        `\\\\+${regexEscape(c)}`, // \- \/ \" and their doubled forms
        `\\\\+u0*${anyCaseHex(hex)}`, // \u002d, \\u002D
        `(?:%25)*%0*${anyCaseHex(hex)}`, // %2D, %252d
        `&(?:amp;)*#[xX]0*${anyCaseHex(hex)};`, // &#x2d;, &amp;#x2D;
        `&(?:amp;)*#0*${code};`, // &#45;
    ];
    if (c === '&') alts.push('&(?:amp;)+');
    if (c === '"') alts.push('&(?:amp;)*quot;');
    return `(?:${alts.join('|')})`;
}

/** The key (or a part of it) under any per-character escapes. */
function fuzzy(text: string): string {
    return [...text].map(charPattern).join('');
}

/** The key's runs of letters and digits long enough to stand for it. */
function bodies(key: string): string[] {
    return (key.match(/[A-Za-z0-9]+/g) ?? []).filter(b => b.length >= KEY_BODY_MIN && b !== key);
}

/**
 * What base64 of any text holding `text` contains whatever comes before it: base64 works on 3-byte groups, so
 * the encoding depends only on the offset modulo 3. For each offset, the characters made of `text`'s bytes only
 * (standard and URL-safe alphabets); too short a core would match innocent text, so none.
 */
function base64Cores(text: string): string[] {
    const bytes = Buffer.from(text, 'utf8');
    const cores: string[] = [];
    for (let offset = 0; offset < 3; offset++) {
        const enc = Buffer.concat([Buffer.alloc(offset), bytes])
            .toString('base64')
            .replace(/=+$/, '');
        const tail = (offset + bytes.length) % 3;
        const core = enc.slice(offset ? 4 : 0, enc.length - (tail ? tail + 1 : 0));
        if (core.length >= 8) cores.push(core, core.replaceAll('+', '-').replaceAll('/', '_'));
    }
    return [...new Set(cores)];
}

const BASE64_RUN = /[A-Za-z0-9+/_-]+={0,2}/g;
const WORD = /\S+/g;
/** A word worth unescaping: it holds an escape or a long base64-looking run. */
const ESCAPED = /\\|%[0-9a-fA-F]{2}|&#|&amp;|[A-Za-z0-9+/_-]{12}/;
/** Pieces of a word to narrow a redaction to (JSON punctuation, quotes, brackets). */
const PIECE = /[^"'`<>()[\]{},;]+/g;
const UNESCAPE_DEPTH = 4;
const MAX_READINGS = 256;

/** One unescape step of every kind, each a new reading of the text. */
function unescapeSteps(text: string, minRun: number): string[] {
    const out: string[] = [];
    if (text.includes('\\'))
        out.push(
            text.replace(/\\(u[0-9a-fA-F]{4}|[^u])/g, (_m, e: string) =>
                e.length === 5 ? String.fromCharCode(parseInt(e.slice(1), 16)) : e,
            ),
        );
    if (text.includes('%')) out.push(text.replace(/%([0-9a-fA-F]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16))));
    if (text.includes('&')) {
        out.push(
            text
                .replace(/&#[xX]([0-9a-fA-F]+);/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16) & 0xffff))
                .replace(/&#(\d+);/g, (_m, d: string) => String.fromCharCode(Number(d) & 0xffff))
                .replaceAll('&quot;', '"')
                .replaceAll('&amp;', '&'),
        );
    }
    for (const run of text.match(BASE64_RUN) ?? []) {
        if (run.length < minRun) continue;
        for (let o = 0; o < 4; o++) out.push(Buffer.from(run.slice(o), 'base64').toString('latin1'));
    }
    return out.filter(s => s !== text);
}

/** A parsed value (strings, arrays, plain objects) with every string, keys of objects too, passed through `scrub`. */
export function scrubDeep<T>(value: T, scrub: (text: string) => string): T {
    if (typeof value === 'string') return scrub(value) as T;
    if (Array.isArray(value)) return value.map(v => scrubDeep(v, scrub)) as T;
    if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
        return Object.fromEntries(Object.entries(value).map(([k, v]) => [scrub(k), scrubDeep(v, scrub)])) as T;
    }
    return value;
}

export function keyScrubber(key: string | undefined): (text: string) => string {
    if (!key || key.length < 4) return text => text;
    const parts = [key, ...bodies(key)];
    const plain = new RegExp(parts.map(fuzzy).join('|'), 'g');
    const holds = new RegExp(parts.map(fuzzy).join('|'));
    const cores = parts.flatMap(base64Cores);
    // The shortest base64 that can hold a part of the key.
    const minRun = Math.max(8, Math.floor((Math.min(...parts.map(p => p.length)) * 4) / 3));
    /** Whether `text` gives the key back after up to UNESCAPE_DEPTH unescape steps. */
    const recoverable = (text: string): boolean => {
        let level = [text];
        const seen = new Set(level);
        for (let depth = 0; depth <= UNESCAPE_DEPTH && level.length; depth++) {
            if (level.some(t => holds.test(t) || cores.some(c => t.includes(c)))) return true;
            if (depth === UNESCAPE_DEPTH) break;
            const next: string[] = [];
            for (const t of level) {
                for (const s of unescapeSteps(t, minRun)) {
                    if (seen.has(s) || seen.size >= MAX_READINGS) continue;
                    seen.add(s);
                    next.push(s);
                }
            }
            level = next;
        }
        return false;
    };
    return text => {
        let out = text.replace(plain, REDACTED);
        for (const core of cores) {
            if (!out.includes(core)) continue;
            // The whole base64 run holding the key's encoding: what surrounds it is the wrapping, encoded with it.
            out = out.replace(BASE64_RUN, run => (run.includes(core) ? REDACTED : run));
        }
        // Whatever still holds the key under nested encodings, word by word: the smallest piece that gives it back.
        return out.replace(WORD, word => {
            if (!ESCAPED.test(word) || !recoverable(word)) return word;
            let narrowed = false;
            const pieces = word.replace(PIECE, piece => {
                if (!recoverable(piece)) return piece;
                narrowed = true;
                const runs = piece.replace(BASE64_RUN, run => (run.length >= minRun && recoverable(run) ? REDACTED : run));
                return runs !== piece && !recoverable(runs) ? runs : REDACTED;
            });
            return narrowed && !recoverable(pieces) ? pieces : REDACTED;
        });
    };
}
