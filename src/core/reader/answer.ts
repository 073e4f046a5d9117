/**
 * Answer readers (issue 28 item 1): every reader returns what it read, where (a [start, end) span of the
 * response, empty when nothing was read), why (a short reason a person can check), and where the rationale
 * starts. One taxonomy for not answering, shared by every family:
 *   - abstain: the model says it does not know ("I don't know", "not sure", "cannot verify");
 *   - refuse: the model declines to answer ("I'm sorry, I can't help with that", "As an AI …");
 *   - hedged: an answer with a caveat ("Yes, although I cannot verify the year") — an answer, not a missing one.
 * Each family maps these onto its paper's M / IDK rule (`stance` below; docs/verification.md).
 */

import type { Stance } from './types.js';

export type { Stance } from './types.js';

export interface Reading<L extends string = string> {
    label: L;
    /** [start, end) of the words read as the answer; [i, i] when nothing was read. */
    span: [number, number];
    why: string;
    stance: Stance;
    /** Offset where the rationale (the text after the answer) starts. */
    rationaleStart: number;
}

export type YesNo = 'yes' | 'no' | 'unsure' | 'unparseable';
export type Truth = 'true' | 'false' | 'dont_know' | 'unparseable';
export type ChoiceLabel = 'option' | 'multiple' | 'none' | 'binding' | 'unsure' | 'unparseable';

export interface ChoiceReading extends Reading<ChoiceLabel> {
    /** 'option' / 'binding': the option named (1-based); 'multiple': every option named. */
    option?: number;
    options?: number[];
}

/** Decoration before the answer word: spaces, quotes, Markdown, bullets, and answer labels. */
const LEAD = /^(?:[\s"'`*_#>~\-•\u201c\u201d\u2018\u2019]+|(?:a|answer|final answer|my answer|response|yes\s*\/\s*no|yes or no|true or false|true\s*\/\s*false)\s*[:\-]\s*)/i;
/** Punctuation between the answer word and the rationale. */
const AFTER = /^[\s.,!:;)\]*_"'`\u201d\u2019\u2013\u2014-]*/;

/** The offset of the first meaningful character after any decoration. */
export function skipLead(text: string, max = 200): number {
    let i = 0;
    for (let guard = 0; guard < 20 && i < Math.min(text.length, max); guard++) {
        const m = LEAD.exec(text.slice(i, i + 80));
        if (!m || m[0].length === 0) break;
        i += m[0].length;
    }
    return i;
}

function after(text: string, at: number): number {
    const m = AFTER.exec(text.slice(at, at + 40));
    return at + (m ? m[0].length : 0);
}

// ---------------------------------------------------------------- not answering

const NEG = String.raw`(?:do\s*n[o']?t|don'?t|dont|cannot|can\s*not|can'?t|could\s*n[o']?t|couldn'?t|am\s+unable\s+to|'?m\s+unable\s+to|am\s+not\s+able\s+to|'?m\s+not\s+able\s+to|have\s+no\s+way\s+to|was\s+unable\s+to|was\s+not\s+able\s+to)`;
const KNOW_VERB = String.raw`(?:know|say|tell|determine|verify|confirm|answer\s+(?:this|that|the\s+question)\s+(?:with\s+certainty|accurately|definitively)|find|recall|provide\s+(?:a\s+)?(?:definitive|accurate|specific|reliable|an?\s+answer)|be\s+(?:sure|certain))`;
/** Phrases that say the model does not know (anywhere they occur). */
const ABSTAIN = new RegExp(String.raw`\b(?:i\s*${NEG}\s+${KNOW_VERB}` +
    String.raw`|i\s*(?:'?m|am)\s+(?:not\s+(?:(?:entirely|completely|totally|fully|quite|100%|absolutely)\s+)?(?:sure|certain|aware)|unsure|uncertain)` +
    String.raw`|(?:^|[^a-z])not\s+sure|\bunsure\b|\buncertain\b` +
    String.raw`|i\s*(?:do\s*n[o']?t|don'?t|dont)\s+have\s+(?:enough|sufficient|any|specific|reliable|complete|full|detailed|access\s+to|the|real-time|up-to-date|information)` +
    String.raw`|i\s+have\s+no\s+(?:information|knowledge|data|record|details|way)` +
    String.raw`|there\s+(?:is|are)\s+no\s+(?:available\s+)?(?:information|records?|data|details)\s+(?:available|about|on|regarding)` +
    String.raw`|(?:it\s+is|it'?s)\s+(?:not\s+possible|impossible|unclear|difficult|hard)\s+(?:for\s+me\s+)?to\s+(?:determine|say|know|verify|tell|confirm)` +
    String.raw`|without\s+(?:more|additional|further)\s+(?:information|context|details)` +
    String.raw`|beyond\s+my\s+knowledge|my\s+knowledge\s+(?:cutoff|does\s+not|doesn'?t)` +
    String.raw`|no\s+way\s+(?:for\s+me\s+)?to\s+(?:know|tell|verify))`, 'i');
/** Phrases that decline to answer at all. */
const REFUSE = /\b(?:i\s*(?:'?m|am)\s+sorry,?\s+but\s+i\s+(?:can(?:no|')?t|won'?t|am\s+not\s+able\s+to|'?m\s+not\s+able\s+to|am\s+unable\s+to)\s+(?:help|assist|answer|comply|respond|provide\s+(?:an\s+)?answer|engage)|i\s+(?:can(?:no|')?t|won'?t|will\s+not)\s+(?:help|assist)\s+with|as\s+an\s+ai(?:\s+language\s+model)?,?\s+i\s+(?:can(?:no|')?t|don'?t|do\s+not|am\s+not)|i\s+(?:must|have\s+to)\s+decline|i\s+(?:can(?:no|')?t|won'?t)\s+answer\s+(?:this|that))/i;

/** How a text declines, if it does: refuse before abstain (a refusal often also says it cannot say). */
/** Every abstention or refusal phrase contains one of these: a cheap test before the two long expressions. */
const MAYBE_DECLINES = /not|n[\u2019']t|unsure|uncertain|sorry|unable|no\s|without|beyond|knowledge|impossible|unclear|difficult|hard|decline|as an ai|dont/i;

/**
 * Does the response say the word "no" anywhere outside the entity's own names (ERBench's knowledge rule
 * `no_word_no`: a title such as "No Country for Old Men" is no "no")?
 */
export function saysNoWord(response: string, names: readonly string[]): boolean {
    let rest = response;
    for (const v of names) if (v) rest = rest.split(v).join(' ');
    return /\bno\b/i.test(rest);
}

export function notAnswering(text: string): { stance: 'abstain' | 'refuse'; span: [number, number] } | undefined {
    if (!MAYBE_DECLINES.test(text)) return undefined;
    const r = REFUSE.exec(text);
    if (r) return { stance: 'refuse', span: [r.index, r.index + r[0].length] };
    const a = ABSTAIN.exec(text);
    if (a) {
        const lead = /^[^a-z]*/i.exec(a[0])![0].length;
        return { stance: 'abstain', span: [a.index + lead, a.index + a[0].length] };
    }
    return undefined;
}

// ---------------------------------------------------------------- sentences

/** Words whose full stop does not end a sentence ("No. 5", "e.g. Avatar", "Dr. Strange"). */
const ABBREVIATIONS = new Set(['no', 'nr', 'mr', 'mrs', 'ms', 'dr', 'st', 'jr', 'sr', 'vs', 'eg', 'ie', 'etc', 'approx', 'ca', 'vol', 'pp', 'fc', 'cf', 'ac', 'inc', 'ltd', 'co', 'mt', 'ft']);

/** The end of the first sentence: a full stop, ! or ? followed by a space or the end, or a line break. */
export function firstSentenceEnd(text: string, from = 0): number {
    const re = /[.!?](?=\s|$)|\n/g;
    re.lastIndex = from;
    for (let m = re.exec(text); m; m = re.exec(text)) {
        if (m[0] === '.') {
            const word = /([A-Za-z.]+)$/.exec(text.slice(Math.max(from, m.index - 8), m.index))?.[1];
            const w = word?.replace(/\./g, '').toLowerCase();
            // an abbreviation, or a lone initial ("L. Messi")
            if (w && (ABBREVIATIONS.has(w) || (word!.length === 1 && /[A-Z]/.test(word!)))) continue;
        }
        return m.index + 1;
    }
    return text.length;
}

// ---------------------------------------------------------------- yes / no

/** Paper rule: "yes/unsure" and "no/unsure" mean unsure. */
const HEDGED_PAIR = /^(?:yes|no)\s*\/\s*unsure\b/i;
const BINARY = /^(yes|no|unsure)\b/i;
/** "The answer is yes." closing a chain of thought: the last such sentence. */
const CONCLUSION = /\bthe\s+(?:final\s+)?answer\s+is\s*:?\s*["'*]*(yes|no|unsure)\b/gi;

function reading<L extends string>(label: L, span: [number, number], why: string, stance: Stance, rationaleStart: number): Reading<L> {
    return { label, span, why, stance, rationaleStart };
}

/**
 * Yes / no / unsure (ERBench's rule, made robust): decoration and "yes/no:" labels dropped; "yes/unsure" →
 * unsure; the first word decides; a response opening with "I don't know", "I'm not sure" … is unsure
 * (abstain), one opening with a refusal is unsure (refuse); a chain of thought closing "The answer is yes."
 * is read from that close; anything else is unparseable (counted in M with unsure, shown apart).
 * A "Yes"/"No" followed by a caveat is an answer (stance hedged).
 */
export function readYesNo(response: string): Reading<YesNo> {
    const start = skipLead(response);
    const head = response.slice(start, start + 160);
    const pair = HEDGED_PAIR.exec(head);
    if (pair) return reading('unsure', [start, start + pair[0].length], 'yes/unsure or no/unsure: unsure (paper rule)', 'abstain', after(response, start + pair[0].length));
    const m = BINARY.exec(head);
    if (m) {
        const word = m[1]!.toLowerCase() as 'yes' | 'no' | 'unsure';
        const end = start + m[0].length;
        if (word === 'unsure') return reading('unsure', [start, end], 'opens with "unsure"', 'abstain', after(response, end));
        // a caveat in the answer's sentence or the next one makes it a hedged answer
        const first = response.slice(end, firstSentenceEnd(response, firstSentenceEnd(response, end)));
        const caveat = notAnswering(first);
        return reading(word, [start, end], `opens with "${m[1]}"`, caveat ? 'hedged' : 'answer', after(response, end));
    }
    let last: RegExpExecArray | undefined;
    for (const c of response.matchAll(CONCLUSION)) last = c as RegExpExecArray;
    const first = notAnswering(response.slice(start, firstSentenceEnd(response, start)));
    if (last) {
        const word = last[1]!.toLowerCase() as 'yes' | 'no' | 'unsure';
        const at = last.index + last[0].length - last[1]!.length;
        return reading(word, [at, at + last[1]!.length], '"The answer is …" closes the response', word === 'unsure' ? 'abstain' : first ? 'hedged' : 'answer', start);
    }
    const firstEnd = firstSentenceEnd(response, start);
    const decline = notAnswering(response.slice(start, firstEnd));
    if (decline) {
        const span: [number, number] = [start + decline.span[0], start + decline.span[1]];
        return reading('unsure', span, decline.stance === 'refuse' ? 'refuses in its first sentence' : 'says it does not know in its first sentence', decline.stance, after(response, span[1]));
    }
    return reading('unparseable', [start, start], 'no yes / no / unsure at the start', 'none', start);
}

// ---------------------------------------------------------------- statements

/** "the statement is true", "this is false", "it is not correct" — not inside "whether / if the statement is true". */
const VERDICT = /\b(whether|if)?\s*(?:the\s+(?:given\s+)?statement|this\s+statement|the\s+claim|this\s+claim|this|it|that)\s+(?:is|appears\s+to\s+be|seems\s+to\s+be|would\s+be)\s+(not\s+)?(?:entirely\s+|completely\s+|factually\s+)?(true|false|correct|incorrect|accurate|inaccurate)\b/gi;
const OPEN_TRUE = /^(yes|true|correct|indeed)\b(?![-'])/i;
const OPEN_FALSE = /^(?:(no|false|incorrect)\b(?=\s*(?:[,.!:;\-\u2013\u2014]|$|the\s+statement|it\s+is|this\s+is))|(false|incorrect)\b)/i;

/**
 * True / false / I don't know (GraphEval): a response that OPENS with "I don't know" (or any abstention or
 * refusal) is don't-know before anything else — so "I don't know whether the statement is true" is not true
 * (the published parser's bug); then an explicit verdict in the first sentence ("the statement is false",
 * not after whether / if), then an opening yes / true / no / false; an abstention elsewhere in the first
 * sentence without any verdict is don't-know. A verdict with a caveat is an answer (hedged).
 */
export function readStatement(response: string): Reading<Truth> {
    const start = skipLead(response);
    const end = firstSentenceEnd(response, start);
    const first = response.slice(start, end);
    const decline = notAnswering(first);
    const opensDeclining = decline !== undefined && decline.span[0] <= 2;
    if (opensDeclining) {
        return reading('dont_know', [start + decline.span[0], start + decline.span[1]], decline.stance === 'refuse' ? 'opens with a refusal' : 'opens by saying it does not know', decline.stance, end);
    }
    const stance: Stance = decline ? 'hedged' : 'answer';
    const o = OPEN_TRUE.exec(first) ?? undefined;
    const f = o ? undefined : OPEN_FALSE.exec(first) ?? undefined;
    for (const v of first.matchAll(VERDICT)) {
        if (v[1]) continue;
        const negated = !!v[2];
        const w = v[3]!.toLowerCase();
        const positive = (w === 'true' || w === 'correct' || w === 'accurate') !== negated;
        // "Yes, the statement is not false" style double forms follow the verdict phrase.
        const at = start + v.index + v[0].length - v[3]!.length - (negated ? 0 : 0);
        return reading(positive ? 'true' : 'false', [start + v.index + (v[0].length - v[0].trimStart().length), start + v.index + v[0].length], `states "${v[0].trim()}"`, stance, Math.max(at, end));
    }
    const open = o ?? f;
    if (open) {
        const word = open[0].toLowerCase();
        const positive = o !== undefined;
        return reading(positive ? 'true' : 'false', [start, start + word.length], `opens with "${open[0]}"`, stance, after(response, start + word.length));
    }
    if (decline) return reading('dont_know', [start + decline.span[0], start + decline.span[1]], 'says it does not know and gives no verdict', decline.stance, end);
    return reading('unparseable', [start, start], 'no verdict in the first sentence', 'none', start);
}

// ---------------------------------------------------------------- short answers

/**
 * A short answer (evidence, closed / open book): labels, quotes and a closing full stop dropped. An answer
 * that only says it does not know, or refuses, is not an answer (unsure); an empty one is unparseable.
 */
export function readShort(response: string): Reading<'answer' | 'unsure' | 'unparseable'> & { text: string } {
    const start = skipLead(response);
    const body = response.slice(start);
    if (body.trim() === '') return { ...reading('unparseable', [start, start], 'empty', 'none', response.length), text: '' };
    const end = firstSentenceEnd(response, start);
    const first = response.slice(start, end);
    const decline = notAnswering(first);
    // "I am not sure, but I think it is X" is a hedged answer; "I am not sure." alone is an abstention.
    const rest = decline ? first.slice(decline.span[1]).replace(/^[\s,.;:!-]+/, '') : '';
    if (decline && !/^(?:but|however|though|although|my\s+best\s+guess|i\s+(?:think|believe|guess))\b/i.test(rest)) {
        return { ...reading('unsure', [start + decline.span[0], start + decline.span[1]], decline.stance === 'refuse' ? 'refuses' : 'says it does not know', decline.stance, end), text: '' };
    }
    let a = start, b = end;
    while (b > a && /[\s.!"'\u201d\u2019*_]/.test(response[b - 1]!)) b--;
    while (a < b && /["'\u201c\u2018*_]/.test(response[a]!)) a++;
    return { ...reading('answer', [a, b], decline ? 'an answer with a caveat' : 'the first sentence', decline ? 'hedged' : 'answer', end), text: response.slice(a, b) };
}

// ---------------------------------------------------------------- multiple choice

/** "Option 3", "option #3", "Option (3)", "options 1 and 3", "Options 2, 3". */
const OPTION_REF = /\boptions?\s*[#(]?\s*(\d+)\s*\)?((?:\s*(?:,|and|&|or)\s*(?:option\s*)?[#(]?\s*\d+\s*\)?)*)/gi;
/** A bare number naming an option at the start of the answer: "2.", "(2)", "2)", "2:", "[2]", "**2.**". */
const BARE = /^[([]?(\d{1,2})(?:[.):\]]|\s*[-\u2013\u2014]\s)(?!\d)/;
const NONE_OF = /\b(?:none\s+of\s+(?:the\s+)?(?:above|options|them|these)|(?:all|each)\s+(?:of\s+)?(?:the\s+)?(?:above\s+)?(?:options|statements)?\s*(?:are|is)\s+(?:correct|true|accurate)|there\s+is\s+no\s+(?:inaccurate|false|wrong|incorrect)\s+option|no\s+option\s+is\s+(?:inaccurate|false|wrong|incorrect))\b/i;
/** A line that introduces the answer rather than giving it ("The inaccurate option about … is:"). */
const PREAMBLE = /[:?]\s*$|^(?:the\s+)?(?:answer|correct\s+answer|inaccurate|false|wrong|incorrect)\b.*\b(?:option|answer|statement)\b.*\b(?:is|are)\s*$/i;

export interface ChoiceOptions {
    /** 'paper': the authors' rule — `Option (\d)` in the first sentence, nothing else. Default 'robust'. */
    rule?: 'paper' | 'robust';
}

function numbersIn(m: RegExpExecArray): number[] {
    return [Number(m[1]), ...[...(m[2] ?? '').matchAll(/\d+/g)].map(x => Number(x[0]))];
}

/** The lines / sentences of the opening, as [start, end) pieces: line breaks and sentence ends cut. */
function pieces(text: string, from: number, count: number): [number, number][] {
    const out: [number, number][] = [];
    let at = from;
    while (out.length < count && at < text.length) {
        while (at < text.length && /\s/.test(text[at]!)) at++;
        if (at >= text.length) break;
        const end = firstSentenceEnd(text, at);
        out.push([at, end]);
        at = end;
    }
    return out;
}

const squash = (s: string) => s.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim();

/**
 * Multiple choice. Robust rule: skip lines that only introduce the answer (a restated stem ending "is:"),
 * then in the first sentence that gives one: "Option N" (any decoration), a bare "N." / "(N)" / "N)" at its
 * start, or the text of exactly one option quoted without its number; several different options →
 * multiple; an out-of-range number → binding; "None of the above" / "all options are correct" → none; an
 * abstention or refusal → unsure; nothing named → none (as the authors read it), with why = "no option named".
 * Paper rule: `Option (\d)` in the first sentence only.
 */
export function readChoice(response: string, options: readonly string[], settings: ChoiceOptions = {}): ChoiceReading {
    const n = options.length;
    const start = skipLead(response);
    if (response.trim() === '') return reading('unparseable', [0, 0], 'empty response', 'none', response.length);
    const found = (nums: number[], span: [number, number], why: string, rationaleStart: number): ChoiceReading => {
        const uniq = [...new Set(nums)];
        if (uniq.length > 1) return { ...reading('multiple', span, `${why}: several options (${uniq.join(', ')})`, 'answer', rationaleStart), options: uniq };
        const k = uniq[0]!;
        if (k < 1 || k > n) return { ...reading('binding', span, `${why}: option ${k} does not exist`, 'answer', rationaleStart), option: k };
        return { ...reading('option', span, why, 'answer', rationaleStart), option: k };
    };
    if (settings.rule === 'paper') {
        const end = firstSentenceEnd(response, start);
        const nums: number[] = [];
        let span: [number, number] = [start, start];
        for (const m of response.slice(start, end).matchAll(/option\s*(\d)/gi)) {
            nums.push(Number(m[1]));
            if (nums.length === 1) span = [start + m.index, start + m.index + m[0].length];
        }
        if (nums.length === 0) return reading('none', [start, start], 'no "Option N" in the first sentence (paper rule: None of the above)', 'none', end);
        return found(nums, span, '"Option N" in the first sentence', after(response, span[1]));
    }
    const texts = options.map(squash);
    for (const [a, b] of pieces(response, start, 4)) {
        const piece = response.slice(a, b);
        const cleaned = piece.replace(/[*_`#>]/g, ' ');
        const nums: number[] = [];
        let span: [number, number] | undefined;
        for (const m of piece.matchAll(OPTION_REF)) {
            nums.push(...numbersIn(m));
            span ??= [a + m.index, a + m.index + m[0].length];
        }
        if (nums.length > 0) return found(nums, span!, '"Option N"', after(response, span![1]));
        const lead = /^[\s*_`#>•-]*/.exec(piece)![0].length;
        const bare = BARE.exec(piece.slice(lead));
        if (bare) {
            const s: [number, number] = [a + lead, a + lead + bare[0].length];
            return found([Number(bare[1])], s, `a bare number "${bare[0].trim()}" opens the answer`, after(response, s[1]));
        }
        const none = NONE_OF.exec(piece);
        if (none) return reading('none', [a + none.index, a + none.index + none[0].length], `says "${none[0]}"`, 'answer', after(response, a + none.index + none[0].length));
        const decline = notAnswering(piece);
        if (decline) return reading('unsure', [a + decline.span[0], a + decline.span[1]], decline.stance === 'refuse' ? 'refuses' : 'says it does not know', decline.stance, b);
        const said = squash(cleaned);
        const quoted = texts.map((t, i) => (t.length > 0 && (` ${said} `.includes(` ${t} `) || (said.length >= 12 && ` ${t} `.includes(` ${said} `))) ? i + 1 : 0)).filter(i => i > 0);
        if (quoted.length === 1) return found(quoted, [a, b], "the option's text, quoted without its number", b);
        if (quoted.length > 1) return found(quoted, [a, b], "several options' texts", b);
        if (!PREAMBLE.test(piece.trim())) break;
    }
    const end = firstSentenceEnd(response, start);
    return reading('none', [start, start], 'no option named (read as None of the above, as the paper does)', 'none', end);
}

/**
 * The ERBench authors' M rule for multiple choice: a "None of the above" answer counts as missing when it
 * contains one of these words (METHODS.md §1, "MC metrics").
 */
export const AUTHORS_DECLINE_WORDS = /\b(?:impossible|further|enough|specific|actual|additional|cannot|sorry)/i;
