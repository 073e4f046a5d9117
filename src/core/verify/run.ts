/**
 * Verifying a stored run: every answer of the run gets a verdict, saved back to the store.
 * The store is typed structurally so that anything with the runner's two methods will do (tests, other stores).
 */
import type { LoadedData } from '../data/types.js';
import type { Question } from '../probes/question.js';
import type { SpecModel } from '../spec/model.js';
import type { Verdict } from './types.js';
import { createVerifyContext, verify } from './verify.js';

export interface VerifiableStore {
    loadRunResults(runId: string): { questions: Question[]; answers: { questionId: string; model: string; sample: number; text: string }[] } | undefined;
    saveVerdicts(runId: string, verdicts: Verdict[]): void;
}

export interface VerifyRunResult { verdicts: Verdict[]; missingQuestions: number }

export function verifyRun(store: VerifiableStore, runId: string, spec: SpecModel, data?: LoadedData): VerifyRunResult {
    const results = store.loadRunResults(runId);
    if (!results) return { verdicts: [], missingQuestions: 0 };
    const ctx = createVerifyContext(spec, data);
    const byId = new Map(results.questions.map(q => [q.id, q]));
    const verdicts: Verdict[] = [];
    let missingQuestions = 0;
    for (const a of results.answers) {
        const q = byId.get(a.questionId);
        if (!q) { missingQuestions++; continue; }
        verdicts.push(verify(q, a.text, ctx, a.model, a.sample));
    }
    store.saveVerdicts(runId, verdicts);
    return { verdicts, missingQuestions };
}
