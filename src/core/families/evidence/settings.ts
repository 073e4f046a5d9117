/**
 * An evidence probe's settings (`probe p evidence about R { … }`), read through this table's typed `read` by the
 * family (family.ts) and its entailment judge (judge.ts).
 */
import { declareSettings } from '../../spec/settings.js';
import { ENRICH_STEPS } from './enrich-model.js';

/**
 * How the prompt is laid out (`prompt STYLE`), in the ReEval authors' wording (their gpt_inference.py): `paper`
 * (default) the open-book prompt as one user message; `chat` the same user message after the authors' system prompt
 * for chat models ("You are a helpful assistant."); `opinion` the context-faithful third-person prompt ("Bob said,
 * …" — the passage as what Bob said, the question asked in Bob's opinion). Closed book is ReEval's closed-book
 * prompt in every style (after the system prompt under `chat`).
 */
export const PROMPT_STYLES = ['paper', 'chat', 'opinion'] as const;

/** The cases an evidence probe asks besides the seed. */
const PERTURBATIONS = ['swap', 'enrich', 'closed'] as const;

export const EVIDENCE_SETTINGS = declareSettings('probe evidence', {
    question: { type: 'text', doc: 'The question template, e.g. question "Who directed {title}?".' },
    answer: { type: 'text', doc: 'The attribute that answers the question (its value is the gold).' },
    passage: { type: 'text', doc: 'The passage template (or "{evidence}" for a text column).' },
    perturb: {
        type: 'text',
        list: true,
        values: PERTURBATIONS,
        default: ['swap'],
        doc: 'Which cases to ask besides the seed: swap, enrich, closed (default [swap]).',
    },
    swap_with: {
        type: 'text',
        values: ['same_column', 'same_type', 'same_shape'],
        doc: "The replacement answer: another value of the same column (same_column) or another row's answer of the same type, asked for the same noun (same_type; same_shape is its old name): year, date, money, percent, count (of the same unit), number, person, place, organisation, or the kind of thing the question asks for. Default: same_type where the answer column is free text (its values of more than one kind), same_column otherwise.",
    },
    swap_by: {
        type: 'text',
        doc: "A chat model declared in the spec that makes each swap as the paper does (ReEval §3.1): it proposes a wrong answer and rewrites the passage, with the paper's two prompts (asked before the run generates, cached, priced; each swap validated like every swap). Without it the replacement is drawn from the data (swap_with).",
    },
    enrich_from: {
        type: 'text',
        list: true,
        doc: "A text column of other passages to draw related passages from (default: other rows' passages); related by BM25 to the question or the supporting sentence, never stating the answer.",
    },
    prompt: {
        type: 'text',
        values: PROMPT_STYLES,
        default: 'paper',
        doc: 'The prompt layout, in the ReEval authors\' wording: paper (default, the prompt as one user message), chat (the same after the system prompt "You are a helpful assistant."), opinion (the third-person "Bob said, …" prompt).',
    },
    enrich_copies: {
        type: 'text',
        values: ['one', 'both'],
        default: 'one',
        doc: "Enriched cases per seed: one (default, passages retrieved by the question and by the evidence, ranks summed) or both (ReEval's two copies, one from passages retrieved for the evidence and one for the question; a seed counts right over seeds only when both are answered right).",
    },
    enrich_with: {
        type: 'text',
        doc: 'A chat model declared in the spec that builds enriched cases as the paper does: selects the supporting sentence, condenses the related passages, merges them keeping the answer (each answer validated; asked before the run generates, cached). Without it enriching is lexical.',
    },
    enrich_steps: {
        type: 'text',
        list: true,
        values: ENRICH_STEPS,
        default: [...ENRICH_STEPS],
        doc: "Which of the model's enriching steps to use (default [select, summarise, merge]); a step left out is done lexically (the supporting sentence found, related passages as they are, the support placed among them).",
    },
    judge_with: {
        type: 'text',
        doc: 'A chat model declared in the spec that judges entailment after the run (ReEval\'s entailment accuracy: does "question? answer" entail "question? gold"?); its label is kept on each answer. Without it the entailment figure is n/a.',
    },
    demos: {
        type: 'text',
        doc: "A relation of demonstration items (question, answer, evidence; e.g. ReEval's nq_demo.json) for few_shot(n).",
    },
});
