/**
 * Hooks shared by the families whose questions are answered yes / no (binary, path, knows): reading the answer,
 * scoring it against the gold, and how the offline simulator words and guesses one.
 */
import { parseBinary, type ParsedAnswer } from '../verify/answer.js';
import type { Draw } from './contract/simulator.js';
import type { FamilyScore } from './contract/core.js';
import { declareSettings } from '../spec/settings.js';
import type { Gold, Question } from './question.js';

const ANSWER_RULES = ['robust', 'paper'] as const;

/**
 * The setting every closed family offers, declared once here: how its answers are read (Question.answerRule; read by
 * generation, probes/generate.ts).
 */
export const ANSWER_SETTINGS = declareSettings('probe', {
    answer_rule: {
        type: 'text',
        values: ANSWER_RULES,
        default: 'robust',
        doc: "How the answer is read: robust (default: where the verdict is — a marked conclusion over the opening, a verdict after a refusal hedged, conflicting verdicts unreadable) or paper (the paper's own rule: ERBench's first word, GraphEval's don't-know first, MC's \"Option N\" in the first sentence).",
    },
});

export function parseYesNo(response: string, question?: Question): ParsedAnswer {
    return parseBinary(response, question);
}

export function scoreYesNo(question: Question, parsed: ParsedAnswer): FamilyScore {
    return { correct: parsed.answer === question.gold };
}

export function yesNoText(_question: Question, gold: Gold): string {
    return gold === 'no' ? 'No.' : 'Yes.';
}

/** A guesser leans to "yes", as real models do. */
export function yesNoGuess(_question: Question, draw: Draw): Gold {
    return draw('guess') < 0.7 ? 'yes' : 'no';
}
