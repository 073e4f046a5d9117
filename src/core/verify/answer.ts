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
import { readChoice, readStatement, readYesNo, type ClosedOptions, type Proposition, type Reading } from '../reader/index.js';
import type { Question } from '../probes/question.js';

export type { ParsedAnswer } from './types.js';

function parsed(r: Reading, answer: AnswerClass = r.label as AnswerClass): ParsedAnswer {
    const { rationaleStart, span, why, stance } = r;
    const items = r.read;
    if (!items) return { answer, rationaleStart, span, why, stance };
    // built whole (a field added to the literal afterwards cost a second store), the items in a loop (no closure)
    const read: NonNullable<ParsedAnswer['read']> = new Array(items.length);
    for (let i = 0; i < items.length; i++) {
        const x = items[i]!;
        read[i] = { span: x.span, role: x.role, says: x.polarity, hedged: x.hedged };
    }
    return { answer, rationaleStart, span, why, stance, read };
}

/** The question's answer rule (`answer_rule paper`) and its words, as the reader takes them. */
function closed(question: Pick<Question, 'answerRule' | 'question'> | undefined): ClosedOptions {
    if (!question) return {};
    return question.answerRule === 'paper' ? { rule: 'paper', question: question.question } : { question: question.question };
}

/**
 * Yes / no / unsure: the reader's rule of where the verdict is (src/core/reader/verdict.ts), or the paper's.
 * `proposition`: the question's entities and relation, from a family that knows them (reader/proposition.ts).
 */
export function parseBinary(
    response: string,
    question?: Pick<Question, 'answerRule' | 'question'>,
    proposition?: Proposition,
): ParsedAnswer {
    const options = closed(question);
    return parsed(readYesNo(response, proposition ? { ...options, proposition } : options));
}

/** Statements (GraphEval): true / false / don't know where the verdict is (readStatement), or the paper's rule. */
export function parseStatement(response: string, question?: Pick<Question, 'answerRule' | 'question'>): ParsedAnswer {
    return parsed(readStatement(response, closed(question)));
}

/**
 * Multiple choice (readChoice): "Option N" in every style, a bare number, an option's text; several → multiple;
 * out of range → binding; none named → 'none' (None of the above, as the paper reads it). `rule: 'paper'` is
 * the authors' `Option (\d)` in the first sentence.
 */
export function parseChoice(
    response: string,
    optionCount: number,
    options?: readonly string[],
    rule?: 'paper' | 'robust',
): ParsedAnswer {
    const texts = options ?? Array.from({ length: optionCount }, () => '');
    const r = readChoice(response, texts, rule ? { rule } : {});
    const out = parsed(r);
    if (r.option !== undefined) out.option = r.option;
    if (r.options) out.read = r.options.map(o => ({ span: r.span, role: 'named', says: String(o), hedged: false }));
    return out;
}
