/**
 * Hooks shared by the families whose questions are answered yes / no (binary, path, knows): reading the answer,
 * scoring it against the gold, and how the offline simulator words and guesses one.
 */
import { parseBinary, type ParsedAnswer } from '../verify/answer.js';
import type { Draw, FamilyScore } from './family.js';
import type { Gold, Question } from './question.js';

export function parseYesNo(response: string): ParsedAnswer {
    return parseBinary(response);
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
