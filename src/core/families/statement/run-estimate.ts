/**
 * `estimateStatements`: the expensive model's T, I or C over a whole statement probe for a fraction of the calls.
 * The cheap model answers every statement (one `runSpec`), the expensive one the triples `estimateMean` asks for,
 * round by round (each a `runSpec` over the selected questions; the cache never pays twice), and the result says
 * what was measured and what estimated.
 */
import { resolveRunModels, runSpec, type RunSpecRequest } from '../../run/spec-run.js';
import { estimateCost } from '../../models/cost.js';
import { resolveModel, type ResolvedModel } from '../../models/providers.js';
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
    /**
     * What the expensive model may spend: a count of triples, a share (0 < share ≤ 1) of them, a number of calls
     * (each triple is its true statement and its negatives, each asked \`samples\` times), or dollars at its price.
     */
    budget: EstimateBudget;
    metric?: StatementMetric;
    target?: number;
    seed?: number;
    onRound?: (labelled: number, budget: number) => void;
}

export type EstimateBudget = { triples: number } | { share: number } | { calls: number } | { usd: number };

/** Calls and dollars: what a budget allows, what the estimate spent, and what a full run would cost. */
export interface Spending { triples: number; calls: number; usd?: number }

export interface StatementEstimate extends EstimateResult {
    /** The budget in triples, calls and (with a price) dollars, as asked. */
    budget: Spending;
    /** What the expensive model was actually asked (cache hits are free) and paid, over all its rounds. */
    spent: { calls: number; usd: number };
    /** The expensive model on every triple: the full run the estimate stands in for. */
    full: Spending;
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
    const model = expensiveModel(cheapRun.spec, req.expensive);
    const perTriple = triples.map(t => members.get(t.id) ?? []);
    const calls = perTriple.map(qs => qs.length * model.samples);
    const usd = perTriple.map(qs => estimateCost(model, qs.map(q => ({ messages: q.messages }))).usd);
    const full: Spending = { triples: triples.length, calls: sum(calls), ...(usd.every(u => u !== undefined) ? { usd: sum(usd as number[]) } : {}) };
    const budget = budgetTriples(req.budget, full, req.probe, req.expensive);
    const expensiveRuns: string[] = [];
    let expensiveQuestions = 0;
    const spent = { calls: 0, usd: 0 };
    const result = await estimateMean({
        cheap: triples.map(t => tripleScore(t, metric)), strata: triples.map(t => t.attribute), budget, seed: req.seed, target: req.target,
        label: async picked => {
            const ids = picked.flatMap(i => (members.get(triples[i]!.id) ?? []).map(q => q.id));
            expensiveQuestions += ids.length;
            const run = await runSpec({ ...base, probe: req.probe, models: [req.expensive], questionIds: ids });
            if (run.status !== 'completed') throw new HalluProbeError(problem('estimate-expensive', `The expensive model's run ended ${run.status}.`, 'Run the estimate again; answers already received come from the cache.'));
            expensiveRuns.push(run.run.id);
            spent.calls += run.counts.calls;
            spent.usd += run.counts.cost;
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
    const share = budget / triples.length;
    return {
        ...result, metric, cheapMeasured: mean(triples.map(t => tripleScore(t, metric))),
        sampleMeasured: result.sampleOnly.value, expensiveQuestions, cheapRun: cheapRun.run.id, expensiveRuns,
        budget: { triples: budget, calls: Math.round(full.calls * share), ...(full.usd !== undefined ? { usd: full.usd * share } : {}) }, spent, full,
    };
}

const sum = (xs: readonly number[]) => xs.reduce((s, x) => s + x, 0);

/** The expensive model as the run resolves it (its samples and price). */
function expensiveModel(spec: Parameters<typeof resolveRunModels>[0], name: string): ResolvedModel {
    const decl = resolveRunModels(spec, [name], undefined)[0];
    const resolved = decl ? resolveModel(decl) : { problems: [`no model ${name}`] };
    if (!resolved.model) throw new HalluProbeError(problem('estimate-model', `The model to estimate, ${name}, cannot be used: ${resolved.problems.join('; ')}.`, 'Name a model declared in the spec, or provider:id.'));
    return resolved.model;
}

/**
 * The triples a budget buys. Calls and dollars are turned into triples at the mean cost of a triple over this probe
 * (its statements × the model's samples; dollars at the model's price and the questions' token counts).
 */
function budgetTriples(b: EstimateBudget, full: Spending, probe: string, model: string): number {
    const n = full.triples;
    if ('share' in b) return Math.max(2, Math.round(b.share * n));
    if ('triples' in b) return Math.round(b.triples);
    if ('calls' in b) {
        const each = full.calls / n;
        const t = Math.floor(b.calls / each);
        if (t < 2) throw new HalluProbeError(problem('estimate-budget', `${b.calls} calls buy ${t} triple${t === 1 ? '' : 's'} of ${probe} (${each.toFixed(1)} calls each); an estimate needs at least 2.`, `Give at least ${Math.ceil(2 * each)} calls.`));
        return Math.min(n, t);
    }
    if (full.usd === undefined) {
        throw new HalluProbeError(problem('estimate-budget', `A budget in dollars needs ${model}'s price, and it has none.`, 'Set price_input and price_output (USD per million tokens) on the model, or give the budget in triples or calls.'));
    }
    const each = full.usd / n;
    const t = each > 0 ? Math.floor(b.usd / each) : n;
    if (t < 2) throw new HalluProbeError(problem('estimate-budget', `$${b.usd} buys ${t} triple${t === 1 ? '' : 's'} of ${probe} (about $${each.toFixed(4)} each); an estimate needs at least 2.`, `Give at least $${(2 * each).toFixed(4)}.`));
    return Math.min(n, t);
}
