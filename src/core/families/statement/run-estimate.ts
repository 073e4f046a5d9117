/**
 * The statement family's `estimate` hook: the expensive model's T, I or C over a whole statement probe for a
 * fraction of the calls. The cheap model has answered every statement (the run room's `estimateProbe` made that
 * run); the expensive one answers the triples `estimateMean` asks for, round by round (each an `askExpensive`,
 * which is a run of the engine over the selected questions; the cache never pays twice), and the result says what
 * was measured and what estimated.
 */
import type { Question } from '../../probes/question.js';
import type {
    EstimateBudget,
    EstimateModel,
    EstimateRequest,
    EstimateRun,
    FigureEstimate,
    Spending,
} from '../../probes/estimate-types.js';
import { HalluProbeError, problem } from '../../errors.js';
import { estimateMean } from './estimate.js';
import { triplesOf, tripleScore, type StatementMetric } from './metrics.js';
import { cliCommand } from '../../invocation.js';

export async function estimateStatements(
    req: EstimateRequest,
    cheapRun: EstimateRun,
    askExpensive: (questionIds: string[]) => Promise<EstimateRun>,
    model: EstimateModel,
): Promise<FigureEstimate> {
    const metric = (req.metric ?? 'C') as StatementMetric;
    const questions = cheapRun.questions;
    const byId = new Map(questions.map(q => [q.id, q]));
    const triples = triplesOf(cheapRun.verdicts.map(v => ({ v, q: byId.get(v.questionId)! })));
    if (triples.length === 0)
        throw new HalluProbeError(
            problem(
                'estimate-empty',
                `Probe ${req.probe} gave no triple with a true statement and a negative.`,
                `Preview it: ${cliCommand()} preview SPEC --probe NAME.`,
            ),
        );
    const members = new Map<string, Question[]>();
    for (const q of questions) if (q.group) members.set(q.group.id, [...(members.get(q.group.id) ?? []), q]);
    const perTriple = triples.map(t => members.get(t.id) ?? []);
    const calls = perTriple.map(qs => qs.length * model.samples);
    const usd = perTriple.map(qs => model.usd(qs));
    const full: Spending = {
        units: triples.length,
        calls: sum(calls),
        ...(usd.every(u => u !== undefined) ? { usd: sum(usd as number[]) } : {}),
    };
    const budget = budgetTriples(req.budget, full, req.probe, req.expensive);
    const expensiveRuns: string[] = [];
    let expensiveQuestions = 0;
    const spent = { calls: 0, usd: 0 };
    const result = await estimateMean({
        cheap: triples.map(t => tripleScore(t, metric)),
        strata: triples.map(t => t.attribute),
        budget,
        seed: req.seed,
        target: req.target,
        label: async picked => {
            const ids = picked.flatMap(i => (members.get(triples[i]!.id) ?? []).map(q => q.id));
            expensiveQuestions += ids.length;
            const run = await askExpensive(ids);
            expensiveRuns.push(run.id);
            spent.calls += run.calls;
            spent.usd += run.cost;
            // A triple is scored only when the expensive model answered all of its statements; a failed call
            // leaves it out (counted as failed), never scored 0 — by triplesOf, the rule the report drops triples by.
            const scored = new Map(
                triplesOf(run.verdicts.map(v => ({ v, q: byId.get(v.questionId)! }))).map(t => [t.id, tripleScore(t, metric)]),
            );
            req.onRound?.(expensiveRuns.length, budget);
            return picked.map(i => scored.get(triples[i]!.id));
        },
    });
    const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / (xs.length || 1);
    const share = budget / triples.length;
    return {
        ...result,
        metric,
        cheapMeasured: mean(triples.map(t => tripleScore(t, metric))),
        sampleMeasured: result.sampleOnly.value,
        expensiveQuestions,
        cheapRun: cheapRun.id,
        expensiveRuns,
        unit: 'triples',
        budget: {
            units: budget,
            calls: Math.round(full.calls * share),
            ...(full.usd !== undefined ? { usd: full.usd * share } : {}),
        },
        spent,
        full,
    };
}

const sum = (xs: readonly number[]) => xs.reduce((s, x) => s + x, 0);

/**
 * The triples a budget buys. Calls and dollars are turned into triples at the mean cost of a triple over this probe
 * (its statements × the model's samples; dollars at the model's price and the questions' token counts).
 */
function budgetTriples(b: EstimateBudget, full: Spending, probe: string, model: string): number {
    const n = full.units;
    if ('share' in b) return Math.max(2, Math.round(b.share * n));
    if ('count' in b) return Math.round(b.count);
    if ('calls' in b) {
        const each = full.calls / n;
        const t = Math.floor(b.calls / each);
        if (t < 2)
            throw new HalluProbeError(
                problem(
                    'estimate-budget',
                    `${b.calls} calls buy ${t} triple${t === 1 ? '' : 's'} of ${probe} (${each.toFixed(1)} calls each); an estimate needs at least 2.`,
                    `Give at least ${Math.ceil(2 * each)} calls.`,
                ),
            );
        return Math.min(n, t);
    }
    if (full.usd === undefined) {
        throw new HalluProbeError(
            problem(
                'estimate-budget',
                `A budget in dollars needs ${model}'s price, and it has none.`,
                'Set price_input and price_output (USD per million tokens) on the model, or give the budget in triples or calls.',
            ),
        );
    }
    const each = full.usd / n;
    const t = each > 0 ? Math.floor(b.usd / each) : n;
    if (t < 2)
        throw new HalluProbeError(
            problem(
                'estimate-budget',
                `$${b.usd} buys ${t} triple${t === 1 ? '' : 's'} of ${probe} (about $${each.toFixed(4)} each); an estimate needs at least 2.`,
                `Give at least $${(2 * each).toFixed(4)}.`,
            ),
        );
    return Math.min(n, t);
}
