/**
 * Reading the answer out of a model's response (METHODS.md §1, "Answer parsing"): binary yes / no / unsure,
 * statements true / false / don't know, multiple choice. The rest of the response is the rationale.
 *
 * The ERBench authors' rule is kept (lower-case; drop "yes/no:" and "yes or no:"; "yes/unsure" and "no/unsure"
 * → unsure; the first word decides), made robust to the decoration real models add: leading whitespace,
 * quotes, Markdown emphasis and headings, "A:" / "Answer:" labels. What the authors counted as unsure without
 * being unsure is kept apart as 'unparseable' (both count in M).
 */
import type { AnswerClass } from './types.js';

export interface ParsedAnswer {
    answer: AnswerClass;
    /** choice: the chosen option (1-based), for 'option' and 'binding'. */
    option?: number;
    /** Offset in the response where the rationale starts. */
    rationaleStart: number;
}

/** Decoration before the answer word: spaces, quotes, Markdown, bullets, and answer labels. */
const LEAD = /^(?:[\s"'`*_#>~\-•\u201c\u201d\u2018\u2019]+|(?:a|answer|final answer|response|yes\s*\/\s*no|yes or no)\s*[:\-]\s*)/i;
/** Paper rule: "yes/unsure" and "no/unsure" mean unsure. */
const HEDGED = /^(?:yes|no)\s*\/\s*unsure\b/i;
const BINARY = /^(yes|no|unsure)\b/i;
/** Hedges that say unsure in other words (the paper counted them as unsure too, via "anything else"). */
const UNSURE_WORDS = /^(?:i\s*(?:'|a)?m\s+(?:not\s+sure|unsure|uncertain)|i\s+am\s+not\s+sure|not\s+sure|uncertain|i\s+(?:do\s*n[o']?t|cannot|can't)\s+(?:know|say|determine|confirm|verify))\b/i;
/** Punctuation between the answer word and the rationale. */
const AFTER = /^[\s.,!:;)\]*_"'`\u201d\u2019\u2013\u2014-]*/;

/** Skips the decoration before the answer; returns the offset of the first meaningful character. */
function skipLead(text: string, max = 200): number {
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

export function parseBinary(response: string): ParsedAnswer {
    const start = skipLead(response);
    const head = response.slice(start, start + 120);
    const hedged = HEDGED.exec(head);
    if (hedged) return { answer: 'unsure', rationaleStart: after(response, start + hedged[0].length) };
    const m = BINARY.exec(head);
    if (m) return { answer: m[1]!.toLowerCase() as AnswerClass, rationaleStart: after(response, start + m[0].length) };
    const u = UNSURE_WORDS.exec(head);
    if (u) return { answer: 'unsure', rationaleStart: after(response, start + u[0].length) };
    const concluded = concludingAnswer(response);
    if (concluded) return { answer: concluded, rationaleStart: start };
    return { answer: 'unparseable', rationaleStart: start };
}

/** "… The answer is yes." (the close of a chain-of-thought demonstration): the last such sentence. */
const CONCLUSION = /\bthe\s+(?:final\s+)?answer\s+is\s*:?\s*["'*]*(yes|no|unsure)\b/gi;

/**
 * A chain-of-thought answer that does not open with yes / no / unsure but ends "The answer is yes." is read
 * from that close (the ERBench authors' CoT demonstrations end that way); the whole text is the rationale.
 */
function concludingAnswer(response: string): 'yes' | 'no' | 'unsure' | undefined {
    let last: string | undefined;
    for (const m of response.matchAll(CONCLUSION)) last = m[1]!.toLowerCase();
    return last as 'yes' | 'no' | 'unsure' | undefined;
}

/** Words whose full stop does not end a sentence ("No. 5", "e.g. Avatar", "Dr. Strange"). */
const ABBREVIATIONS = new Set(['no', 'nr', 'mr', 'mrs', 'ms', 'dr', 'st', 'jr', 'sr', 'vs', 'eg', 'ie', 'etc', 'approx', 'ca', 'vol', 'pp']);

/** The end of the first sentence: a full stop, ! or ? followed by a space or the end, or a line break. */
export function firstSentenceEnd(text: string, from = 0): number {
    const re = /[.!?](?=\s|$)|\n/g;
    re.lastIndex = from;
    for (let m = re.exec(text); m; m = re.exec(text)) {
        if (m[0] === '.') {
            const word = /([A-Za-z.]+)$/.exec(text.slice(Math.max(from, m.index - 8), m.index))?.[1]?.replace(/\./g, '').toLowerCase();
            if (word && ABBREVIATIONS.has(word)) continue;
        }
        return m.index + 1;
    }
    return text.length;
}

const DONT_KNOW = /\b(?:i\s+(?:do\s*n[o']?t|don'?t|cannot|can'?t)\s+(?:know|say|tell|determine|verify|confirm)|not\s+sure|unsure|uncertain|no\s+(?:way\s+to\s+know|information))/i;

/**
 * Statements (GraphEval): don't-know is checked FIRST, so "I don't know whether the statement is true" is not
 * read as true (the published parser's bug).
 */
export function parseStatement(response: string): ParsedAnswer {
    const start = skipLead(response);
    const end = firstSentenceEnd(response, start);
    const first = response.slice(start, end);
    if (DONT_KNOW.test(first)) return { answer: 'dont_know', rationaleStart: end };
    const m = /^(yes|no|true|false|correct|incorrect)\b/i.exec(first);
    if (m) {
        const w = m[1]!.toLowerCase();
        return { answer: w === 'yes' || w === 'true' || w === 'correct' ? 'true' : 'false', rationaleStart: after(response, start + m[0].length) };
    }
    const t = /\b(?:is|are)\s+(true|false|correct|incorrect)\b/i.exec(first);
    if (t) return { answer: t[1]!.toLowerCase() === 'true' || t[1]!.toLowerCase() === 'correct' ? 'true' : 'false', rationaleStart: end };
    return { answer: 'unparseable', rationaleStart: start };
}

const OPTION = /\boption\s*[#(]?\s*(\d+)\s*\)?/gi;
const NONE_OF_ABOVE = /\bnone\s+of\s+(?:the\s+)?(?:above|options)\b/i;

/**
 * Multiple choice: `Option (\d)` in the first sentence; several different numbers → 'multiple' (multiple-answer
 * error); a number outside 1..optionCount → 'binding' (binding error); no number → 'none' (None of the above,
 * as the paper reads it). An empty response is 'unparseable', never a choice.
 */
export function parseChoice(response: string, optionCount: number): ParsedAnswer {
    const start = skipLead(response);
    if (response.trim() === '') {
        return { answer: 'unparseable', rationaleStart: response.length };
    }
    const end = firstSentenceEnd(response, start);
    const first = response.slice(start, end);
    const numbers = new Set<number>();
    let lastEnd = 0;
    for (const m of first.matchAll(OPTION)) { numbers.add(Number(m[1])); lastEnd = m.index + m[0].length; }
    if (numbers.size === 0) {
        const none = NONE_OF_ABOVE.exec(first);
        return { answer: 'none', rationaleStart: none ? after(response, start + none.index + none[0].length) : end };
    }
    const rationaleStart = after(response, start + lastEnd);
    if (numbers.size > 1) return { answer: 'multiple', rationaleStart };
    const n = [...numbers][0]!;
    if (n < 1 || n > optionCount) return { answer: 'binding', option: n, rationaleStart };
    return { answer: 'option', option: n, rationaleStart };
}
