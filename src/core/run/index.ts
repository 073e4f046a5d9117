/**
 * A run from start to finish, as the CLI and the extension use it: resolve the models and their keys, create or
 * resume the run in the store, estimate what is left to pay for, then execute.
 */
import type { Question } from '../probes/question.js';
import type { ModelDecl } from '../spec/model.js';
import {
    createClient, estimateCost, priceOf, resolveKey, resolveModel,
    type ConfirmHost, type CostEstimate, type DomainFn, type KeyBindings, type SecretSource,
} from '../models/index.js';
import { leaseMessage, type RunModelRecord, type RunRecord, type RunSettings, type Store } from '../store/index.js';
import { answerParams } from './hash.js';
import { executeRun, pendingSlots, type AnswerEvent, type PendingSlot, type Progress, type RunModel, type RunOutcome } from './runner.js';
import type { RetryPolicy } from './retry.js';
import { cliCommand } from '../invocation.js';

export { executeRun, pendingSlots, type AnswerEvent, type PendingSlot, type Progress, type RunModel, type RunOutcome } from './runner.js';
export { requestHash, answerParams, canonicalJson } from './hash.js';
export { DEFAULT_RETRY, backoffMs, type RetryPolicy } from './retry.js';

export interface PrepareRequest {
    store: Store;
    /** Absolute path of the spec: runs of the same spec and suite resume each other. */
    spec: string;
    suite: string;
    /** The questions to ask in a new run; a resumed run keeps the questions it stored. */
    questions: Question[];
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
}

export interface PreparedRun {
    run: RunRecord;
    resumed: boolean;
    questions: Question[];
    models: RunModel[];
    /** Per model: what the unanswered, uncached requests will cost. */
    estimates: CostEstimate[];
    /** Slots still to answer (from the cache or a call). */
    todo: number;
    /** Those slots per model, with their request hashes and cache hits. */
    pending: Map<string, PendingSlot[]>;
}

/** Endpoint as recorded: without any user:password a URL might carry. */
function publicEndpoint(endpoint: string): string {
    try {
        const u = new URL(endpoint);
        u.username = ''; u.password = '';
        return u.toString().replace(/\/$/, '');
    } catch { return endpoint; }
}

export async function prepareRun(req: PrepareRequest): Promise<{ prepared?: PreparedRun; problems: string[] }> {
    const problems: string[] = [];
    const models: RunModel[] = [];
    for (const decl of req.models) {
        const { model, problems: p } = resolveModel(decl);
        problems.push(...p);
        if (!model) continue;
        if (req.concurrency !== undefined && req.concurrency > 0) model.limits.concurrency = req.concurrency;
        const key = await resolveKey(model, req.secrets, req.confirmHost, req.env, req.bindings);
        if (!key.ok) { problems.push(key.message); continue; }
        try {
            const client = createClient(model, { key: key.key, domain: req.domain, baseDir: req.baseDir });
            const rm: RunModel = { model, client };
            const price = priceOf(model);
            if (price) rm.price = price;
            if (key.key && key.key !== 'not-needed') rm.secret = key.key;
            models.push(rm);
        } catch (e) {
            problems.push(`model ${decl.name}: ${e instanceof Error ? e.message : String(e)}`);
        }
    }
    if (models.length === 0 && problems.length === 0) problems.push('no model to ask: name one with --model or in the suite\'s models.');
    if (problems.length) return { problems };

    const { store } = req;
    const current: RunModelRecord[] = models.map(m => ({
        name: m.model.name, provider: m.model.provider, id: m.model.id, endpoint: publicEndpoint(m.model.endpoint),
        display: m.client.displayName, params: answerParams(m.model.params, 0), samples: m.model.samples,
    }));
    // Choosing (or creating) the run and taking its one-writer lease is one transaction: two processes started
    // at once cannot both resume, or both create, the same spec's run.
    const chosen = store.exclusive(() => chooseRun(req, current));
    if ('problem' in chosen) return { problems: [chosen.problem] };
    let { run } = chosen;
    const { resumed, settings } = chosen;
    const questions = resumed ? store.questions(run.id) : req.questions;
    const slots = questions.length * (settings.models ?? []).reduce((n, m) => n + (m.samples ?? 1), 0);
    store.updateSettings(run.id, { ...settings, slots });
    run = store.getRun(run.id)!;

    // What is left to ask, with request hashes and cache hits, worked out once: the estimate reads it, the runner uses it.
    const answered = store.answered(run.id);
    const pending = new Map(models.map(m => [m.model.name, pendingSlots(store, run!.id, questions, m, answered)]));
    let todo = 0;
    const estimates = models.map(m => {
        const slots = pending.get(m.model.name)!;
        todo += slots.length;
        const toAsk = m.client.cacheable ? slots.filter(s => !s.hit).map(s => s.question) : [];
        return estimateCost(m.model, toAsk, store.averageOutputTokens(m.model.name));
    });
    return { prepared: { run, resumed, questions, models, estimates, todo, pending }, problems };
}

function chooseRun(req: PrepareRequest, current: RunModelRecord[]): { run: RunRecord; resumed: boolean; settings: RunSettings } | { problem: string } {
    const { store } = req;
    let run: RunRecord | undefined;
    if (req.resume && req.resume !== 'auto' && req.resume !== 'new') {
        run = store.getRun(req.resume);
        if (!run) return { problem: `no run ${req.resume} in ${store.file}; list runs with "${cliCommand()} runs".` };
    } else if (req.resume !== 'new') {
        run = store.resumableRun(req.spec, req.suite);
    }
    if (!run) {
        const settings = { ...req.settings, models: current };
        run = store.createRun(req.spec, req.suite, settings);
        store.saveQuestions(run.id, req.questions);
        store.acquireLease(run.id);
        return { run, resumed: false, settings };
    }
    const holder = store.acquireLease(run.id);
    if (holder) return { problem: leaseMessage(holder) };
    // A resumed run keeps its questions and so the options that chose them (limit, seed); its models are
    // those it had plus those asked now, since the answers of both stay in the run.
    const before = (run.settings.models ?? []).filter(p => !current.some(c => c.name === p.name));
    store.setStatus(run.id, 'running');
    return { run, resumed: true, settings: { ...run.settings, models: [...before, ...current] } };
}

export interface ExecuteOptions {
    signal?: AbortSignal;
    onProgress?: (p: Progress) => void;
    onAnswer?: (e: AnswerEvent) => void;
    retry?: RetryPolicy;
}

/** Executes a prepared run, then gives up its one-writer lease (closing the store does too). */
export async function startRun(store: Store, prepared: PreparedRun, options: ExecuteOptions = {}): Promise<RunOutcome> {
    try {
        return await executeRun({ store, runId: prepared.run.id, questions: prepared.questions, models: prepared.models, pending: prepared.pending, ...options });
    } finally {
        store.releaseLease(prepared.run.id);
    }
}
