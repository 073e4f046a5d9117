/**
 * A batch run: the run's pending slots go to the provider's Batch API instead of being asked one by one. Cache
 * hits are answered first, as in any run; the rest are sent in chunks (within the provider's request and file
 * limits), each stored with its slots before it is created, so a run closed, killed or resumed on another day
 * finds its batches again and collects them instead of paying for a slot twice. A request that fails or expires
 * is sent once more in a later batch, then recorded as failed. Progress carries every batch's state.
 */
import { randomBytes } from 'node:crypto';
import type { Question } from '../probes/question.js';
import type { ModelDecl } from '../spec/model.js';
import { resolveModel } from '../models/providers.js';
import { costOf } from '../models/cost.js';
import { keyScrubber, redact } from '../models/secrets.js';
import {
    BATCH_MAX_BYTES,
    BATCH_MAX_REQUESTS,
    BATCH_PRICE_SHARE,
    BATCH_PROVIDERS,
    batchApiFor,
    TERMINAL,
    type BatchState,
    type OpenAIBatchApi,
} from '../models/openai-batch.js';
import type { BatchRecord, BatchSlot, RunStatus } from '../store/index.js';
import { slotKey } from '../store/index.js';
import { answerParams, requestHash } from './hash.js';
import { sleep } from './limiter.js';
import { cacheRecord, pendingSlots, type PendingSlot, type RunModel } from './pending.js';
import { generatingProgress, type Progress } from './progress.js';
import type { RunOptions, RunOutcome } from './runner.js';
import { problem, type Problem } from '../errors.js';

/** A request is sent in at most this many batches (the first, and one resubmission). */
const BATCH_ATTEMPTS = 2;

export interface BatchOptions {
    /** Between two looks at the open batches (default HALLUPROBE_BATCH_POLL_MS or 30 s). */
    pollMs?: number;
    /** Requests per batch, at most the provider's 50,000. */
    maxRequests?: number;
}

/** An endpoint as a message names it: its origin and path, never a user or password in it. */
function endpointName(endpoint: string): string {
    try {
        const u = new URL(endpoint);
        return `${u.origin}${u.pathname.replace(/\/$/, '')}`;
    } catch {
        return 'another endpoint';
    }
}

/** A batch as progress shows it. */
/** The models that cannot be run as a batch (code `no-batch`), naming the providers that can; undefined when all can. */
export function batchProblem(models: readonly RunModel[]): Problem | undefined {
    const without = models.filter(m => !BATCH_PROVIDERS.includes(m.model.provider));
    if (without.length === 0) return undefined;
    return problem(
        'no-batch',
        `${without.map(m => `model ${m.model.name} (provider ${m.model.provider})`).join(', ')}: no Batch API; batch runs work with ${BATCH_PROVIDERS.join(', ')}.`,
        'Run without --batch (or batch false).',
    );
}

/** Whether these declared models can be run as a batch (what a face offers in its run picker). */
export function batchable(models: readonly ModelDecl[]): boolean {
    return models.length > 0 && models.every(decl => BATCH_PROVIDERS.includes(resolveModel(decl).model?.provider ?? ''));
}

export async function executeBatchRun(opts: RunOptions & { batch?: BatchOptions }): Promise<RunOutcome> {
    const { store, runId, models, signal } = opts;
    const pollMs = opts.batch?.pollMs ?? Number(process.env.HALLUPROBE_BATCH_POLL_MS ?? 30_000);
    const maxRequests = Math.min(BATCH_MAX_REQUESTS, opts.batch?.maxRequests ?? BATCH_MAX_REQUESTS);
    const started = performance.now();
    const questions: Question[] = [...(opts.questions ?? [])];
    for await (const batch of opts.batches ?? []) questions.push(...batch);
    const byId = new Map(questions.map(q => [q.id, q]));
    const perQuestion = models.reduce((n, m) => n + m.model.samples, 0);
    const progress: Progress = {
        ...generatingProgress(questions.length),
        total: questions.length * perQuestion,
        generating: false,
        batches: [],
    };
    const asked = new Set(models.map(m => m.model.name));
    const emit = async () => {
        progress.elapsedMs = performance.now() - started;
        progress.rate = progress.elapsedMs > 0 ? ((progress.answered - progress.resumed) * 1000) / progress.elapsedMs : 0;
        progress.batches = (await store.batches.batches(runId))
            .filter(b => asked.has(b.model))
            .map(b => ({
                model: b.model,
                id: b.id ?? b.local,
                status: b.status,
                requests: b.requests,
                done: b.done,
                failed: b.failed,
            }));
        opts.onProgress?.(progress);
    };
    const answered = await store.answered(runId);
    progress.resumed = progress.answered = progress.done = answered.size;
    const apis = new Map(models.map(m => [m.model.name, batchApiFor(m.model, m.secret ?? '')!]));

    try {
        for (;;) {
            let open = 0;
            for (const rm of models) {
                const api = apis.get(rm.model.name)!;
                await collect(rm, api);
                if (signal?.aborted) break;
                await submit(rm, api);
                open += (await store.batches.batches(runId, rm.model.name)).filter(b => !b.collected).length;
            }
            await emit();
            if (open === 0 || signal?.aborted) break;
            await sleep(pollMs, signal);
            if (signal?.aborted) break;
        }
    } catch (e) {
        // The provider refused (a bad key, no such model…): the run stops, resumable; its stored batches stay.
        await store.setStatus(runId, 'failed');
        throw e;
    }
    const status: RunStatus = signal?.aborted
        ? 'cancelled'
        : progress.answered === 0 && progress.failed > 0
          ? 'failed'
          : 'completed';
    await store.setStatus(runId, status);
    await emit();
    return { status, progress: { ...progress } };

    /** Looks at every open batch of the model; reads the answers of those that ended. */
    async function collect(rm: RunModel, api: OpenAIBatchApi): Promise<void> {
        for (const b of await store.batches.batches(runId, rm.model.name)) {
            if (b.collected || signal?.aborted) continue;
            if (b.endpoint !== null && b.endpoint !== rm.model.endpoint) {
                // Submitted to another endpoint than the model's now: never asked about here (its id means nothing to
                // this one, and the key is not sent back to an endpoint the spec no longer names). A failed batch: its
                // requests are sent again here.
                await close(
                    rm,
                    b,
                    new Set(),
                    `the batch was submitted to ${endpointName(b.endpoint)}, and the model's endpoint is now ${endpointName(rm.model.endpoint)}: it is polled only where it was submitted`,
                );
                continue;
            }
            let s: BatchState | undefined;
            if (b.id === null) {
                // Stored, then killed before (or right after) creating it: adopt the one the provider has, or create it now.
                s = (await api.find(b.local)) ?? (await api.create(b.inputFile, b.local));
            } else {
                s = await api.retrieve(b.id);
            }
            await store.batches.updateBatch(b.local, {
                id: s.id,
                status: s.status,
                outputFile: s.outputFile,
                errorFile: s.errorFile,
                done: s.done,
                failed: s.failed,
            });
            if (TERMINAL.has(s.status)) await read(rm, api, b, s);
        }
    }

    /** Records a finished batch's answers; its failed, expired or missing requests go back to pending (once). */
    async function read(rm: RunModel, api: OpenAIBatchApi, b: BatchRecord, s: BatchState): Promise<void> {
        const slots = new Map((await store.batches.batchSlots(b.local)).map(x => [x.customId, x]));
        const scrub = keyScrubber(rm.secret);
        const seen = new Set<string>();
        // Line by line as the files arrive: each answer is stored as it is read, an unreadable line fails only its request.
        for (const file of [s.outputFile, s.errorFile]) {
            if (!file) continue;
            for await (const r of api.results(file)) {
                const slot = slots.get(r.customId);
                if (!slot || seen.has(r.customId)) continue;
                seen.add(r.customId);
                if ('completion' in r)
                    await answer(rm, slot, {
                        ...r.completion,
                        text: scrub(r.completion.text),
                        finishReason: scrub(r.completion.finishReason),
                    });
                else await fail(rm, slot, r.error);
            }
        }
        const why =
            s.status === 'completed'
                ? 'no result for this request'
                : `the batch ${s.status}${s.errors.length ? ` (${s.errors.join('; ')})` : ''}`;
        await close(rm, b, seen, why, slots);
    }

    /** Collected: its requests without a result (not `seen`) fail for `why`, and are sent again while they have an attempt left. */
    async function close(
        rm: RunModel,
        b: BatchRecord,
        seen: ReadonlySet<string>,
        why: string,
        slots?: Map<string, BatchSlot>,
    ): Promise<void> {
        for (const slot of (slots ?? new Map((await store.batches.batchSlots(b.local)).map(x => [x.customId, x]))).values())
            if (!seen.has(slot.customId)) await fail(rm, slot, why);
        await store.batches.markCollected(b.local);
    }

    /** What an answer and a failure of a slot both record: the run, the question, the model, the sample and the request. */
    function slotRecord(rm: RunModel, slot: BatchSlot) {
        const params = answerParams(rm.model.params, slot.sample);
        return { run: runId, question: slot.question, model: rm.model.name, sample: slot.sample, hash: slot.hash, params };
    }

    async function answer(
        rm: RunModel,
        slot: BatchSlot,
        c: { text: string; tokens: { input: number; output: number }; finishReason: string },
    ): Promise<void> {
        const key = slotKey(slot.question, rm.model.name, slot.sample);
        if (answered.has(key)) return;
        const cost = costOf(rm.price, c.tokens) * BATCH_PRICE_SHARE;
        await store.recordAnswer({
            ...slotRecord(rm, slot),
            text: c.text,
            tokensIn: c.tokens.input,
            tokensOut: c.tokens.output,
            latencyMs: 0,
            cost,
            attempts: slot.attempt,
            finishReason: c.finishReason,
            cached: false,
            cacheable: true,
        });
        answered.add(key);
        progress.answered++;
        progress.done++;
        progress.tokensIn += c.tokens.input;
        progress.tokensOut += c.tokens.output;
        progress.cost += cost;
        const q = byId.get(slot.question);
        if (q) opts.onAnswer?.({ question: q, model: rm.model.name, sample: slot.sample, text: c.text });
    }

    /** A request without an answer: sent again in the next batch unless this was its last attempt. */
    async function fail(rm: RunModel, slot: BatchSlot, error: string): Promise<void> {
        if (answered.has(slotKey(slot.question, rm.model.name, slot.sample)) || slot.attempt < BATCH_ATTEMPTS) return;
        const message = redact(`batch: ${error}`, rm.secret ? [rm.secret] : []);
        await store.recordFailure({
            ...slotRecord(rm, slot),
            attempts: slot.attempt,
            error: message,
            latencyMs: 0,
        });
        progress.failed++;
        progress.done++;
        const q = byId.get(slot.question);
        if (q) opts.onAnswer?.({ question: q, model: rm.model.name, sample: slot.sample, error: message });
    }

    /** Answers cache hits, then sends the slots that are in no open batch and have an attempt left. */
    async function submit(rm: RunModel, api: OpenAIBatchApi): Promise<void> {
        const sent = await store.batches.batchAttempts(runId, rm.model.name);
        const todo: (PendingSlot & { attempt: number })[] = [];
        const hits = [];
        for (const s of await pendingSlots(store, runId, questions, rm, answered)) {
            s.hash ??= requestHash(rm.model.endpoint, rm.model.id, answerParams(rm.model.params, s.sample), s.question.messages);
            if (s.hit) {
                hits.push(cacheRecord(runId, rm, s.question, s.sample, s.hash, s.hit));
                continue;
            }
            const before = sent.get(slotKey(s.question.id, rm.model.name, s.sample));
            if (before?.open || (before?.attempts ?? 0) >= BATCH_ATTEMPTS) continue;
            todo.push({ ...s, attempt: (before?.attempts ?? 0) + 1 });
        }
        if (hits.length) {
            await store.recordAnswers(hits);
            for (const h of hits) answered.add(slotKey(h.question, h.model, h.sample));
            progress.answered += hits.length;
            progress.done += hits.length;
            progress.cached += hits.length;
        }
        let chunk: { line: string; slot: BatchSlot }[] = [];
        let bytes = 0;
        const send = async () => {
            if (chunk.length === 0) return;
            const local = `hp-${runId}-${randomBytes(4).toString('hex')}`;
            const inputFile = await api.upload(`${chunk.map(c => c.line).join('\n')}\n`, `${local}.jsonl`);
            // Stored before it is created: a run killed from here on finds this batch again (by `local`).
            await store.batches.addBatch(
                { local, run: runId, model: rm.model.name, inputFile, endpoint: rm.model.endpoint },
                chunk.map(c => c.slot),
            );
            const s = await api.create(inputFile, local);
            await store.batches.updateBatch(local, { id: s.id, status: s.status });
            chunk = [];
            bytes = 0;
        };
        for (const [i, s] of todo.entries()) {
            if (signal?.aborted) return;
            const customId = `${s.attempt}-${i}`;
            const line = api.line(customId, {
                messages: s.question.messages,
                params: rm.model.params,
                question: s.question,
                sample: s.sample,
            });
            if (chunk.length >= maxRequests || bytes + line.length + 1 > BATCH_MAX_BYTES) await send();
            chunk.push({
                line,
                slot: { customId, question: s.question.id, sample: s.sample, hash: s.hash!, attempt: s.attempt },
            });
            bytes += line.length + 1;
        }
        await send();
    }
}
