/**
 * The runner: asks every unanswered (question × model × sample) of a run, each model with its own pool of
 * workers, pacing (rpm / tpm), per-request timeout and retries; answers come from the cache when an identical
 * request was answered before (in any run). Every answer is committed before the worker awaits anything else,
 * and cancelling stops new calls at once, leaving the run resumable.
 */
import type { Question } from '../probes/question.js';
import { costOf, countMessageTokens, DEFAULT_OUTPUT_TOKENS, type Price } from '../models/cost.js';
import type { ResolvedModel } from '../models/providers.js';
import { ModelError, type Completion, type ModelClient } from '../models/types.js';
import { redact } from '../models/secrets.js';
import { slotKey, type AnswerRecord, type CacheEntry, type RunStatus, type Store } from '../store/index.js';
import { answerParams, requestHash } from './hash.js';
import { Gate, sleep } from './limiter.js';
import { backoffMs, DEFAULT_RETRY, type RetryPolicy } from './retry.js';

export interface RunModel {
    model: ResolvedModel;
    client: ModelClient;
    price?: Price;
    /** Key text to scrub from any error stored or shown (belt and braces: clients already redact). */
    secret?: string;
}

export interface Progress {
    /** Slots in the run: questions × models × samples. */
    total: number;
    /** Answered (including before a resume) + failed. */
    done: number;
    answered: number;
    cached: number;
    failed: number;
    /** Slots answered before this execution (resume). */
    resumed: number;
    tokensIn: number;
    tokensOut: number;
    /** USD spent by this execution. */
    cost: number;
    /** Answers per second in this execution. */
    rate: number;
    elapsedMs: number;
}

export interface AnswerEvent {
    question: Question;
    model: string;
    sample: number;
    text?: string;
    cached?: boolean;
    error?: string;
}

export interface RunOptions {
    store: Store;
    runId: string;
    questions: Question[];
    models: RunModel[];
    signal?: AbortSignal;
    onProgress?: (p: Progress) => void;
    onAnswer?: (e: AnswerEvent) => void;
    retry?: RetryPolicy;
    /**
     * The slots still to answer per model (by name), as `prepareRun` found them: request hashes computed and
     * cache hits looked up once. Without it they are worked out here.
     */
    pending?: ReadonlyMap<string, PendingSlot[]>;
}

export interface RunOutcome { status: RunStatus; progress: Progress }

/** An unanswered (question × model × sample) of a run: its request hash and, when known, the cache entry answering it. */
export interface PendingSlot { question: Question; sample: number; hash?: string; hit?: CacheEntry | null }

/** The slots of one model a run has not answered yet (request hash and cache hit worked out once, for cacheable clients). */
export function pendingSlots(store: Store, runId: string, questions: readonly Question[], rm: RunModel, answered = store.answered(runId)): PendingSlot[] {
    const { model, client } = rm;
    const out: PendingSlot[] = [];
    for (const q of questions) {
        for (let s = 0; s < model.samples; s++) {
            if (answered.has(slotKey(q.id, model.name, s))) continue;
            if (!client.cacheable) { out.push({ question: q, sample: s }); continue; }
            const hash = requestHash(model.endpoint, model.id, answerParams(model.params, s), q.messages);
            out.push({ question: q, sample: s, hash, hit: store.cached(hash) ?? null });
        }
    }
    return out;
}

/** Cache hits committed per transaction. */
const CACHE_BATCH = 500;

export async function executeRun(opts: RunOptions): Promise<RunOutcome> {
    const { store, runId, questions, models, signal } = opts;
    const retry = opts.retry ?? DEFAULT_RETRY;
    const started = performance.now();
    const answered = store.answered(runId);
    const total = questions.length * models.reduce((n, m) => n + m.model.samples, 0);
    const progress: Progress = {
        total, done: 0, answered: 0, cached: 0, failed: 0, resumed: 0, tokensIn: 0, tokensOut: 0, cost: 0, rate: 0, elapsedMs: 0,
    };
    const emit = () => {
        progress.elapsedMs = performance.now() - started;
        progress.rate = progress.elapsedMs > 0 ? ((progress.answered - progress.resumed) * 1000) / progress.elapsedMs : 0;
        opts.onProgress?.(progress);
    };

    const pools = models.map(m => ({ m, todo: opts.pending?.get(m.model.name) ?? pendingSlots(store, runId, questions, m, answered) }));
    progress.resumed = total - pools.reduce((n, p) => n + p.todo.length, 0);
    progress.answered = progress.done = progress.resumed;
    emit();

    await Promise.all(pools.map(({ m, todo }) => runModel(m, todo)));
    const status: RunStatus = signal?.aborted ? 'cancelled' : 'completed';
    store.setStatus(runId, status);
    emit();
    return { status, progress: { ...progress } };

    async function runModel(rm: RunModel, todo: PendingSlot[]): Promise<void> {
        const { model, client } = rm;
        const gate = new Gate(model.limits.rpm, model.limits.tpm);
        const inflight = new Map<string, Promise<Completion>>();
        const toAsk = client.cacheable ? await serveFromCache(todo) : todo;
        let next = 0;
        const worker = async () => {
            while (next < toAsk.length && !signal?.aborted) await ask(toAsk[next++]!);
        };

        /**
         * Answers what the cache already holds, in batches of one transaction each (these answers are durable in
         * the cache already, so a crash mid-batch loses nothing), and returns the slots left to ask.
         */
        async function serveFromCache(slots: PendingSlot[]): Promise<PendingSlot[]> {
            const left: PendingSlot[] = [];
            for (let start = 0; start < slots.length && !signal?.aborted; start += CACHE_BATCH) {
                const hits: { slot: PendingSlot; record: AnswerRecord }[] = [];
                for (const s of slots.slice(start, start + CACHE_BATCH)) {
                    s.hash ??= requestHash(model.endpoint, model.id, answerParams(model.params, s.sample), s.question.messages);
                    const hit = s.hit === undefined ? store.cached(s.hash) : s.hit;
                    if (!hit) { left.push(s); continue; }
                    hits.push({ slot: s, record: cacheRecord(s.question, s.sample, s.hash, hit) });
                }
                if (hits.length) {
                    store.recordAnswers(hits.map(h => h.record));
                    progress.answered += hits.length; progress.done += hits.length; progress.cached += hits.length;
                    for (const h of hits) opts.onAnswer?.({ question: h.slot.question, model: model.name, sample: h.slot.sample, text: h.record.text, cached: true });
                    emit();
                }
                // Let cancellation and progress drawing in between batches.
                await new Promise(resolve => setImmediate(resolve));
            }
            return signal?.aborted ? [] : left;
        }

        /** The answer record of a slot served from the cache (nothing was called, nothing paid). */
        function cacheRecord(question: Question, sample: number, hash: string, hit: CacheEntry): AnswerRecord {
            return {
                run: runId, question: question.id, model: model.name, sample, hash, params: answerParams(model.params, sample), text: hit.text,
                tokensIn: hit.tokensIn, tokensOut: hit.tokensOut, latencyMs: 0, cost: 0, attempts: 0, finishReason: hit.finishReason, cached: true, cacheable: false,
            };
        }

        async function ask({ question, sample, hash: known }: PendingSlot): Promise<void> {
            const params = answerParams(model.params, sample);
            const slot = { run: runId, question: question.id, model: model.name, sample };
            const hash = known ?? (client.cacheable ? requestHash(model.endpoint, model.id, params, question.messages) : '');
            const hit = client.cacheable ? store.cached(hash) : undefined;
            if (hit) {
                store.recordAnswer(cacheRecord(question, sample, hash, hit));
                progress.answered++; progress.done++; progress.cached++;
                opts.onAnswer?.({ question, model: model.name, sample, text: hit.text, cached: true });
                emit();
                return;
            }
            // Two slots with the same request in one run (rare) share one call.
            const same = client.cacheable ? inflight.get(hash) : undefined;
            let attempts = 0;
            const t0 = performance.now();
            try {
                let completion: Completion;
                if (same) completion = await same;
                else {
                    const call = callWithRetries(question, sample, gate, () => attempts++);
                    if (client.cacheable) inflight.set(hash, call);
                    try { completion = await call; } finally { inflight.delete(hash); }
                }
                const cost = same ? 0 : costOf(rm.price, completion.tokens);
                store.recordAnswer({
                    ...slot, hash, params, text: completion.text, tokensIn: same ? 0 : completion.tokens.input, tokensOut: same ? 0 : completion.tokens.output,
                    latencyMs: completion.latencyMs, cost, attempts, finishReason: completion.finishReason, cached: Boolean(same), cacheable: client.cacheable,
                });
                progress.answered++; progress.done++;
                if (same) progress.cached++;
                else { progress.tokensIn += completion.tokens.input; progress.tokensOut += completion.tokens.output; progress.cost += cost; }
                opts.onAnswer?.({ question, model: model.name, sample, text: completion.text, cached: Boolean(same) });
            } catch (e) {
                // Cancelled: nothing is recorded, so a resume asks this slot again.
                if (signal?.aborted) return;
                const err = e instanceof ModelError ? e : new ModelError('connection', e instanceof Error ? e.message : String(e));
                const error = redact(`${err.kind}: ${err.message}`, rm.secret ? [rm.secret] : []);
                store.recordFailure({ ...slot, hash, params, attempts, error, latencyMs: performance.now() - t0 });
                progress.failed++; progress.done++;
                opts.onAnswer?.({ question, model: model.name, sample, error });
            }
            emit();
        }

        async function callWithRetries(question: Question, sample: number, gate: Gate, count: () => void): Promise<Completion> {
            const tokens = model.limits.tpm > 0 ? countMessageTokens(question.messages) + (model.params.maxTokens ?? DEFAULT_OUTPUT_TOKENS) : 0;
            for (let attempt = 0; ; attempt++) {
                if (!(await gate.acquire(tokens, signal))) throw new ModelError('cancelled', 'cancelled');
                count();
                try {
                    return await callOnce(question, sample);
                } catch (e) {
                    const err = e instanceof ModelError ? e : new ModelError('connection', e instanceof Error ? e.message : String(e));
                    if (signal?.aborted || !err.retryable || attempt >= model.limits.retries) throw err;
                    const delay = backoffMs(attempt + 1, retry, err.retryAfterMs);
                    if (err.kind === 'rate_limit') gate.pause(delay);
                    await sleep(delay, signal);
                    if (signal?.aborted) throw err;
                }
            }
        }

        async function callOnce(question: Question, sample: number): Promise<Completion> {
            const request = { messages: question.messages, params: model.params, question, sample };
            if (!client.cacheable) return client.complete(request, signal);
            // The per-request timeout, on top of the caller's cancellation (one controller and timer per call:
            // cheaper than AbortSignal.any, and nothing stays attached to the run's signal afterwards).
            const controller = new AbortController();
            let timedOut = false;
            const timer = setTimeout(() => { timedOut = true; controller.abort(); }, model.limits.timeoutMs);
            const cancel = () => controller.abort();
            signal?.addEventListener('abort', cancel, { once: true });
            try {
                return await client.complete(request, controller.signal);
            } catch (e) {
                if (!signal?.aborted && timedOut) throw new ModelError('timeout', `no answer within ${model.limits.timeoutMs} ms`);
                throw e;
            } finally {
                clearTimeout(timer);
                signal?.removeEventListener('abort', cancel);
            }
        }

        await Promise.all(Array.from({ length: Math.min(model.limits.concurrency, Math.max(1, todo.length)) }, worker));
    }
}

