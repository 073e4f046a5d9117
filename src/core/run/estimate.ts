/**
 * `halluprobe estimate`: a family's figure for an expensive model from a sample. The cheap model answers every
 * question of the probe (one `runSpec`); the probe's family (its `estimate` hook, through the registry: statement
 * probes' T / I / C) picks what the expensive model is asked, round by round, each ask a `runSpec` over the selected
 * questions (the cache never pays twice).
 */
import { resolveRunModels, runSpec, type RunSpecRequest, type RunSpecResult } from './spec-run.js';
import { forecastCost } from '../models/cost.js';
import { resolveModel } from '../models/providers.js';
import type { SpecModel } from '../spec/model.js';
import { familyKinds, findCapability, findCore } from '../probes/registry.js';
import type { EstimateModel, EstimateRequest, EstimateRun, FigureEstimate } from '../probes/estimate-types.js';
import { HalluProbeError, problem, problemWords } from '../errors.js';

export type { EstimateBudget, FigureEstimate } from '../probes/estimate-types.js';

export interface EstimateProbeRequest
    extends
        EstimateRequest,
        Pick<RunSpecRequest, 'spec' | 'db' | 'secrets' | 'confirmHost' | 'confirmCost' | 'env' | 'signal' | 'concurrency'> {}

const asRun = (r: RunSpecResult): EstimateRun => ({
    id: r.run.id,
    questions: r.results.questions,
    verdicts: r.results.verdicts,
    calls: r.counts.calls,
    cost: r.counts.cost,
});

/** The expensive model as the run resolves it (its samples and price). */
/** A model's run for the estimate, which must have completed (code estimate-cheap / estimate-expensive). */
function completed(run: RunSpecResult, which: 'cheap' | 'expensive'): RunSpecResult {
    if (run.status === 'completed') return run;
    throw new HalluProbeError(
        problem(
            `estimate-${which}`,
            `The ${which} model's run ended ${run.status}.`,
            'Run the estimate again; answers already received come from the cache.',
        ),
    );
}

function expensiveModel(spec: SpecModel, name: string): EstimateModel {
    const decl = resolveRunModels(spec, [name], undefined)[0];
    const resolved = decl ? resolveModel(decl) : { problems: [problem('unknown-model', `no model ${name}`)] };
    const model = resolved.model;
    if (!model)
        throw new HalluProbeError(
            problem(
                'estimate-model',
                `The model to estimate, ${name}, cannot be used: ${resolved.problems.map(problemWords).join(' ')}`.replace(
                    /\.?$/,
                    '.',
                ),
                'Name a model declared in the spec, or provider:id.',
            ),
        );
    return {
        samples: model.samples,
        usd: questions =>
            forecastCost(
                model,
                questions.map(q => ({ messages: q.messages })),
            ).usd,
    };
}

export async function estimateProbe(req: EstimateProbeRequest): Promise<FigureEstimate> {
    const base = {
        spec: req.spec,
        db: req.db,
        secrets: req.secrets,
        confirmHost: req.confirmHost,
        confirmCost: req.confirmCost,
        env: req.env,
        signal: req.signal,
        concurrency: req.concurrency,
        origin: 'estimate',
    };
    const cheapRun = completed(await runSpec({ ...base, probe: req.probe, models: [req.cheap] }), 'cheap');
    const kind = cheapRun.spec.probes.find(p => p.name === req.probe)?.kind;
    const estimate = kind === undefined ? undefined : findCapability(kind, 'estimate');
    if (!estimate) {
        const estimable = familyKinds()
            .filter(k => findCapability(k, 'estimate'))
            .map(k => findCore(k)!);
        throw new HalluProbeError(
            problem(
                'estimate-kind',
                `Probe ${req.probe} is not a ${estimable.map(f => f.kind).join(' or ')} probe.`,
                `Estimates are made for ${estimable.map(f => `${f.kind} probes (probe NAME ${f.kind} …: ${f.example})`).join(' and ')}.`,
            ),
        );
    }
    return estimate.estimate(
        req,
        asRun(cheapRun),
        async questionIds => {
            return asRun(
                completed(await runSpec({ ...base, probe: req.probe, models: [req.expensive], questionIds }), 'expensive'),
            );
        },
        expensiveModel(cheapRun.spec, req.expensive),
    );
}
