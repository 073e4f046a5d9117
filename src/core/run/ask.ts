/**
 * One model's pool of workers: each takes a pending slot, asks it (through the pacing gate, with the per-request
 * timeout and retries), commits the answer or the failure, and reports progress. A model that cannot be reached
 * is given up after a few tries in a row, before any answer.
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
import { cacheRecord, type PendingSlot, type RunModel } from './pending.js';
import type { AnswerEvent, Progress } from './progress.js';
import type { RunWrites } from './writes.js';

/** A model that cannot be reached this many times in a row, before any answer, is given up (its slots stay to resume). */
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

export async function askModel(ctx: AskContext, rm: RunModel, queue: SlotQueue): Promise<void> {
    const { store, runId, signal, retry, progress, emit } = ctx;
    const { model, client } = rm;
    // Local answers (replay, offline) have no endpoint to learn limits from.
    const pacer = new Pacer({ concurrency: model.limits.concurrency, rpm: model.limits.rpm, tpm: model.limits.tpm, learn: client.cacheable && model.limits.pacing !== 'fixed' });
    (progress.pacing ??= {})[model.name] = pacer.stats;
    const inflight = new Map<string, Promise<Completion>>();
    // An endpoint echoing the key back (in any of its encodings) must not get it into the store.
    const scrub = keyScrubber(rm.secret);
    let unreachableInARow = 0, answeredHere = 0, givenUp = false;
    const { writes } = ctx;
    const worker = async () => {
        for (let slot = await queue.take(); slot && !signal?.aborted && !givenUp && !writes.failed; slot = await queue.take()) {
            // A shared run's chunk taken by another worker (this one's lease lapsed): its slots are that worker's now.
            if (slot.chunk?.lost) continue;
            await ask(slot);
            // A chunk is settled only once its answers are stored: one held in memory (a refused write) is not.
            if (!signal?.aborted && !writes.failed) slot.chunk?.settled();
        }
    };

    async function ask({ question, sample, hash: known }: PendingSlot): Promise<void> {
        const params = answerParams(model.params, sample);
        const slot = { run: runId, question: question.id, model: model.name, sample };
        const hash = known ?? (client.cacheable ? requestHash(model.endpoint, model.id, params, question.messages) : '');
        const hit = client.cacheable ? await store.cached(hash) : undefined;
        if (hit) {
            await writes.answer(cacheRecord(runId, rm, question, sample, hash, hit), question);
            progress.answered++; progress.done++; progress.cached++;
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
                const call = callWithRetries(question, sample, () => attempts++);
                if (client.cacheable) inflight.set(hash, call);
                try { completion = await call; } finally { inflight.delete(hash); }
            }
            const text = scrub(completion.text);
            if (text !== completion.text) completion = { ...completion, text };
            const cost = same ? 0 : costOf(rm.price, completion.tokens);
            // Paid for: written now, or held until the store takes writes again (writes.ts).
            await writes.answer({
                ...slot, hash, params, text: completion.text, tokensIn: same ? 0 : completion.tokens.input, tokensOut: same ? 0 : completion.tokens.output,
                latencyMs: completion.latencyMs, cost, attempts, finishReason: completion.finishReason, cached: Boolean(same), cacheable: client.cacheable,
            }, question);
            progress.answered++; progress.done++;
            answeredHere++; unreachableInARow = 0;
            if (same) progress.cached++;
            else { progress.tokensIn += completion.tokens.input; progress.tokensOut += completion.tokens.output; progress.cost += cost; }
            ctx.onAnswer?.({ question, model: model.name, sample, text: completion.text, cached: Boolean(same) });
        } catch (e) {
            // Cancelled, or stopped by a failed write before the call: nothing is recorded, so a resume asks this slot again.
            if (signal?.aborted || (e instanceof ModelError && e.kind === 'cancelled')) return;
            const err = e instanceof ModelError ? e : new ModelError('connection', e instanceof Error ? e.message : String(e));
            const error = redact(`${err.kind}: ${err.message}`, rm.secret ? [rm.secret] : []);
            await writes.unanswered({ ...slot, hash, params, attempts, error, latencyMs: performance.now() - t0 });
            progress.failed++; progress.done++;
            ctx.onAnswer?.({ question, model: model.name, sample, error });
            // The server is not there: stop asking it rather than failing every question the same way.
            if (err.kind === 'connection' && answeredHere === 0 && ++unreachableInARow >= UNREACHABLE_AFTER && !givenUp) { givenUp = true; ctx.onUnreachable(); queue.close(true); }
        }
        emit();
    }

    async function callWithRetries(question: Question, sample: number, count: () => void): Promise<Completion> {
        const estimate = countMessageTokens(question.messages) + (model.params.maxTokens ?? DEFAULT_OUTPUT_TOKENS);
        for (let attempt = 0; ; attempt++) {
            // A write failed while this slot waited (or before a retry): no new call.
            if (writes.failed) throw new ModelError('cancelled', 'the store stopped taking writes');
            const ticket = await pacer.acquire(estimate, signal);
            if (!ticket) throw new ModelError('cancelled', 'cancelled');
            if (writes.failed) { pacer.done(ticket, {}); throw new ModelError('cancelled', 'the store stopped taking writes'); }
            count();
            try {
                const completion = await callOnce(question, sample);
                pacer.done(ticket, { rateLimits: completion.rateLimits, tokens: completion.tokens.input + completion.tokens.output });
                return completion;
            } catch (e) {
                const err = e instanceof ModelError ? e : new ModelError('connection', e instanceof Error ? e.message : String(e));
                pacer.done(ticket, { rateLimits: err.rateLimits, rateLimited: err.kind === 'rate_limit' });
                if (signal?.aborted || givenUp || writes.failed || !err.retryable || attempt >= model.limits.retries) throw err;
                const delay = backoffMs(attempt + 1, retry, err.retryAfterMs);
                if (err.kind === 'rate_limit') pacer.pause(delay);
                await sleep(delay, signal);
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
