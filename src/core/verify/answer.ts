/**
 * Reading the answer out of a model's response (METHODS.md §1, "Answer parsing"): binary yes / no / unsure,
 * statements true / false / don't know, multiple choice. The rest of the response is the rationale.
 *
 * The ERBench authors' rule is kept (lower-case; drop "yes/no:" and "yes or no:"; "yes/unsure" and "no/unsure"
 * → unsure; the first word decides), made robust to the decoration real models add: leading whitespace,
 * quotes, Markdown emphasis and headings, "A:" / "Answer:" labels. What the authors counted as unsure without
 * being unsure is kept apart as 'unparseable' (both count in M).
 */
import type { AnswerClass, ParsedAnswer } from './types.js';
import { readChoice, readStatement, readYesNo, type Reading } from '../reader/index.js';

export { firstSentenceEnd } from '../reader/index.js';
export type { ParsedAnswer } from './types.js';

function parsed(r: Reading, answer: AnswerClass = r.label as AnswerClass): ParsedAnswer {
    return { answer, rationaleStart: r.rationaleStart, span: r.span, why: r.why, stance: r.stance };
}

/** Yes / no / unsure: the reader's rule (src/core/reader/answer.ts readYesNo). */
export function parseBinary(response: string): ParsedAnswer {
    return parsed(readYesNo(response));
}

/** Statements (GraphEval): don't-know first, then an explicit verdict, then the opening word (readStatement). */
export function parseStatement(response: string): ParsedAnswer {
    return parsed(readStatement(response));
}

/**
 * Multiple choice (readChoice): "Option N" in every style, a bare number, an option's text; several → multiple;
 * out of range → binding; none named → 'none' (None of the above, as the paper reads it). `rule: 'paper'` is
 * the authors' `Option (\d)` in the first sentence.
 */
export function parseChoice(response: string, optionCount: number, options?: readonly string[], rule?: 'paper' | 'robust'): ParsedAnswer {
    const texts = options ?? Array.from({ length: optionCount }, () => '');
    const r = readChoice(response, texts, rule ? { rule } : {});
    const out = parsed(r);
    if (r.option !== undefined) out.option = r.option;
    return out;
}
