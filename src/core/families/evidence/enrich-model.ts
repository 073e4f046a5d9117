/**
 * Context enriching with a model's steps (`enrich_with MODEL`), as the ReEval authors build it (their
 * generate_new_context.py, in their words): the model selects the sentence of the passage that supports the answer,
 * condenses the related passages into one, and merges the two keeping the answer. Each step asks for one JSON object
 * (structured output) and every result is validated before the case is kept: the selected sentence comes from the
 * passage and states the answer; the condensed passage does not state it; the merged passage keeps the supporting
 * sentence (at least 80 % of its words in one sentence) and the answer in it. Related passages are retrieved as on
 * the lexical path (BM25 by question and by evidence). The model's answers come through `ModelAids` (the store's
 * cache, filled before the run generates); a case whose answers are not there yet waits (`awaiting-model`).
 */
import type { ChatMessage } from '../../probes/question.js';
import type { ModelAids } from '../../probes/contract/core.js';
import { jsonField } from '../../run/side-call.js';
import { stem } from '../../kg/lexical.js';
import { relatedPassages, supportingSentence, type Enriched, type EnrichFocus, type EnrichRejection } from './enrich.js';
import { mentions, normalise, occurrences, sentences } from './text.js';

/** The paper's model steps, in order; `enrich_steps` names a subset (default all three). */
export const ENRICH_STEPS = ['select', 'summarise', 'merge'] as const;
export type EnrichStep = (typeof ENRICH_STEPS)[number];

/** Why a model-enriched case was not kept. */
export type ModelEnrichRejection = 'awaiting-model' | 'select-invalid' | 'summary-invalid' | 'merge-invalid';

/** The authors' system prompt for every step. */
const SYSTEM = 'You are a helpful assistant.';
/** The paper condenses three related passages. */
const SUMMARISED = 3;
const COUNT = ['One', 'Two', 'Three'];

const ask = (user: string): ChatMessage[] => [
    { role: 'system', content: SYSTEM },
    { role: 'user', content: user },
];

export function selectMessages(question: string, answer: string, passage: string): ChatMessage[] {
    return ask(
        'A question, the answer and a passage are shown below. Please select the sentence in the passage that support to answer the question correctly.\n\n' +
            `Question:\n${question}\n\nAnswer:\n${answer}\n\nPassage:\n${passage}\n\n` +
            'Reply with one JSON object {"sentence": "<the sentence, copied from the passage>"}.',
    );
}

export function summariseMessages(passages: readonly string[]): ChatMessage[] {
    const n = COUNT[passages.length - 1] ?? String(passages.length);
    const head =
        passages.length === 1
            ? 'One relevant passage is shown below. Please condense the passage into one passage.'
            : `${n} relevant passages are shown below. Please condense the ${n.toLowerCase()} passages into one passage.`;
    return ask(
        `${head} \n\nRelevant Passages:\n${passages.map((p, i) => `[${i + 1}] ${p}`).join('\n\n')}\n\n` +
            'Reply with one JSON object {"passage": "<the condensed passage>"}.',
    );
}

export function mergeMessages(support: string, passage: string, answer: string): ChatMessage[] {
    return ask(
        'Two passages and a span are shown below. Please merge the two passages, and make sure to keep the span in the new passage.\n\n' +
            `Passages:\n[1] ${support}\n\n[2] ${passage}\n\nSpan:\n${answer}\n\n` +
            'Reply with one JSON object {"passage": "<the new passage>"}.',
    );
}

/** White space and case folded, for "is this sentence in the passage". */
const flat = (s: string) =>
    s
        .toLowerCase()
        .replace(/[\u2018\u2019]/g, "'")
        .replace(/[\u201c\u201d]/g, '"')
        .replace(/\s+/g, ' ')
        .trim();

/** Content words (stemmed, stop words dropped). */
const words = (s: string) =>
    normalise(s)
        .split(' ')
        .map(stem)
        .filter((w): w is string => w !== null);

/** The merged passage keeps the supporting sentence: one of its sentences states the answer and holds ≥ 80 % of the support's words. */
export function keepsSupport(merged: string, support: string, forms: readonly string[]): boolean {
    const need = new Set(words(support));
    return sentences(merged).some(s => {
        if (occurrences(s, forms).length === 0) return false;
        const have = new Set(words(s));
        let kept = 0;
        for (const w of need) if (have.has(w)) kept++;
        return need.size === 0 || kept / need.size >= 0.8;
    });
}

export interface ModelEnrichInput {
    question: string;
    passage: string;
    answer: string;
    forms: readonly string[];
    candidates: readonly string[];
    random: () => number;
    max: number;
    model: string;
    steps: readonly EnrichStep[];
    aids: ModelAids | undefined;
    focus?: EnrichFocus;
}

/** An enriched case built with the model's steps and validated, or why there is none (yet). */
export function modelEnrichCase(c: ModelEnrichInput): Enriched | EnrichRejection | ModelEnrichRejection {
    const lexical = supportingSentence(c.passage, c.forms);
    if (lexical === undefined) return 'no-support';
    const related = relatedPassages(
        c.question,
        lexical,
        c.candidates,
        c.forms,
        c.steps.includes('summarise') ? SUMMARISED : c.max,
        c.focus,
    );
    if (related.length === 0) return 'no-related';
    const answerOf = (messages: ChatMessage[], field: string) => {
        const text = c.aids?.chat(c.model, messages, { json: true });
        if (text === undefined) return undefined;
        const value = jsonField(text, field);
        return typeof value === 'string' && value.trim() ? value.trim() : null;
    };
    let support: string | undefined | null = lexical;
    if (c.steps.includes('select')) {
        support = answerOf(selectMessages(c.question, c.answer, c.passage), 'sentence');
        if (
            support !== undefined &&
            (support === null || occurrences(support, c.forms).length === 0 || !flat(c.passage).includes(flat(support)))
        )
            return 'select-invalid';
    }
    let information: readonly string[] | undefined | null = related;
    if (c.steps.includes('summarise')) {
        const summary = answerOf(summariseMessages(related), 'passage');
        information = summary === undefined || summary === null ? summary : [summary];
        if (information === null || (information && mentions(information[0]!, c.forms))) return 'summary-invalid';
    }
    if (support === undefined || information === undefined) return 'awaiting-model';
    if (c.steps.includes('merge')) {
        const merged = answerOf(mergeMessages(support!, information!.join('\n\n'), c.answer), 'passage');
        if (merged === undefined) return 'awaiting-model';
        if (merged === null || !keepsSupport(merged, support!, c.forms)) return 'merge-invalid';
        return { passage: merged, support: support!, related: [...information!] };
    }
    const at = Math.floor(c.random() * (information!.length + 1));
    const parts = [...information!.slice(0, at), support!, ...information!.slice(at)];
    return { passage: parts.join('\n\n'), support: support!, related: [...information!], position: at + 1 };
}
