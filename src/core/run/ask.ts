/**
 * One model's pool of workers: each takes a pending slot, asks it (through the pacing gate, with the per-request
 * timeout and retries), commits the answer or the failure, and reports progress. Until the endpoint has answered
 * once, its calls go one at a time; three connection failures (or 404s: an unknown model id) in a row before any
 * answer give it up — three calls, however many workers and retries.
 */
import type { Question } from '../probes/question.js';
import { costOf, countMessageTokens, DEFAULT_OUTPUT_TOKENS } from '../models/cost.js';
import { ModelError, type Completion } from '../models/types.js';
import { keyScrubber, redact } from '../models/secrets.js';
import type { Store } from '../store/index.js';
import { answerParams, requestHash } from './hash.js';
import { sleep } from './limiter.js';
import { Pacer } from './pacing.js';
import { backoffMs, type RetryPolicy } from './retry.js';
import type { SlotQueue } from './queue.js';
import { cacheRecord, type PendingSlot, type RunModel, type SlotChunk } from './pending.js';
import type { AnswerEvent, Progress } from './progress.js';
import type { RunWrites } from './writes.js';

/** A model whose calls fail to connect this many times in a row, before any answer, is given up (its slots stay to resume). */
export const UNREACHABLE_AFTER = 3;

/** What the pool shares with the run. */
export interface AskContext {
    store: Store;
    runId: string;
    signal?: AbortSignal;
    retry: RetryPolicy;
    progress: Progress;
    emit: () => void;
    onAnswer?: (e: AnswerEvent) => void;
    /** The model was given up as unreachable. */
    onUnreachable: () => void;
    /** The run's store writes: once one failed, no new call is made (writes.ts). */
    writes: RunWrites;
}

/**
 * Every model's pool asked while `produce` fills the queues (a run of one process, or a worker of a shared run);
 * resolves, when all are done, with how many models were given up as unreachable.
 */
export async function askModels(
    ctx: Omit<AskContext, 'onUnreachable'>,
    pools: readonly { m: RunModel; queue: SlotQueue }[],
    produce: () => Promise<void>,
): Promise<number> {
    let unreachable = 0;
    const onUnreachable = () => unreachable++;
    await Promise.all([produce(), ...pools.map(({ m, queue }) => askModel({ ...ctx, onUnreachable }, m, queue))]);
    return unreachable;
}

async function askModel(ctx: AskContext, rm: RunModel, queue: SlotQueue): Promise<void> {
    const { store, runId, signal, retry, progress, emit } = ctx;
    const { model, client } = rm;
    // Local answers (replay, offline) have no endpoint to learn limits from.
    // A wait on the endpoint (a 429's Retry-After, its rate-limit window) is said on the progress line as it starts.
    const pacer = new Pacer({
        concurrency: model.limits.concurrency,
        rpm: model.limits.rpm,
        tpm: model.limits.tpm,
        learn: client.cacheable && model.limits.pacing !== 'fixed',
        onWait: emit,
    });
    (progress.pacing ??= {})[model.name] = pacer.stats;
    const inflight = new Map<string, Promise<Completion>>();
    // An endpoint echoing the key back (in any of its encodings) must not get it into the store.
    const scrub = keyScrubber(rm.secret);
    let unreachableInARow = 0,
        givenUp = false;
    const { writes } = ctx;
    // Until the endpoint has answered, one call at a time: a server that is not there is found out with three calls,
    // not three per worker (each with its own retries).
    let reached = false;
    let turn: Promise<void> = Promise.resolve();
    const firstContact = async <T>(call: () => Promise<T>): Promise<T> => {
        if (reached || !client.cacheable) return call();
        const before = turn;
        let done!: () => void;
        turn = new Promise(r => {
            done = r;
        });
        try {
            await before;
            // Given up while this call waited its turn: it is not made, and its slot stays to resume.
            if (givenUp) throw new ModelError('cancelled', 'the model was given up as unreachable');
            // Reached meanwhile: the calls that waited go together, at the model's concurrency.
            if (reached) done();
            return await call();
        } catch (e) {
            // Counted before the next call gets its turn, so that the third failure is the last call.
            // A 404 before any answer (an unknown model id, a wrong path) fails every question the same way: given up alike.
            if (
                !reached &&
                !givenUp &&
                (!(e instanceof ModelError) || e.kind === 'connection' || e.kind === 'not_found') &&
                ++unreachableInARow >= UNREACHABLE_AFTER
            ) {
                givenUp = true;
                ctx.onUnreachable();
                queue.close(true);
            }
            throw e;
        } finally {
            done();
        }
    };
    const worker = async () => {
        for (let slot = await queue.take(); slot && !signal?.aborted && !givenUp && !writes.failed; slot = await queue.take()) {
            // A shared run's chunk taken by another worker (this one's lease lapsed): its slots are that worker's now.
            if (slot.chunk?.lost) continue;
            await ask(slot);
            // A chunk is settled only once its answers are stored: one held in memory (a refused write) is not.
            if (!signal?.aborted && !writes.failed) slot.chunk?.settled();
        }
    };

    async function ask({ question, sample, hash: known, chunk }: PendingSlot): Promise<void> {
        const params = answerParams(model.params, sample);
        const slot = { run: runId, question: question.id, model: model.name, sample };
        const hash = known ?? (client.cacheable ? requestHash(model.endpoint, model.id, params, question.messages) : '');
        let hit;
        try {
            hit = client.cacheable ? await store.cached(hash) : undefined;
        } catch (e) {
            // The store cannot be read either (its server stayed away): stop as for a refused write; nothing was asked.
            writes.fail(e);
            return;
        }
        if (hit) {
            await writes.answer(cacheRecord(runId, rm, question, sample, hash, hit), question);
            progress.answered++;
            progress.done++;
            progress.cached++;
            ctx.onAnswer?.({ question, model: model.name, sample, text: hit.text, cached: true });
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
                const call = callWithRetries(question, sample, () => attempts++, chunk);
                if (client.cacheable) inflight.set(hash, call);
                try {
                    completion = await call;
                } finally {
                    inflight.delete(hash);
                }
            }
            const text = scrub(completion.text);
            if (text !== completion.text) completion = { ...completion, text };
            const cost = same ? 0 : costOf(rm.price, completion.tokens);
            // Paid for: written now, or held until the store takes writes again (writes.ts).
            await writes.answer(
                {
                    ...slot,
                    hash,
                    params,
                    text: completion.text,
                    tokensIn: same ? 0 : completion.tokens.input,
                    tokensOut: same ? 0 : completion.tokens.output,
                    latencyMs: completion.latencyMs,
                    cost,
                    attempts,
                    finishReason: completion.finishReason,
                    cached: Boolean(same),
                    cacheable: client.cacheable,
                },
                question,
            );
            progress.answered++;
            progress.done++;
            unreachableInARow = 0;
            if (same) progress.cached++;
            else {
                progress.tokensIn += completion.tokens.input;
                progress.tokensOut += completion.tokens.output;
                progress.cost += cost;
            }
            ctx.onAnswer?.({ question, model: model.name, sample, text: completion.text, cached: Boolean(same) });
        } catch (e) {
            // Cancelled, or never asked (the model was given up, or a write failed first): nothing is recorded, so a resume asks it again.
            // Nor when its shared-run chunk went to another worker before a retry: that worker asks it.
            if (
                signal?.aborted ||
                (e instanceof ModelError && e.kind === 'cancelled' && (givenUp || writes.failed || chunk?.lost))
            )
                return;
            const err = e instanceof ModelError ? e : new ModelError('connection', e instanceof Error ? e.message : String(e));
            const error = redact(`${err.kind}: ${err.message}`, rm.secret ? [rm.secret] : []);
            await writes.unanswered({ ...slot, hash, params, attempts, error, latencyMs: performance.now() - t0 });
            progress.failed++;
            progress.done++;
            ctx.onAnswer?.({ question, model: model.name, sample, error });
        }
        emit();
    }

    async function callWithRetries(
        question: Question,
        sample: number,
        count: () => void,
        chunk?: SlotChunk,
    ): Promise<Completion> {
        const estimate = countMessageTokens(question.messages) + (model.params.maxTokens ?? DEFAULT_OUTPUT_TOKENS);
        let last: ModelError | undefined;
        for (let attempt = 0; ; attempt++) {
            // A write failed while this slot waited (or before a retry): no new call.
            if (writes.failed) throw new ModelError('cancelled', 'the store stopped taking writes');
            const ticket = await pacer.acquire(estimate, signal);
            if (!ticket) throw new ModelError('cancelled', 'cancelled');
            if (writes.failed) {
                pacer.done(ticket, {});
                throw new ModelError('cancelled', 'the store stopped taking writes');
            }
            try {
                const completion = await firstContact(async () => {
                    // A shared run's chunk is checked against its claim's fencing token before every request, retries
                    // included (a worker paused past its lease must not pay for slots another worker now holds), and the
                    // request is counted in the store then.
                    if (chunk && !(await chunk.send())) throw new ModelError('cancelled', 'the chunk went to another worker');
                    count();
                    return callOnce(question, sample);
                });
                reached = true;
                unreachableInARow = 0;
                pacer.done(ticket, {
                    rateLimits: completion.rateLimits,
                    tokens: completion.tokens.input + completion.tokens.output,
                });
                return completion;
            } catch (e) {
                const err =
                    e instanceof ModelError ? e : new ModelError('connection', e instanceof Error ? e.message : String(e));
                pacer.done(ticket, { rateLimits: err.rateLimits, rateLimited: err.kind === 'rate_limit' });
                // A retry not made because the model was given up meanwhile: the question failed as its last call did.
                if (err.kind === 'cancelled' && givenUp && last) throw last;
                last = err;
                if (signal?.aborted || givenUp || writes.failed || !err.retryable || attempt >= model.limits.retries) throw err;
                const delay = backoffMs(attempt + 1, retry, err.retryAfterMs);
                // A 429 holds every worker of the model, this one included, in the pacer (which says so on the progress line).
                if (err.kind === 'rate_limit') pacer.pause(delay);
                else await sleep(delay, signal);
                if (signal?.aborted) throw err;
            }
        }
    }

    async function callOnce(question: Question, sample: number): Promise<Completion> {
        const request = { messages: question.messages, params: model.params, question, sample };
        if (!client.cacheable) return client.complete(request, signal);
        // timeout_ms is the client's: on connect and on each gap in the answer (idle-fetch.ts), never a deadline on
        // the whole call, which would abort, retry and pay again for an answer still arriving. Here only the
        // caller's cancellation (one controller per call: nothing stays attached to the run's signal afterwards).
        const controller = new AbortController();
        const cancel = () => controller.abort();
        signal?.addEventListener('abort', cancel, { once: true });
        try {
            return await client.complete(request, controller.signal);
        } finally {
            signal?.removeEventListener('abort', cancel);
        }
    }

    await Promise.all(Array.from({ length: Math.max(1, model.limits.concurrency) }, worker));
}
