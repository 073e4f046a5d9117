/**
 * `estimateStatements`: the expensive model's T, I or C over a whole statement probe for a fraction of the calls.
 * The cheap model answers every statement (one `runSpec`), the expensive one the triples `estimateMean` asks for,
 * round by round (each a `runSpec` over the selected questions; the cache never pays twice), and the result says
 * what was measured and what estimated.
 */
import { runSpec, type RunSpecRequest } from '../../run/spec-run.js';
import type { Question } from '../../probes/question.js';
import { HalluProbeError, problem } from '../../errors.js';
import { estimateMean, type EstimateResult } from './estimate.js';
import { triplesOf, tripleScore, type StatementMetric } from './metrics.js';
import { cliCommand } from '../../invocation.js';

export interface EstimateRequest extends Pick<RunSpecRequest, 'spec' | 'db' | 'secrets' | 'confirmHost' | 'confirmCost' | 'env' | 'signal' | 'concurrency'> {
    probe: string;
    /** The model whose figure is wanted, and the cheap one that answers everything. */
    expensive: string;
    cheap: string;
    /** Expensive calls allowed: a count of triples, or a share (0 < share ≤ 1) of them. */
    budget: { triples: number } | { share: number };
    metric?: StatementMetric;
    target?: number;
    seed?: number;
    onRound?: (labelled: number, budget: number) => void;
}

export interface StatementEstimate extends EstimateResult {
    metric: StatementMetric;
    /** The cheap model's own (measured) figure over every triple. */
    cheapMeasured: number;
    /** The expensive model's figure over the triples it answered (measured on the sample only). */
    sampleMeasured: number;
    /** Statements the expensive model was asked (each triple is a true statement and its negatives). */
    expensiveQuestions: number;
    cheapRun: string;
    expensiveRuns: string[];
}

export async function estimateStatements(req: EstimateRequest): Promise<StatementEstimate> {
    const metric = req.metric ?? 'C';
    const base = { spec: req.spec, db: req.db, secrets: req.secrets, confirmHost: req.confirmHost, confirmCost: req.confirmCost, env: req.env, signal: req.signal, concurrency: req.concurrency, origin: 'estimate' };
    const cheapRun = await runSpec({ ...base, probe: req.probe, models: [req.cheap] });
    if (cheapRun.status !== 'completed') throw new HalluProbeError(problem('estimate-cheap', `The cheap model's run ended ${cheapRun.status}.`, 'Run the estimate again; answers already received come from the cache.'));
    const questions = cheapRun.results.questions;
    if (!questions.every(q => q.kind === 'statement')) {
        throw new HalluProbeError(problem('estimate-kind', `Probe ${req.probe} is not a statement probe.`, 'Estimates are made for statement probes (probe NAME statement using FD).'));
    }
    const byId = new Map(questions.map(q => [q.id, q]));
    const triples = triplesOf(cheapRun.results.verdicts.map(v => ({ v, q: byId.get(v.questionId)! })));
    if (triples.length === 0) throw new HalluProbeError(problem('estimate-empty', `Probe ${req.probe} gave no triple with a true statement and a negative.`, `Preview it: ${cliCommand()} preview SPEC --probe NAME.`));
    const members = new Map<string, Question[]>();
    for (const q of questions) if (q.group) members.set(q.group.id, [...(members.get(q.group.id) ?? []), q]);
    const budget = 'share' in req.budget ? Math.max(2, Math.round(req.budget.share * triples.length)) : Math.round(req.budget.triples);
    const expensiveRuns: string[] = [];
    let expensiveQuestions = 0;
    const result = await estimateMean({
        cheap: triples.map(t => tripleScore(t, metric)), strata: triples.map(t => t.attribute), budget, seed: req.seed, target: req.target,
        label: async picked => {
            const ids = picked.flatMap(i => (members.get(triples[i]!.id) ?? []).map(q => q.id));
            expensiveQuestions += ids.length;
            const run = await runSpec({ ...base, probe: req.probe, models: [req.expensive], questionIds: ids });
            if (run.status !== 'completed') throw new HalluProbeError(problem('estimate-expensive', `The expensive model's run ended ${run.status}.`, 'Run the estimate again; answers already received come from the cache.'));
            expensiveRuns.push(run.run.id);
            // A triple is scored only when the expensive model answered all of its statements; a failed call
            // leaves it out (counted as failed), never scored 0.
            const answered = new Set(run.results.verdicts.map(v => v.questionId));
            const whole = (i: number) => (members.get(triples[i]!.id) ?? []).every(q => answered.has(q.id));
            const scored = new Map(triplesOf(run.results.verdicts.map(v => ({ v, q: byId.get(v.questionId)! }))).map(t => [t.id, tripleScore(t, metric)]));
            req.onRound?.(expensiveRuns.length, budget);
            return picked.map(i => (whole(i) ? scored.get(triples[i]!.id) : undefined));
        },
    });
    const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / (xs.length || 1);
    return {
        ...result, metric, cheapMeasured: mean(triples.map(t => tripleScore(t, metric))),
        sampleMeasured: result.sampleOnly.value, expensiveQuestions, cheapRun: cheapRun.run.id, expensiveRuns,
    };
}
