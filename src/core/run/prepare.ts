/**
 * Preparing a run, as runSpec uses it: resolve the models and their keys, create or
 * resume the run in the store, estimate what is left to pay for, then execute.
 */
import type { Question } from '../probes/question.js';
import type { ModelDecl } from '../spec/model.js';
import {
    countMessageTokens,
    createClient,
    DEFAULT_OUTPUT_TOKENS,
    forecastFromCounts,
    priceOf,
    resolveKey,
    resolveModel,
    type ConfirmHost,
    type CostForecast,
    type DomainFn,
    type KeyBindings,
    type ResolvedModel,
    type SecretSource,
} from '../models/index.js';
import { leaseMessage, type RunModelRecord, type RunRecord, type RunSettings, type Store } from '../store/index.js';
import { answerParams } from './hash.js';
import {
    executeRun,
    generatingProgress,
    pendingSlots,
    type AnswerEvent,
    type Progress,
    type RunModel,
    type RunOptions,
    type RunOutcome,
} from './runner.js';
import type { RetryPolicy } from './retry.js';
import { questionBatches, type QuestionSource } from './feed.js';
import { cliCommand } from '../invocation.js';
import { problem, type Problem } from '../errors.js';
import { batchProblem, executeBatchRun, type BatchOptions } from './batch.js';
import { BATCH_PRICE_SHARE } from '../models/openai-batch.js';
import { executeSharedRun, type SharedOptions } from './shared.js';
import type { AnswerSteps } from './steps.js';

export { executeRun, type AnswerEvent, type Progress, type RunModel, type RunOutcome } from './runner.js';
export { type QuestionSource } from './feed.js';
export interface PrepareRequest {
    store: Store;
    /** Absolute path of the spec: runs of the same spec and suite resume each other. */
    spec: string;
    suite: string;
    /**
     * The questions to ask in a new run, or how to generate them (read more than once when estimating); a resumed
     * run keeps the questions it stored.
     */
    questions: Question[] | QuestionSource;
    models: ModelDecl[];
    /** A run id to continue, 'auto' (continue the latest unfinished run of this spec and suite) or 'new'. */
    resume?: string | 'auto' | 'new';
    secrets?: SecretSource;
    confirmHost: ConfirmHost;
    env?: NodeJS.ProcessEnv;
    /** Where a custom key variable's first confirmed origin is remembered. */
    bindings?: KeyBindings;
    /** Other values of an attribute, for the offline simulator. */
    domain?: DomainFn;
    /** Relative replay files are resolved against this folder. */
    baseDir: string;
    /** Overrides every model's concurrency. */
    concurrency?: number;
    /** Recorded with the run (limit, seed, …); never a key. */
    settings?: RunSettings;
    /** Questions generated so far while estimating (before anything is asked). */
    onProgress?: (p: Progress) => void;
    /** Send the pending slots to the provider's Batch API (a run started as a batch run resumes as one). */
    batch?: boolean;
    /** Work on the run together with other processes (a shared run: chunks of questions claimed in turn). */
    join?: boolean;
    /** The calls model steps make per answer (open: `judge_with`): the cost gate counts and prices them too. */
    steps?: AnswerSteps;
}

export interface PreparedRun {
    run: RunRecord;
    resumed: boolean;
    models: RunModel[];
    /** Questions in the run when known before asking (a resumed run's, or estimated); else they are generated as the run goes. */
    questionCount?: number;
    /**
     * Per model: what the unanswered, uncached requests will cost. Worked out (a pass over every question before
     * anything is asked) only when a model has a price: otherwise asking starts with the first generated batch.
     */
    forecasts: CostForecast[];
    /** Slots still to answer (from the cache or a call), when estimated. */
    todo?: number;
    /** The run's questions in batches: stored ones, or generated and stored as they come. */
    batches: () => AsyncIterable<Question[]>;
    /** A batch run: answers come from the provider's Batch API, at its price. */
    batch?: boolean;
    /** A shared run: this process is one of its workers. */
    shared?: boolean;
}

/** Endpoint as recorded: without any user:password a URL might carry. */
function publicEndpoint(endpoint: string): string {
    try {
        const u = new URL(endpoint);
        u.username = '';
        u.password = '';
        return u.toString().replace(/\/$/, '');
    } catch {
        return endpoint;
    }
}

export async function prepareRun(req: PrepareRequest): Promise<{ prepared?: PreparedRun; problems: Problem[] }> {
    const problems: Problem[] = [];
    const models: RunModel[] = [];
    for (const decl of req.models) {
        const { model, problems: p } = resolveModel(decl);
        problems.push(...p);
        if (!model) continue;
        if (req.concurrency !== undefined && req.concurrency > 0) model.limits.concurrency = req.concurrency;
        const key = await resolveKey(model, req.secrets, req.confirmHost, req.env, req.bindings);
        if (!key.ok) {
            problems.push(problem('missing-key', key.message));
            continue;
        }
        try {
            const client = createClient(model, { key: key.key, domain: req.domain, baseDir: req.baseDir });
            const rm: RunModel = { model, client };
            const price = priceOf(model);
            if (price) rm.price = price;
            if (key.key && key.key !== 'not-needed') rm.secret = key.key;
            models.push(rm);
        } catch (e) {
            problems.push(problem('model-client', `model ${decl.name}: ${e instanceof Error ? e.message : String(e)}`));
        }
    }
    if (models.length === 0 && problems.length === 0)
        problems.push(problem('no-model', "no model to ask: name one with --model or in the suite's models."));
    const noBatch = req.batch ? batchProblem(models) : undefined;
    if (noBatch) problems.push(noBatch);
    if (req.batch && req.join)
        problems.push(
            problem(
                'join-batch',
                'a batch run is asked by the provider, not by workers: --join and --batch do not go together.',
                'Run it with --batch alone; any machine collects it later with --resume RUN.',
            ),
        );
    if (problems.length) return { problems };

    const { store } = req;
    const current: RunModelRecord[] = models.map(m => ({
        name: m.model.name,
        provider: m.model.provider,
        id: m.model.id,
        endpoint: publicEndpoint(m.model.endpoint),
        display: m.client.displayName,
        params: answerParams(m.model.params, 0),
        samples: m.model.samples,
    }));
    // Choosing (or creating) the run and taking its one-writer lease is one transaction: two processes started
    // at once cannot both resume, or both create, the same spec's run.
    const chosen = await store.exclusive(tx => chooseRun(tx, req, current));
    if ('problem' in chosen) return { problems: [chosen.problem] };
    let { run } = chosen;
    const { resumed } = chosen;
    const batch = req.batch === true || chosen.settings.batch === true;
    if (batch && req.join)
        return {
            problems: [
                problem(
                    'join-batch',
                    `run ${run.id} is a batch run: it is asked by the provider, not by workers.`,
                    'Collect it with --resume RUN, without --join.',
                ),
            ],
        };
    const settings: RunSettings = batch ? { ...chosen.settings, batch: true } : chosen.settings;
    if (batch && !req.batch) {
        const resumedNoBatch = batchProblem(models);
        if (resumedNoBatch) return { problems: [resumedNoBatch] };
    }
    // A run whose questions were all stored reads them back; a new one, or one stopped while they were still being
    // generated, generates them (again: the stored ones are kept) and stores them as they come.
    const continued = resumed && settings.generating === true;
    const given = req.questions;
    const source =
        resumed && !continued
            ? undefined
            : Array.isArray(given)
              ? () => given
              : () => (given as QuestionSource)(continued ? settings : undefined);
    const perQuestion = (settings.models ?? []).reduce((n, m) => n + (m.samples ?? 1), 0);
    const runId = run.id;
    const feed = (save: boolean) =>
        questionBatches({ store, runId, source, continued, save, onStored: () => storedAll(store, runId, perQuestion) });
    let questionCount = source ? undefined : await store.questionCount(runId);
    // A worker joining a shared run wrote its settings when it chose the run: others may be storing its questions.
    if (!req.join)
        await store.updateSettings(
            runId,
            source ? { ...settings, generating: true } : { ...settings, slots: questionCount! * perQuestion },
        );
    run = (await store.getRun(runId))!;

    const prepared: PreparedRun = { run, resumed, models, forecasts: [], batches: () => feed(true) };
    if (batch) prepared.batch = true;
    if (req.join) prepared.shared = true;
    if (questionCount !== undefined) prepared.questionCount = questionCount;
    // The cost gate needs the whole estimate before the first call, so only a priced model (or a step asked per
    // answer, whose model may have a price) waits for it.
    if (req.steps || models.some(m => m.client.cacheable && m.price && (m.price.input > 0 || m.price.output > 0))) {
        const { count, todo, forecasts } = await forecast(store, runId, models, feed(false), req.onProgress, req.steps);
        prepared.questionCount = questionCount = count;
        prepared.todo = todo;
        // A batch is paid at the provider's batch price.
        prepared.forecasts = batch
            ? forecasts.map(e =>
                  e.usd === undefined ? { ...e, batch: true } : { ...e, usd: e.usd * BATCH_PRICE_SHARE, batch: true },
              )
            : forecasts;
    }
    return { prepared, problems };
}

/** Every question is stored: the run's slot count is final and a resume reads them back instead of generating. */
async function storedAll(store: Store, runId: string, perQuestion: number): Promise<void> {
    // Exclusive: a worker joining a shared run writes the same settings (chooseRun).
    await store.exclusive(async tx => {
        const { generating: _, ...settings } = (await tx.getRun(runId))!.settings;
        await tx.updateSettings(runId, { ...settings, slots: (await tx.questionCount(runId)) * perQuestion });
    });
}

/**
 * One pass over the questions (nothing stored, nothing asked): what is left to ask per model and what it costs, and
 * the calls model steps will make on each answer still to come (`steps`; the answer a stand-in of its expected length).
 */
async function forecast(
    store: Store,
    runId: string,
    models: RunModel[],
    batches: AsyncIterable<Question[]>,
    onProgress?: (p: Progress) => void,
    steps?: AnswerSteps,
) {
    const answered = await store.answered(runId);
    const averages = await Promise.all(models.map(m => store.averageOutputTokens(m.model.name)));
    const standIns = models.map((m, i) =>
        'x '.repeat(Math.round(averages[i] ?? m.model.expectedOutputTokens ?? DEFAULT_OUTPUT_TOKENS)),
    );
    const counts = models.map(() => ({ requests: 0, tokens: 0 }));
    const stepCounts = new Map<string, { model: ResolvedModel; requests: number; tokens: number }>();
    let count = 0,
        todo = 0;
    for await (const batch of batches) {
        count += batch.length;
        for (const [i, m] of models.entries()) {
            const slots = await pendingSlots(store, runId, batch, m, answered);
            todo += slots.length;
            for (const s of slots) {
                if (s.hit) continue;
                for (const call of steps?.(s.question, standIns[i]!) ?? []) {
                    const c = stepCounts.get(call.model.name) ?? { model: call.model, requests: 0, tokens: 0 };
                    c.requests++;
                    c.tokens += countMessageTokens(call.messages);
                    stepCounts.set(call.model.name, c);
                }
                if (m.client.cacheable) {
                    counts[i]!.requests++;
                    counts[i]!.tokens += countMessageTokens(s.question.messages);
                }
            }
        }
        onProgress?.(generatingProgress(count));
        await new Promise(resolve => setImmediate(resolve));
    }
    const forecasts = models.map((m, i) => forecastFromCounts(m.model, counts[i]!.requests, counts[i]!.tokens, averages[i]));
    // A step's calls as an estimate of their own, named for the step's model (a judge may also answer in the run).
    for (const c of stepCounts.values())
        forecasts.push({
            ...forecastFromCounts(c.model, c.requests, c.tokens, await store.averageOutputTokens(c.model.name)),
            model: `${c.model.name} (model step)`,
        });
    return { count, todo, forecasts };
}

async function chooseRun(
    store: Store,
    req: PrepareRequest,
    current: RunModelRecord[],
): Promise<{ run: RunRecord; resumed: boolean; settings: RunSettings } | { problem: Problem }> {
    let run: RunRecord | undefined;
    if (req.resume && req.resume !== 'auto' && req.resume !== 'new') {
        run = await store.getRun(req.resume);
        if (!run)
            return {
                problem: problem(
                    'unknown-run',
                    `no run ${req.resume} in ${store.location}; list runs with "${cliCommand()} runs".`,
                ),
            };
    } else if (req.resume !== 'new') {
        run = await store.resumableRun(req.spec, req.suite);
    }
    if (!run) {
        // Its questions are stored as they are generated (until then a resume generates them again). A shared run's
        // are stored by whichever worker takes its lease first (shared.ts).
        const settings: RunSettings = {
            ...req.settings,
            models: current,
            generating: true,
            ...(req.join ? { shared: true } : {}),
        };
        run = await store.createRun(req.spec, req.suite, settings);
        if (!req.join) await store.acquireLease(run.id);
        return { run, resumed: false, settings };
    }
    if (req.join) return joinRun(store, run, current);
    if (run.settings.shared === true) {
        return {
            problem: problem(
                'run-shared',
                `run ${run.id} is shared by workers (started with --join).`,
                'Continue it with --join (with --resume RUN to name it), or start a separate run with --new.',
            ),
        };
    }
    const holder = await store.acquireLease(run.id);
    if (holder) return { problem: problem('run-busy', leaseMessage(holder)) };
    // A resumed run keeps its questions and so the options that chose them (limit, seed); its models are
    // those it had plus those asked now, since the answers of both stay in the run.
    const before = (run.settings.models ?? []).filter(p => !current.some(c => c.name === p.name));
    await store.setStatus(run.id, 'running');
    return { run, resumed: true, settings: { ...run.settings, models: [...before, ...current] } };
}

/**
 * A worker joining a run: a run that is not shared yet becomes shared, unless a process that is not a worker is
 * writing it (it would ask every slot itself).
 */
async function joinRun(
    store: Store,
    run: RunRecord,
    current: RunModelRecord[],
): Promise<{ run: RunRecord; resumed: boolean; settings: RunSettings } | { problem: Problem }> {
    if (run.settings.shared !== true) {
        const holder = await store.acquireLease(run.id);
        if (holder) return { problem: problem('run-busy', leaseMessage(holder)) };
        await store.releaseLease(run.id);
    }
    const before = (run.settings.models ?? []).filter(p => !current.some(c => c.name === p.name));
    const settings: RunSettings = { ...run.settings, shared: true, models: [...before, ...current] };
    await store.updateSettings(run.id, settings);
    return { run, resumed: true, settings };
}

export interface ExecuteOptions {
    signal?: AbortSignal;
    /** A batch run's polling and chunk size. */
    batch?: BatchOptions;
    /** A shared run's leases and polling. */
    shared?: Omit<SharedOptions, 'generate'>;
    onProgress?: (p: Progress) => void;
    onAnswer?: (e: AnswerEvent) => void;
    retry?: RetryPolicy;
}

/** Executes a prepared run, then gives up its one-writer lease (closing the store does too). */
export async function startRun(store: Store, prepared: PreparedRun, options: ExecuteOptions = {}): Promise<RunOutcome> {
    try {
        const run: RunOptions = {
            store,
            runId: prepared.run.id,
            batches: prepared.batches(),
            models: prepared.models,
            ...options,
        };
        if (prepared.questionCount !== undefined) run.questionCount = prepared.questionCount;
        if (prepared.shared) return await executeSharedRun({ ...run, shared: { generate: prepared.batches, ...options.shared } });
        return await (prepared.batch ? executeBatchRun({ ...run, batch: options.batch }) : executeRun(run));
    } finally {
        await store.releaseLease(prepared.run.id);
    }
}
