/**
 * The statement family's `estimate` hook: the expensive model's T, I or C over a whole statement probe for a
 * fraction of the calls. The cheap model has answered every statement (the run room's `estimateProbe` made that
 * run); the expensive one answers the triples `estimateMean` asks for, round by round (each an `askExpensive`,
 * which is a run of the engine over the selected questions; the cache never pays twice), and the result says what
 * was measured and what estimated.
 */
import type { Question } from '../../probes/question.js';
import type { EstimateRequest, EstimateRun, FigureEstimate } from '../../probes/estimate-types.js';
import { HalluProbeError, problem } from '../../errors.js';
import { estimateMean } from './estimate.js';
import { triplesOf, tripleScore, type StatementMetric } from './metrics.js';
import { cliCommand } from '../../invocation.js';

export async function estimateStatements(req: EstimateRequest, cheapRun: EstimateRun, askExpensive: (questionIds: string[]) => Promise<EstimateRun>): Promise<FigureEstimate> {
    const metric = (req.metric ?? 'C') as StatementMetric;
    const questions = cheapRun.questions;
    const byId = new Map(questions.map(q => [q.id, q]));
    const triples = triplesOf(cheapRun.verdicts.map(v => ({ v, q: byId.get(v.questionId)! })));
    if (triples.length === 0) throw new HalluProbeError(problem('estimate-empty', `Probe ${req.probe} gave no triple with a true statement and a negative.`, `Preview it: ${cliCommand()} preview SPEC --probe NAME.`));
    const members = new Map<string, Question[]>();
    for (const q of questions) if (q.group) members.set(q.group.id, [...(members.get(q.group.id) ?? []), q]);
    const budget = 'share' in req.budget ? Math.max(2, Math.round(req.budget.share * triples.length)) : Math.round(req.budget.count);
    const expensiveRuns: string[] = [];
    let expensiveQuestions = 0;
    const result = await estimateMean({
        cheap: triples.map(t => tripleScore(t, metric)), strata: triples.map(t => t.attribute), budget, seed: req.seed, target: req.target,
        label: async picked => {
            const ids = picked.flatMap(i => (members.get(triples[i]!.id) ?? []).map(q => q.id));
            expensiveQuestions += ids.length;
            const run = await askExpensive(ids);
            expensiveRuns.push(run.id);
            // A triple is scored only when the expensive model answered all of its statements; a failed call
            // leaves it out (counted as failed), never scored 0.
            const answered = new Set(run.verdicts.map(v => v.questionId));
            const whole = (i: number) => (members.get(triples[i]!.id) ?? []).every(q => answered.has(q.id));
            const scored = new Map(triplesOf(run.verdicts.map(v => ({ v, q: byId.get(v.questionId)! }))).map(t => [t.id, tripleScore(t, metric)]));
            req.onRound?.(expensiveRuns.length, budget);
            return picked.map(i => (whole(i) ? scored.get(triples[i]!.id) : undefined));
        },
    });
    const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / (xs.length || 1);
    return {
        ...result, metric, cheapMeasured: mean(triples.map(t => tripleScore(t, metric))),
        sampleMeasured: result.sampleOnly.value, expensiveQuestions, cheapRun: cheapRun.id, expensiveRuns,
    };
}
