/**
 * Short answers compared as SQuAD does (lower case, punctuation and articles dropped, white space folded), and the
 * places an answer occurs in a passage (whole words, any case, typographic quotes and apostrophes ignored).
 */
import { convert } from 'html-to-text';

/** SQuAD-style normalisation of an answer. */
export function normalise(s: string): string {
    return s.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase()
        .replace(/[\u2018\u2019\u201c\u201d"'`]/g, '').replace(/[^\p{L}\p{N}\s]/gu, ' ')
        .replace(/\b(a|an|the)\b/g, ' ').replace(/\s+/g, ' ').trim();
}

/** The answer without wrapping quotes (datasets often write “Squid Game”). */
export function unquote(s: string): string {
    return s.trim().replace(/^["'\u201c\u201d\u2018\u2019]+|["'\u201c\u201d\u2018\u2019.]+$/g, '').trim();
}

export function exactMatch(prediction: string, golds: readonly string[]): boolean {
    const p = normalise(prediction);
    return golds.some(g => normalise(g) === p);
}

export function tokenF1(prediction: string, golds: readonly string[]): number {
    const p = normalise(prediction).split(' ').filter(Boolean);
    let best = 0;
    for (const g of golds) {
        const t = normalise(g).split(' ').filter(Boolean);
        if (p.length === 0 || t.length === 0) { best = Math.max(best, p.length === t.length ? 1 : 0); continue; }
        const counts = new Map<string, number>();
        for (const w of t) counts.set(w, (counts.get(w) ?? 0) + 1);
        let same = 0;
        for (const w of p) { const c = counts.get(w) ?? 0; if (c > 0) { same++; counts.set(w, c - 1); } }
        if (same === 0) continue;
        const precision = same / p.length, recall = same / t.length;
        best = Math.max(best, (2 * precision * recall) / (precision + recall));
    }
    return best;
}

/** The answer is stated in the prediction: an exact match, or the normalised answer as whole words inside it. */
export function states(prediction: string, golds: readonly string[]): boolean {
    const p = ` ${normalise(prediction)} `;
    return golds.some(g => { const n = normalise(g); return n.length > 0 && p.includes(` ${n} `); });
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Whole-word patterns, compiled once per form (a run asks about the same answers many times). */
const patterns = new Map<string, RegExp>();
function wordPattern(form: string): RegExp {
    let re = patterns.get(form);
    if (!re) {
        if (patterns.size > 50_000) patterns.clear();
        re = new RegExp(`(?<![\\p{L}\\p{N}])${formSource(form)}(?![\\p{L}\\p{N}])`, 'giu');
        patterns.set(form, re);
    }
    return re;
}

/** Where any of `forms` occurs in `text` as whole words (case-insensitive), longest form first, non-overlapping. */
export function occurrences(text: string, forms: readonly string[]): [number, number][] {
    const out: [number, number][] = [];
    const sorted = [...new Set(forms.map(unquote).filter(f => f.length > 0))].sort((a, b) => b.length - a.length);
    for (const f of sorted) {
        for (const m of text.matchAll(wordPattern(f))) {
            const span: [number, number] = [m.index, m.index + m[0].length];
            if (!out.some(([a, b]) => a < span[1] && span[0] < b)) out.push(span);
        }
    }
    return out.sort((a, b) => a[0] - b[0]);
}

/** Characters that look alike in an answer and a passage: curly apostrophes and quotes. */
const apostrophes = /['\u2018\u2019\u02bc`]/;

/**
 * A regex source for `form` as written in a passage: any apostrophe for an apostrophe (“Trader Joe’s” for
 * “Trader Joe's”) and any run of spaces for a space.
 */
function formSource(form: string): string {
    return [...form].map(c => (apostrophes.test(c) ? "['\u2018\u2019\u02bc`]" : /\s/.test(c) ? '\\s+' : escape(c))).join('').replace(/(\\s\+)+/g, '\\s+');
}

/** Markup in a passage: an element or an entity (“<a href=…>”, “&amp;”). */
const MARKUP = /<\/?[a-z][a-z0-9]*(\s[^<>]*)?\/?>|&(#\d+|#x[0-9a-f]+|[a-z]+);/i;

/**
 * A passage as plain text: markup (RealtimeQA's `<a href=…>` links) turned to text with html-to-text, link targets
 * and images dropped, no line wrapping; a passage without markup is returned as it is.
 */
export function plainText(passage: string): string {
    if (!MARKUP.test(passage)) return passage;
    return convert(passage, {
        wordwrap: false,
        selectors: [
            { selector: 'a', options: { ignoreHref: true } },
            { selector: 'img', format: 'skip' },
            ...['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map(selector => ({ selector, options: { uppercase: false } })),
        ],
    }).trim();
}

/**
 * The same text, folded for finding an answer wherever it hides (length-preserving, so positions carry over):
 * lower case, any apostrophe as ', hyphens, dashes, underscores, slashes and plus signs (URL slugs, hyphenated
 * forms) as spaces.
 */
export function fold(s: string): string {
    let out = '';
    for (const c of s) {
        const l = c.toLowerCase();
        const one = l.length === c.length ? l : c;
        out += apostrophes.test(one) ? "'" : /[-\u2010-\u2015_/+]/.test(one) ? ' '.repeat(one.length) : one;
    }
    return out;
}

/**
 * Where a form of the answer occurs in the folded text, inside words too ("Avatarland", a URL slug), except that a
 * number is never found inside a longer number ("6" in "2016").
 */
export function foldedHits(text: string, form: string): [number, number][] {
    const f = fold(unquote(form)).trim();
    if (!f) return [];
    const before = /^\d/.test(f) ? '(?<![\\d.,])' : '';
    const after = /\d$/.test(f) ? '(?![\\d]|[.,]\\d)' : '';
    const re = new RegExp(`${before}${formSource(f)}${after}`, 'gu');
    return [...fold(text).matchAll(re)].map(m => [m.index, m.index + m[0].length] as [number, number]);
}

const segmenter = new Intl.Segmenter('en', { granularity: 'sentence' });
/** Words that end in a full stop without ending a sentence (titles, months, initials, Latin, company forms). */
const ABBREVIATION = /(?:^|[\s(“"'])(?:mr|mrs|ms|dr|prof|st|jr|sr|gen|gov|sen|rep|rev|lt|col|capt|sgt|maj|mt|ft|inc|corp|ltd|co|vs|etc|approx|no|nos|fig|est|dept|univ|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec|a\.m|p\.m|e\.g|i\.e|u\.s|u\.k|u\.n|d\.c|\p{Lu})\.["”’)]*\s*$/iu;

/**
 * A text's sentences: Unicode sentence boundaries (Intl.Segmenter), joined again where a boundary is not one — after
 * an abbreviation or an initial ("Mr.", "Jan.", "J."), before a lower-case word or a number, or around a piece with
 * no letters — so URLs, decimals and abbreviations stay whole. Blank lines always end a sentence.
 */
export function sentences(text: string): string[] {
    const out: string[] = [];
    for (const block of text.split(/\n\s*\n/)) {
        let current = '';
        for (const { segment } of segmenter.segment(block)) {
            const glue = current !== '' && (ABBREVIATION.test(current) || /^\s*[\p{Ll}\d%$€£]/u.test(segment) || !/\p{L}/u.test(segment) || !/[.!?]["”’)]*\s*$/.test(current));
            if (current !== '' && !glue) { out.push(current.trim()); current = ''; }
            current += segment;
        }
        if (current.trim()) out.push(current.trim());
    }
    return out;
}
