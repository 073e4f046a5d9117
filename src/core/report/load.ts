/**
 * `loadReport`: one user action "show me this run's results", the same from the CLI (`halluprobe report`) and the
 * editor (Export Report, Show Results): verify the answers that have no verdict yet (when the run's spec and data
 * still load cleanly), apply the overrides, run the opt-in judge, build the report data.
 */
import { existsSync } from 'node:fs';
import { loadSpec } from '../spec/load.js';
import { loadData, type DataCache } from '../data/index.js';
import { createClient, modelFromFlag, resolveKey, resolveModel, type ConfirmHost, type KeyBindings } from '../models/index.js';
import type { RunResults, Store } from '../store/index.js';
import { verifyRun } from '../verify/run.js';
import { applyOverrides } from '../verify/overrides.js';
import { runJudge, sampleVerdicts, type JudgeResult } from '../verify/judge.js';
import type { Verdict } from '../verify/types.js';
import { HalluProbeError, problem, problemWords, warning, type Problem } from '../errors.js';
import { familyModelSteps } from '../probes/registry.js';
import { readWithModels } from '../verify/model-read.js';
import type { ResolvedModel } from '../models/providers.js';
import type { SpecModel } from '../spec/model.js';
import { buildReport, type ReportData } from './model.js';
import { cliCommand } from '../invocation.js';

interface JudgeOptions {
    /** A model of the run's spec, or provider:id. */
    model: string;
    /** How many verdicts the judge reads, and the sample's seed. */
    sample: number;
    seed: number;
    confirmHost: ConfirmHost;
    bindings?: KeyBindings;
}

export interface LoadReportOptions {
    /** Knowledge filter: a model knowing fewer entities is n/a (default 20). */
    minKnown?: number;
    judge?: JudgeOptions;
    cache?: DataCache;
    /**
     * How the families' model steps (rule: claim extraction, embeddings) get keys: the face's host confirmation
     * and bindings. Without it a key goes only where it is already bound (no host is confirmed).
     */
    keys?: { confirmHost: ConfirmHost; bindings?: KeyBindings };
}

/** Resolves "latest" (or nothing) to the newest run; throws for a run the store does not have. */
export async function resolveRunId(store: Store, id: string | undefined): Promise<string> {
    if (id === undefined || id === 'latest') {
        const latest = await store.latestRun();
        if (!latest)
            throw new HalluProbeError(
                problem(
                    'no-runs',
                    `The store ${store.location} has no runs yet.`,
                    `Run a suite first (${cliCommand()} run <spec.probe>, or Run Suite in the editor).`,
                ),
            );
        return latest.id;
    }
    if (!(await store.getRun(id)))
        throw new HalluProbeError(
            problem(
                'unknown-run',
                `No run "${id}" in ${store.location}.`,
                `List the runs with: ${cliCommand()} runs --db ${store.location}`,
            ),
        );
    return id;
}

/**
 * Verifies the run's answers that have no verdict yet; a problem says why some stay unverified. When it verified
 * some, the spec it verified against comes back: the families' model steps run on it next.
 */
async function verifyMissing(
    store: Store,
    runId: string,
    cache?: DataCache,
): Promise<{ problem?: Problem; verified?: SpecModel }> {
    const results = (await store.loadRunResults(runId))!;
    if (results.answers.length === 0 || results.verdicts.length >= results.answers.length) return {};
    const missing = results.answers.length - results.verdicts.length;
    const spec = results.run.spec;
    const unverified = (code: string, message: string, remedy: string, at?: string): { problem: Problem } => ({
        problem: warning(code, message, remedy, at ? { file: at } : undefined),
    });
    if (!existsSync(spec))
        return unverified(
            'spec-gone',
            `the spec ${spec} is gone, so ${missing} answers stay unverified.`,
            'Put the spec back where the run was made from, then report again.',
        );
    const loaded = await loadSpec(spec);
    const errors = loaded.diagnostics.filter(d => d.severity === 'error').length;
    if (errors > 0)
        return unverified(
            'spec-errors',
            `the spec now has ${errors} error(s), so ${missing} answers stay unverified.`,
            `Mend them (${cliCommand()} check ${spec} shows them), then report again.`,
            spec,
        );
    const data = await loadData(loaded.model, cache);
    await verifyRun(store, runId, loaded.model, data, { onlyUnverified: true });
    return { verified: loaded.model };
}

/** Why a report step failed: a warning (the report shows what there is), where the failure is not the user's to locate. */
function stepFailed(code: string, what: string, e: unknown): Problem {
    return warning(
        code,
        `${what} failed: ${e instanceof Error ? e.message : String(e)}`,
        'Report the run again; if it fails again, it is a bug worth reporting.',
    );
}

/**
 * The run's report data, and the problems met on the way (answers left unverified and why, the families' model
 * steps that fell back), each located where it can be and with a remedy; the faces print them.
 */
export async function loadReport(
    store: Store,
    runId: string,
    options: LoadReportOptions = {},
): Promise<{ data: ReportData; problems: Problem[] }> {
    const verification = await verifyMissing(store, runId, options.cache).catch(e => ({
        problem: stepFailed('verification-failed', 'verification', e),
        verified: undefined,
    }));
    // Answers verified just now (a run with --no-verify) get the families' model steps, as runSpec gives them after verifying.
    const steps = verification.verified
        ? await modelSteps(store, runId, verification.verified, options.keys).catch(e => [
              stepFailed('model-step', 'the model steps', e),
          ])
        : [];
    const results = (await store.loadRunResults(runId))!;
    const overrides = await store.overrides(runId);
    const build: Parameters<typeof buildReport>[2] = options.minKnown === undefined ? {} : { minKnown: options.minKnown };
    if (options.judge) build.judge = await judgeRun(results, applyOverrides(results.verdicts, overrides), options.judge);
    const data = buildReport(
        { ...results, failures: await store.failures(runId), labels: await store.labels(runId) },
        overrides,
        build,
    );
    return { data, problems: [...(verification.problem ? [verification.problem] : []), ...steps] };
}

/** The families' steps that ask models after verification (rule: extract_with, embeddings), as runSpec runs them. */
async function modelSteps(store: Store, runId: string, spec: SpecModel, keys: LoadReportOptions['keys']): Promise<Problem[]> {
    const stepRun = {
        store,
        runId,
        spec,
        client: (model: ResolvedModel, key: string) => createClient(model, { key }),
        keyFor: (model: ResolvedModel) =>
            resolveKey(model, undefined, keys?.confirmHost ?? (async () => false), process.env, keys?.bindings),
    };
    return [...(await readWithModels(stepRun)).problems, ...(await familyModelSteps(stepRun))];
}

/** The opt-in LLM judge on a deterministic sample of the run's verdicts (questions with keywords only). */
async function judgeRun(results: RunResults, verdicts: Verdict[], o: JudgeOptions): Promise<JudgeResult> {
    // A model declared in the run's spec (with its endpoint and key_env), or a provider:id flag.
    const declared = existsSync(results.run.spec) ? (await loadSpec(results.run.spec)).model.models : [];
    const decl = modelFromFlag(o.model, declared);
    if (!decl)
        throw new HalluProbeError(
            problem(
                'unknown-model',
                `--judge: unknown model "${o.model}".`,
                'Name a model of the spec or use openai:<id>, ollama:<id>, openrouter:<id>.',
            ),
        );
    const { model, problems } = resolveModel(decl);
    if (!model) throw new HalluProbeError(problem('judge-model', `--judge: ${problems.map(problemWords).join(' ')}`));
    const key = await resolveKey(model, undefined, o.confirmHost, process.env, o.bindings);
    if (!key.ok) throw new HalluProbeError(problem('judge-key', `--judge: ${key.message}`));
    const client = createClient(model, { key: key.key });
    const questions = new Map(results.questions.map(q => [q.id, q]));
    const responses = new Map(results.answers.map(a => [`${a.questionId}\u0000${a.model}\u0000${a.sample}`, a.text]));
    const eligible = verdicts.filter(v => (questions.get(v.questionId)?.keywords.length ?? 0) > 0);
    const items = sampleVerdicts(eligible, o.sample, o.seed).map(verdict => ({
        verdict,
        response: responses.get(`${verdict.questionId}\u0000${verdict.model}\u0000${verdict.sample}`) ?? '',
    }));
    return runJudge(
        async messages => (await client.complete({ messages, params: { temperature: 0 }, sample: 0 })).text,
        questions,
        items,
    );
}
