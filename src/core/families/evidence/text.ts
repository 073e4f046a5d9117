/**
 * Short answers compared as SQuAD does (lower case, punctuation and articles dropped, white space folded), and the
 * places an answer occurs in a passage (whole words, any case, typographic quotes and apostrophes ignored).
 */
import { lazyPackage } from '../../lazy-package.js';
import { partOfLongerName, withoutDenied } from '../../reader/index.js';

/** SQuAD-style normalisation of an answer. */
export function normalise(s: string): string {
    return s
        .normalize('NFKD')
        .replace(/[\u0300-\u036f]/g, '')
        .toLowerCase()
        .replace(/[\u2018\u2019\u201c\u201d"'`]/g, '')
        .replace(/[^\p{L}\p{N}\s]/gu, ' ')
        .replace(/\b(a|an|the)\b/g, ' ')
        .replace(/\s+/g, ' ')
        .trim();
}

/** The answer without wrapping quotes (datasets often write “Squid Game”). */
export function unquote(s: string): string {
    return s
        .trim()
        .replace(/^["'\u201c\u201d\u2018\u2019]+|["'\u201c\u201d\u2018\u2019.]+$/g, '')
        .trim();
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
        if (p.length === 0 || t.length === 0) {
            best = Math.max(best, p.length === t.length ? 1 : 0);
            continue;
        }
        const counts = new Map<string, number>();
        for (const w of t) counts.set(w, (counts.get(w) ?? 0) + 1);
        let same = 0;
        for (const w of p) {
            const c = counts.get(w) ?? 0;
            if (c > 0) {
                same++;
                counts.set(w, c - 1);
            }
        }
        if (same === 0) continue;
        const precision = same / p.length,
            recall = same / t.length;
        best = Math.max(best, (2 * precision * recall) / (precision + recall));
    }
    return best;
}

/**
 * The answer is stated in the prediction: an exact match, or the normalised answer as whole words inside it, outside
 * the prediction's denied spans.
 * A one-word form that is part of a longer form of the list (a name part: "James" of "James Harden") counts
 * only where it is not one word of a longer written name ("LeBron James" names someone else).
 */
export function states(answer: string, golds: readonly string[]): boolean {
    // A value inside a denied or corrected span ("Z (not W, as the passage claims)") is not stated (reader/denial.ts).
    const prediction = withoutDenied(answer);
    const p = ` ${normalise(prediction)} `;
    const forms = golds.map(normalise).filter(n => n.length > 0);
    return forms.some(n => {
        if (!p.includes(` ${n} `)) return false;
        const part = !n.includes(' ') && forms.some(o => o !== n && ` ${o} `.includes(` ${n} `));
        return !part || occurrences(prediction, [n]).some(([a, b]) => !partOfLongerName(prediction, a, b));
    });
}

const WORD_CHAR = /[\p{L}\p{N}]/u;

/**
 * A length-preserving fold (so positions carry over): lower case, any apostrophe as ', any white space as a space,
 * and with `hyphens` also hyphens, dashes, underscores, slashes and plus signs as spaces (URL slugs). Forms are
 * found with indexOf on folded text: a regex per form would be compiled per answer (milliseconds each with
 * Unicode classes), and a run meets thousands of answers.
 */
function foldText(s: string, hyphens: boolean): string {
    let lower = s.toLowerCase();
    if (lower.length !== s.length) {
        // A character whose lower case is longer ("İ"): fold character by character, keeping it as it is.
        lower = '';
        for (const c of s) {
            const l = c.toLowerCase();
            lower += l.length === c.length ? l : c;
        }
    }
    const out = lower.replace(/['\u2018\u2019\u02bc`]/g, "'").replace(/\s/g, ' ');
    return hyphens ? out.replace(/[-\u2010-\u2015_/+]/g, ' ') : out;
}

/** A form as looked for: folded, runs of white space as one space. */
const foldForm = (form: string, hyphens: boolean) => foldText(unquote(form), hyphens).replace(/ {2,}/g, ' ').trim();

/** Where `form` starts in `folded` (already folded), every time. */
function starts(folded: string, form: string): number[] {
    const out: number[] = [];
    for (let i = folded.indexOf(form); i >= 0; i = folded.indexOf(form, i + 1)) out.push(i);
    return out;
}

const isWordChar = (c: string | undefined) => c !== undefined && WORD_CHAR.test(c);

/** Where any of `forms` occurs in `text` as whole words (case-insensitive), longest form first, non-overlapping. */
export function occurrences(text: string, forms: readonly string[]): [number, number][] {
    const out: [number, number][] = [];
    const folded = foldText(text, false);
    const sorted = [...new Set(forms.map(f => foldForm(f, false)).filter(f => f.length > 0))].sort((a, b) => b.length - a.length);
    for (const f of sorted) {
        for (const a of starts(folded, f)) {
            const b = a + f.length;
            if (isWordChar(text[a - 1]) || isWordChar(text[b])) continue;
            if (!out.some(([x, y]) => x < b && a < y)) out.push([a, b]);
        }
    }
    return out.sort((a, b) => a[0] - b[0]);
}

/** Markup in a passage: an element or an entity (“<a href=…>”, “&amp;”). */
const MARKUP = /<\/?[a-z][a-z0-9]*(\s[^<>]*)?\/?>|&(#\d+|#x[0-9a-f]+|[a-z]+);/i;

const htmlToText = lazyPackage<typeof import('html-to-text')>('html-to-text', () => require('html-to-text'));

/**
 * A passage as plain text: markup (RealtimeQA's `<a href=…>` links) turned to text with html-to-text, link targets
 * and images dropped, no line wrapping; a passage without markup is returned as it is.
 */
export function plainText(passage: string): string {
    if (!MARKUP.test(passage)) return passage;
    // html-to-text (with htmlparser2 and its entity tables) at the first passage with markup: every face loads the
    // probe families.
    const { compile } = htmlToText();
    toText ??= compile({
        wordwrap: false,
        selectors: [
            { selector: 'a', options: { ignoreHref: true } },
            { selector: 'img', format: 'skip' },
            ...['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map(selector => ({ selector, options: { uppercase: false } })),
        ],
    });
    return toText(passage).trim();
}

/** html-to-text's converter, its options compiled once (compiling per passage costs more than converting). */
let toText: ((html: string) => string) | undefined;

/**
 * The same text, folded for finding an answer wherever it hides (length-preserving, so positions carry over):
 * lower case, any apostrophe as ', hyphens, dashes, underscores, slashes and plus signs (URL slugs, hyphenated
 * forms) as spaces.
 */
function fold(s: string): string {
    return foldText(s, true);
}

/**
 * Where the forms of the answer occur in the text, folded, inside words too ("Avatarland", a URL slug), except that a
 * number is never found inside a longer number ("6" in "2016", "16.5"). The text is folded once for all the forms.
 */
export function foldedHits(text: string, forms: string | readonly string[]): [number, number][] {
    const folded = fold(text);
    const digit = (i: number) => i >= 0 && i < folded.length && folded.charCodeAt(i) >= 48 && folded.charCodeAt(i) <= 57;
    const point = (i: number) => folded[i] === '.' || folded[i] === ',';
    const out: [number, number][] = [];
    for (const form of new Set(typeof forms === 'string' ? [forms] : forms)) {
        const f = foldForm(form, true);
        if (!f) continue;
        for (const a of starts(folded, f)) {
            const b = a + f.length;
            if (digit(a) && (digit(a - 1) || (point(a - 1) && digit(a - 2)))) continue;
            if (digit(b - 1) && (digit(b) || (point(b) && digit(b + 1)))) continue;
            out.push([a, b]);
        }
    }
    return out;
}

/** The text states one of the forms anywhere (folded, inside words too; see foldedHits). */
export const mentions = (text: string, forms: readonly string[]) => foldedHits(text, forms).length > 0;

const segmenter = new Intl.Segmenter('en', { granularity: 'sentence' });

/**
 * The end of a sentence so far, from a white space on (what the end-of-sentence tests read): testing the whole
 * growing sentence after every segment would cost its length each time. Without white space before a word in the
 * last 40 characters the end is one long token, which no abbreviation is ('x' keeps "^" from matching inside it).
 */
function tail(current: string): string {
    if (current.length <= 40) return current;
    const t = current.slice(-40);
    const space = t.search(/\s(?=\S)/);
    return space < 0 ? `x${t}` : t.slice(space);
}
/** Words that end in a full stop without ending a sentence (titles, months, initials, Latin, company forms). */
const ABBREVIATION =
    /(?:^|[\s(“"'])(?:mr|mrs|ms|dr|prof|st|jr|sr|gen|gov|sen|rep|rev|lt|col|capt|sgt|maj|mt|ft|inc|corp|ltd|co|vs|etc|approx|no|nos|fig|est|dept|univ|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec|a\.m|p\.m|e\.g|i\.e|u\.s|u\.k|u\.n|d\.c|\p{Lu})\.["”’)]*\s*$/iu;

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
            const end = tail(current);
            const glue =
                current !== '' &&
                (ABBREVIATION.test(end) ||
                    /^\s*[\p{Ll}\d%$€£]/u.test(segment) ||
                    !/\p{L}/u.test(segment) ||
                    !/[.!?]["”’)]*\s*$/.test(end));
            if (current !== '' && !glue) {
                out.push(current.trim());
                current = '';
            }
            current += segment;
        }
        if (current.trim()) out.push(current.trim());
    }
    return out;
}
