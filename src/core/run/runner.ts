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
import { keyScrubber, redact } from '../models/secrets.js';
import { slotKey, type AnswerRecord, type CacheEntry, type RunStatus, type Store } from '../store/index.js';
import { answerParams, requestHash } from './hash.js';
import { Gate, sleep } from './limiter.js';
import { backoffMs, DEFAULT_RETRY, type RetryPolicy } from './retry.js';
import { SlotQueue } from './queue.js';

export interface RunModel {
    model: ResolvedModel;
    client: ModelClient;
    price?: Price;
    /** Key text to scrub from any error stored or shown (belt and braces: clients already redact). */
    secret?: string;
}

export interface Progress {
    /** Slots in the run: questions × models × samples (so far, while `generating`). */
    total: number;
    /** The questions are still being generated: `total` grows until this is false. */
    generating: boolean;
    /** Questions generated (or read back) so far. */
    questions: number;
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
    /** The questions to ask, all known up front … */
    questions?: readonly Question[];
    /** … or in batches as they are generated (`questionBatches`): asking starts with the first batch. */
    batches?: Iterable<Question[]>;
    /** How many questions the batches hold, when known before they end (for the progress total). */
    questionCount?: number;
    models: RunModel[];
    signal?: AbortSignal;
    onProgress?: (p: Progress) => void;
    onAnswer?: (e: AnswerEvent) => void;
    retry?: RetryPolicy;
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

/** The progress of a run whose questions are being generated before anything is asked (the estimate's pass). */
export function generatingProgress(questions: number): Progress {
    return { total: 0, generating: true, questions, done: 0, answered: 0, cached: 0, failed: 0, resumed: 0, tokensIn: 0, tokensOut: 0, cost: 0, rate: 0, elapsedMs: 0 };
}

/** Questions per batch when a list is asked (generated questions come in the feed's batches). */
const BATCH = 256;
/** A model that cannot be reached this many times in a row, before any answer, is given up (its slots stay to resume). */
export const UNREACHABLE_AFTER = 3;

function* inBatches(questions: readonly Question[]): Generator<Question[]> {
    for (let i = 0; i < questions.length; i += BATCH) yield questions.slice(i, i + BATCH);
}

export async function executeRun(opts: RunOptions): Promise<RunOutcome> {
    const { store, runId, models, signal } = opts;
    const retry = opts.retry ?? DEFAULT_RETRY;
    const started = performance.now();
    const answered = store.answered(runId);
    const perQuestion = models.reduce((n, m) => n + m.model.samples, 0);
    const known = opts.questions?.length ?? opts.questionCount;
    const progress: Progress = {
        total: (known ?? 0) * perQuestion, generating: known === undefined, questions: 0,
        done: 0, answered: 0, cached: 0, failed: 0, resumed: 0, tokensIn: 0, tokensOut: 0, cost: 0, rate: 0, elapsedMs: 0,
    };
    const emit = () => {
        progress.elapsedMs = performance.now() - started;
        progress.rate = progress.elapsedMs > 0 ? ((progress.answered - progress.resumed) * 1000) / progress.elapsedMs : 0;
        opts.onProgress?.(progress);
    };
    const pools = models.map(m => ({ m, queue: new SlotQueue<PendingSlot>() }));
    // Cancelling wakes every waiting worker and the producer, and forgets the slots not asked yet.
    const stop = () => { for (const p of pools) p.queue.close(true); };
    signal?.addEventListener('abort', stop, { once: true });
    emit();

    let unreachable = 0;
    try {
        await Promise.all([produce(), ...pools.map(({ m, queue }) => runModel(m, queue))]);
    } finally {
        signal?.removeEventListener('abort', stop);
    }
    // A run is completed only when every model could be asked and something was answered.
    const status: RunStatus = signal?.aborted ? 'cancelled'
        : unreachable > 0 || (progress.answered === 0 && progress.failed > 0) ? 'failed' : 'completed';
    store.setStatus(runId, status);
    emit();
    return { status, progress: { ...progress } };

    /**
     * Reads the questions batch by batch (generating and storing them, when they come from the feed), hands each
     * model the slots it has not answered, and waits while any model has a few batches waiting: generation runs
     * only as far ahead of the asking as that, so memory does not grow with the number of questions.
     */
    async function produce(): Promise<void> {
        const room = Math.max(2 * BATCH, ...models.map(m => 4 * m.model.limits.concurrency));
        try {
            for (const batch of opts.batches ?? inBatches(opts.questions ?? [])) {
                // Cancelled, or every model given up: nobody is left to ask.
                if (signal?.aborted || pools.every(p => p.queue.isClosed)) return;
                progress.questions += batch.length;
                if (progress.generating) progress.total = progress.questions * perQuestion;
                for (const { m, queue } of pools) {
                    const slots = pendingSlots(store, runId, batch, m, answered);
                    const before = batch.length * m.model.samples - slots.length;
                    progress.resumed += before; progress.answered += before; progress.done += before;
                    queue.push(m.client.cacheable ? serveFromCache(m, slots) : slots);
                }
                emit();
                for (const { queue } of pools) await queue.room(room);
                // Let the workers send, and cancellation and progress drawing in, between batches.
                await new Promise(resolve => setImmediate(resolve));
            }
            if (signal?.aborted) return;
            progress.generating = false;
            progress.total = progress.questions * perQuestion;
            emit();
        } finally {
            for (const { queue } of pools) queue.close();
        }
    }

    /**
     * Answers what the cache already holds in one transaction per batch (these answers are durable in the cache
     * already, so a crash mid-batch loses nothing), and returns the slots left to ask.
     */
    function serveFromCache(rm: RunModel, slots: PendingSlot[]): PendingSlot[] {
        const left: PendingSlot[] = [];
        const hits: { slot: PendingSlot; record: AnswerRecord }[] = [];
        for (const s of slots) {
            s.hash ??= requestHash(rm.model.endpoint, rm.model.id, answerParams(rm.model.params, s.sample), s.question.messages);
            const hit = s.hit === undefined ? store.cached(s.hash) : s.hit;
            if (!hit) { left.push(s); continue; }
            hits.push({ slot: s, record: cacheRecord(rm, s.question, s.sample, s.hash, hit) });
        }
        if (hits.length) {
            store.recordAnswers(hits.map(h => h.record));
            progress.answered += hits.length; progress.done += hits.length; progress.cached += hits.length;
            for (const h of hits) opts.onAnswer?.({ question: h.slot.question, model: rm.model.name, sample: h.slot.sample, text: h.record.text, cached: true });
        }
        return left;
    }

    /** The answer record of a slot served from the cache (nothing was called, nothing paid). */
    function cacheRecord({ model }: RunModel, question: Question, sample: number, hash: string, hit: CacheEntry): AnswerRecord {
        return {
            run: runId, question: question.id, model: model.name, sample, hash, params: answerParams(model.params, sample), text: hit.text,
            tokensIn: hit.tokensIn, tokensOut: hit.tokensOut, latencyMs: 0, cost: 0, attempts: 0, finishReason: hit.finishReason, cached: true, cacheable: false,
        };
    }

    async function runModel(rm: RunModel, queue: SlotQueue<PendingSlot>): Promise<void> {
        const { model, client } = rm;
        const gate = new Gate(model.limits.rpm, model.limits.tpm);
        const inflight = new Map<string, Promise<Completion>>();
        // An endpoint echoing the key back (in any of its encodings) must not get it into the store.
        const scrub = keyScrubber(rm.secret);
        let unreachableInARow = 0, answeredHere = 0, givenUp = false;
        const worker = async () => {
            for (let slot = await queue.take(); slot && !signal?.aborted && !givenUp; slot = await queue.take()) await ask(slot);
        };

        async function ask({ question, sample, hash: known }: PendingSlot): Promise<void> {
            const params = answerParams(model.params, sample);
            const slot = { run: runId, question: question.id, model: model.name, sample };
            const hash = known ?? (client.cacheable ? requestHash(model.endpoint, model.id, params, question.messages) : '');
            const hit = client.cacheable ? store.cached(hash) : undefined;
            if (hit) {
                store.recordAnswer(cacheRecord(rm, question, sample, hash, hit));
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
                const text = scrub(completion.text);
                if (text !== completion.text) completion = { ...completion, text };
                const cost = same ? 0 : costOf(rm.price, completion.tokens);
                store.recordAnswer({
                    ...slot, hash, params, text: completion.text, tokensIn: same ? 0 : completion.tokens.input, tokensOut: same ? 0 : completion.tokens.output,
                    latencyMs: completion.latencyMs, cost, attempts, finishReason: completion.finishReason, cached: Boolean(same), cacheable: client.cacheable,
                });
                progress.answered++; progress.done++;
                answeredHere++; unreachableInARow = 0;
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
                // The server is not there: stop asking it rather than failing every question the same way.
                if (err.kind === 'connection' && answeredHere === 0 && ++unreachableInARow >= UNREACHABLE_AFTER && !givenUp) { givenUp = true; unreachable++; queue.close(true); }
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
                    if (signal?.aborted || givenUp || !err.retryable || attempt >= model.limits.retries) throw err;
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

        await Promise.all(Array.from({ length: Math.max(1, model.limits.concurrency) }, worker));
    }
}

