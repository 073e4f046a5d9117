/** Pass / fail of one question, the same in every face (reports, JUnit, Test Explorer, CodeLens). */
import type { FamilyCore } from '../probes/contract/core.js';
import { coreOf } from '../probes/registry.js';
import type { Question } from '../probes/question.js';
import type { Verdict } from './types.js';

/** Did this question pass? A measured family's answer is right, and its rationale where it has keywords. */
function passedWith(family: Pick<FamilyCore, 'measured'>, question: Question, v: Verdict): boolean {
    if (!family.measured) return true;
    const correct = v.override?.correct ?? v.correct;
    const rationale = v.override?.rationale ?? v.rationale;
    return correct && (question.keywords.length === 0 || rationale);
}

/** The answer is right, and the rationale too where the question has keywords; unmeasured families never fail. */
export function questionPassed(question: Question, verdict: Verdict): boolean {
    return passedWith(coreOf(question.kind), question, verdict);
}

/** The question counts in A / R / AR / H (a knowledge probe does not). */
export function isMeasured(question: Question): boolean {
    return coreOf(question.kind).measured;
}

/** How many of a run's verdicts failed their question (the count a face prints; verdicts of no listed question left out). */
export function failedVerdicts(results: { questions: readonly Question[]; verdicts: readonly Verdict[] }): number {
    const questions = new Map(results.questions.map(q => [q.id, q]));
    return results.verdicts.filter(v => {
        const q = questions.get(v.questionId);
        return q !== undefined && !questionPassed(q, v);
    }).length;
}
