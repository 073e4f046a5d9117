/** Pass / fail of one question, the same in every face (reports, JUnit, Test Explorer, CodeLens). */
import { passedWith } from '../probes/family.js';
import { familyOf } from '../probes/families.js';
import type { Question } from '../probes/question.js';
import type { Verdict } from './types.js';

/** The answer is right, and the rationale too where the question has keywords; unmeasured families never fail. */
export function questionPassed(question: Question, verdict: Verdict): boolean {
    return passedWith(familyOf(question.kind), question, verdict);
}

/** The question counts in A / R / AR / H (a knowledge probe does not). */
export function isMeasured(question: Question): boolean {
    return familyOf(question.kind).measured;
}
