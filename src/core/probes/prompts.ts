/**
 * The exact chat messages sent for a question: the paper's system prompts (METHODS.md §1, verbatim) and the
 * prompt variants — zero-shot, few-shot demonstrations from other rows, chain-of-thought demonstrations,
 * and knowledge augmentation with a passage from a text column.
 */
import type { AttributeRef, VariantDecl } from '../spec/model.js';
import type { ChatMessage, Gold } from './question.js';
import { format, type TemplateValue } from '../spec/template.js';
import type { Demo } from './plan-types.js';

export type { Demo } from './plan-types.js';

export const SYSTEM_BINARY =
    "Answer the following question in yes or no, and then explain why. Say unsure if you don't know and then explain why.";
export const SYSTEM_CHOICE = 'Answer the following multiple choice question, and then explain why.';
export const SYSTEM_CHOICE_NONE =
    "Answer the following multiple choice question, and then explain why. Say 'None of above' if all options are correct.";
export const SYSTEM_KNOWS = 'Answer the following question in yes or no. Be concise';
export const AUGMENT_HINT =
    'The first few passages are hints, that may not contain all relevant information. Answer the following question with your own knowledge getting help from the first few passages if possible.';
/** The paper's three multiple-choice stems; `{subject}` is the probe's subject phrase. */
export const DEFAULT_STEMS = [
    "What's the inaccurate option about {subject}?",
    'What is the false option about {subject}?',
    'What is the wrong option regarding {subject}?',
];

type VariantKind = 'zero_shot' | 'few_shot' | 'cot' | 'augment';

export interface Variant {
    kind: VariantKind;
    /** Demonstrations (few_shot, cot). */
    n: number;
    passage?: AttributeRef;
    /** The variant as written, e.g. `few_shot(8)` or `augment from Movie.plot` (part of question ids). */
    id: string;
}

/** A prompt variant, or a message saying what is wrong with it. */
/** The variant a suite declares, or why it cannot be one: `unknown-variant` or `variant-args` (the spec check's codes). */
export function variantOf(decl: VariantDecl): Variant | { code: 'unknown-variant' | 'variant-args'; message: string } {
    const kind = decl.kind as VariantKind;
    const arg = decl.args[0];
    const args = decl.args.length ? `(${decl.args.map(a => format(a as TemplateValue)).join(', ')})` : '';
    const from = decl.passage ? ` from ${decl.passage.relation}.${decl.passage.attribute}` : '';
    const id = `${kind}${args}${from}`;
    switch (kind) {
        case 'zero_shot':
            return { kind, n: 0, id };
        case 'few_shot':
        case 'cot': {
            const n = arg === undefined ? (kind === 'cot' ? 2 : 8) : Number(arg);
            if (!Number.isInteger(n) || n < 1 || n > 32)
                return { code: 'variant-args', message: `${kind}(n) needs a whole number of demonstrations between 1 and 32.` };
            return { kind, n, id };
        }
        case 'augment':
            if (!decl.passage)
                return {
                    code: 'variant-args',
                    message: 'augment needs the text column of its passage: `variant augment from Relation.attribute`.',
                };
            return { kind, n: 0, passage: decl.passage, id };
    }
    return {
        code: 'unknown-variant',
        message: `Unknown variant "${decl.kind}": use zero_shot, few_shot(n), cot or augment from Relation.attribute.`,
    };
}

export const ZERO_SHOT: Variant = { kind: 'zero_shot', n: 0, id: 'zero_shot' };

/** How a correct answer begins. */
function answerText(gold: Gold): string {
    if (typeof gold === 'object') return gold.answer;
    if (gold === 'yes') return 'Yes';
    if (gold === 'no') return 'No';
    if (gold === 'none') return 'None of above';
    return `Option ${gold}`;
}

/** A demonstration's answer: few-shot gives the answer then why; chain of thought reasons hop by hop first. */
function demoAnswer(demo: Demo, variant: Variant): string {
    if (demo.reply !== undefined) return demo.reply;
    const answer = answerText(demo.gold);
    if (variant.kind === 'cot')
        return `${demo.explain} The answer is ${typeof demo.gold === 'number' ? answer : answer.toLowerCase()}.`;
    return demo.explain ? `${answer}. ${demo.explain}` : `${answer}.`;
}

export function messagesFor(system: string, question: string, variant: Variant, demos: Demo[], passage?: string): ChatMessage[] {
    // A family whose paper prompt is one user message (evidence probes) has no system prompt.
    const messages: ChatMessage[] = system ? [{ role: 'system', content: system }] : [];
    for (const d of demos) {
        messages.push({ role: 'user', content: d.question }, { role: 'assistant', content: demoAnswer(d, variant) });
    }
    const content =
        variant.kind === 'augment' && passage !== undefined ? `${AUGMENT_HINT}\n\n${passage}\n\n${question}` : question;
    messages.push({ role: 'user', content });
    return messages;
}
