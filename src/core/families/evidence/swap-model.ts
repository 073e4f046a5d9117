/**
 * Answer swapping by a model (`swap_by MODEL`), as ReEval makes its swaps (§3.1): the pivot model proposes a wrong
 * answer to the question, then rewrites the passage replacing every occurrence of the answer with it (a string
 * replacement breaks pronouns and aliases, the paper's footnote says). Both prompts are the paper's own text, sent as
 * one user message each and answered in plain text at temperature 0. The model's answers come through `ModelAids`
 * (the store's cache, filled before the run generates, priced with the run); a case whose answers are not there yet
 * waits (`awaiting-model`). Every rewrite is validated like every swap (swap.ts): the old answer gone, the new one
 * there, of the same type, neither containing the other, and nothing else changed — except a few words beside the
 * replaced spans (a pronoun, an article: two words per occurrence at most), which is what the rewrite is for.
 */
import type { ChatMessage } from '../../probes/question.js';
import type { ModelAids } from '../../probes/contract/core.js';
import {
    answerSpans,
    answerType,
    contains,
    sameType,
    validateSwap,
    type AnswerType,
    type Swap,
    type SwapRejection,
} from './swap.js';
import { normalise, occurrences, unquote } from './text.js';

/** Why a model's swap was not kept: its answers are not there yet, or one of the swap's own rejections. */
export type ModelSwapRejection = 'awaiting-model' | SwapRejection;

/** The paper's prompt for a wrong answer (§3.1), verbatim. */
function wrongAnswerMessages(question: string, answer: string): ChatMessage[] {
    return [
        {
            role: 'user',
            content: `Generate a wrong answer to the question that is different from the correct answer.\n\nQuestion: ${question}\n\nAnswer: ${answer}\n\nWrong Answer:`,
        },
    ];
}

/** The paper's prompt for rewriting the passage (§3.1), verbatim. */
function rewriteMessages(passage: string, span: string, fresh: string): ChatMessage[] {
    return [
        {
            role: 'user',
            content: `Rewrite the passage to replace all the occurrences of the text span with the new span.\nPassage: ${passage}\nText Span: ${span}\nNew Span: ${fresh}\nNew Passage:`,
        },
    ];
}

/** A short answer as a model writes it: its first line, without a label, quotes or a final full stop. */
function shortAnswer(text: string): string {
    const line = text.trim().split(/\r?\n/)[0] ?? '';
    return unquote(
        line
            .replace(/^(wrong answer|answer)\s*:\s*/i, '')
            .trim()
            .replace(/^["'“”‘’]+|["'“”‘’]+$/g, '')
            .replace(/\.$/, '')
            .trim(),
    );
}

/** Words of a text outside the given spans, in order. */
function wordsOutside(text: string, spans: readonly [number, number][]): string[] {
    let out = '';
    let at = 0;
    for (const [s, e] of spans) {
        out += `${text.slice(at, s)} `;
        at = e;
    }
    return normalise(out + text.slice(at))
        .split(' ')
        .filter(Boolean);
}

/** How many words one sequence has that the other lacks, both ways (by their longest common subsequence). */
function changedWords(a: readonly string[], b: readonly string[]): number {
    if (a.length * b.length > 4_000_000) return Math.abs(a.length - b.length) + 1_000;
    let prev = new Array<number>(b.length + 1).fill(0);
    for (let i = 1; i <= a.length; i++) {
        const row = new Array<number>(b.length + 1).fill(0);
        for (let j = 1; j <= b.length; j++) row[j] = a[i - 1] === b[j - 1] ? prev[j - 1]! + 1 : Math.max(prev[j]!, row[j - 1]!);
        prev = row;
    }
    return a.length + b.length - 2 * prev[b.length]!;
}

export interface ModelSwapInput {
    question: string;
    passage: string;
    gold: string;
    forms: readonly string[];
    type: AnswerType;
    model: string;
    aids: ModelAids | undefined;
}

/** A validated swap made by the model, or why there is none (yet). */
export function modelSwapCase(c: ModelSwapInput): (Swap & { type: AnswerType }) | ModelSwapRejection {
    if (answerSpans(c.passage, c.forms).length === 0) return 'no-occurrence';
    const wrong = c.aids?.chat(c.model, wrongAnswerMessages(c.question, unquote(c.gold)));
    if (wrong === undefined) return 'awaiting-model';
    const fresh = shortAnswer(wrong);
    if (fresh === '' || c.forms.some(f => normalise(f) === normalise(fresh))) return 'same-answer';
    if (c.forms.some(f => contains(f, fresh))) return 'containment';
    if (!sameType(c.type, answerType(fresh, c.question))) return 'type-mismatch';
    const rewritten = c.aids?.chat(c.model, rewriteMessages(c.passage, unquote(c.gold), fresh));
    if (rewritten === undefined) return 'awaiting-model';
    const passage = rewritten.trim().replace(/^new passage\s*:\s*/i, '');
    const spans = occurrences(passage, [fresh]);
    const swap: Swap = { passage, spans, replacement: fresh };
    const rejected = validateSwap(c.passage, spans.length ? swap : { ...swap, spans: [] }, c.forms, c.gold, {
        old: c.type,
        fresh: c.type,
    });
    if (rejected === undefined) return { ...swap, type: c.type };
    if (rejected !== 'extra-changes') return rejected;
    // The rewrite may mend a pronoun or an article beside each replaced span; anything more is another passage.
    const changed = changedWords(wordsOutside(c.passage, answerSpans(c.passage, c.forms)), wordsOutside(passage, spans));
    return changed <= 2 * Math.max(1, spans.length) ? { ...swap, type: c.type } : 'extra-changes';
}
