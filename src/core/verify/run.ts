/**
 * Verifying a stored run: every answer of the run gets a verdict, and every question group a group verdict,
 * saved back to the store.
 * The store is typed structurally so that anything with these three methods will do (tests, other stores).
 */
import type { LoadedData } from '../data/types.js';
import type { Question } from '../probes/question.js';
import type { SpecModel } from '../spec/model.js';
import type { Verdict } from './types.js';
import { createVerifyContext, verify } from './verify.js';
import { judgeQuestionGroups, type GroupVerdict } from './groups.js';

export interface VerifiableStore {
    loadRunResults(runId: string): Promise<
        | {
              questions: Question[];
              answers: { questionId: string; model: string; sample: number; text: string }[];
              verdicts?: Verdict[];
          }
        | undefined
    >;
    saveVerdicts(runId: string, verdicts: Verdict[]): Promise<void>;
    saveGroupVerdicts(runId: string, verdicts: GroupVerdict[]): Promise<void>;
}

export interface VerifyRunResult {
    verdicts: Verdict[];
    missingQuestions: number;
}

/**
 * `onlyUnverified`: leave the answers that already have a verdict as they are (a report on an old run must not
 * re-judge it against today's spec and data just because a few answers were never verified).
 */
export async function verifyRun(
    store: VerifiableStore,
    runId: string,
    spec: SpecModel,
    data?: LoadedData,
    options: { onlyUnverified?: boolean } = {},
): Promise<VerifyRunResult> {
    const results = await store.loadRunResults(runId);
    if (!results) return { verdicts: [], missingQuestions: 0 };
    const slot = (x: { questionId: string; model: string; sample: number }) => `${x.questionId}\u0000${x.model}\u0000${x.sample}`;
    const done = new Set(options.onlyUnverified ? (results.verdicts ?? []).map(slot) : []);
    const ctx = createVerifyContext(spec, data);
    const byId = new Map(results.questions.map(q => [q.id, q]));
    const verdicts: Verdict[] = [];
    let missingQuestions = 0;
    for (const a of results.answers) {
        if (done.has(slot(a))) continue;
        const q = byId.get(a.questionId);
        if (!q) {
            missingQuestions++;
            continue;
        }
        verdicts.push(verify(q, a.text, ctx, a.model, a.sample));
    }
    await store.saveVerdicts(runId, verdicts);
    // Group verdicts depend on every member's verdict, old and new: judged again over the whole run.
    const fresh = new Set(verdicts.map(slot));
    const all = [...(results.verdicts ?? []).filter(v => !fresh.has(slot(v))), ...verdicts];
    await store.saveGroupVerdicts(runId, judgeQuestionGroups(results.questions, all));
    return { verdicts, missingQuestions };
}
