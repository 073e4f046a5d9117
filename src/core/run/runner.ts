/**
 * The runner: asks every unanswered (question × model × sample) of a run, each model with its own pool of
 * workers, pacing (rpm / tpm), per-request timeout and retries; answers come from the cache when an identical
 * request was answered before (in any run). Every answer is committed before the worker awaits anything else,
 * and cancelling stops new calls at once, leaving the run resumable. A write the store refuses (a full disk)
 * stops new calls too, and the answers still arriving are held until they can be written, or named as lost (writes.ts).
 */
import type { Question } from '../probes/question.js';
import type { AnswerRecord, RunStatus, Store } from '../store/index.js';
import { answerParams, requestHash } from './hash.js';
import { DEFAULT_RETRY, type RetryPolicy } from './retry.js';
import { SlotQueue } from './queue.js';
import { askModels } from './ask.js';
import { cacheRecord, pendingSlots, type PendingSlot, type RunModel } from './pending.js';
import { runProgress, type AnswerEvent, type Progress } from './progress.js';
import { progressWrites } from './writes.js';
import { ordinaryProblem } from '../errors.js';

export { UNREACHABLE_AFTER } from './ask.js';
export { pendingSlots, type RunModel } from './pending.js';
export { generatingProgress, type AnswerEvent, type Progress } from './progress.js';

export interface RunOptions {
    store: Store;
    runId: string;
    /** The questions to ask, all known up front … */
    questions?: readonly Question[];
    /** … or in batches as they are generated (`questionBatches`): asking starts with the first batch. */
    batches?: AsyncIterable<Question[]> | Iterable<Question[]>;
    /** How many questions the batches hold, when known before they end (for the progress total). */
    questionCount?: number;
    models: RunModel[];
    signal?: AbortSignal;
    onProgress?: (p: Progress) => void;
    onAnswer?: (e: AnswerEvent) => void;
    retry?: RetryPolicy;
}

export interface RunOutcome {
    status: RunStatus;
    progress: Progress;
    /** False for a worker of a shared run that another worker finished: that one verifies the run. */
    verifies?: boolean;
}

/** Questions per batch when a list is asked (generated questions come in the feed's batches). */
const BATCH = 256;

function* inBatches(questions: readonly Question[]): Generator<Question[]> {
    for (let i = 0; i < questions.length; i += BATCH) yield questions.slice(i, i + BATCH);
}

export async function executeRun(opts: RunOptions): Promise<RunOutcome> {
    const { store, runId, models, signal } = opts;
    const retry = opts.retry ?? DEFAULT_RETRY;
    const perQuestion = models.reduce((n, m) => n + m.model.samples, 0);
    const known = opts.questions?.length ?? opts.questionCount;
    const answered = await store.answered(runId);
    // A resumed run's progress starts from what it holds (never "0/189" while 85 are done); the batches below count
    // their answered slots against this.
    const asked = new Set(models.map(m => m.model.name));
    let ahead = [...answered].filter(k => asked.has(k.split('\u0000')[1]!)).length;
    const { progress, emit } = runProgress(
        { total: (known ?? 0) * perQuestion, generating: known === undefined, done: ahead, answered: ahead, resumed: ahead },
        opts.onProgress,
    );
    const pools = models.map(m => ({ m, queue: new SlotQueue() }));
    // Cancelling wakes every waiting worker and the producer, and forgets the slots not asked yet.
    const stop = () => {
        for (const p of pools) p.queue.close(true);
    };
    signal?.addEventListener('abort', stop, { once: true });
    // A refused write stops new calls the same way; what is held is shown with the progress.
    const writes = progressWrites(store, stop, progress, emit);
    emit();

    let unreachable = 0;
    try {
        unreachable = await askModels({ ...opts, retry, progress, emit, writes }, pools, produce);
    } finally {
        signal?.removeEventListener('abort', stop);
    }
    // Every call is done: what the store refused is written now, or after a wait for space, or named as lost.
    const refused = await writes.settle(signal);
    // A run is completed only when every model could be asked and something was answered.
    const status: RunStatus = refused
        ? 'failed'
        : signal?.aborted
          ? 'cancelled'
          : unreachable > 0 || (progress.answered === 0 && progress.failed > 0)
            ? 'failed'
            : 'completed';
    try {
        await store.setStatus(runId, status);
    } catch (e) {
        // The store refused this too: the run stays resumable as it is ('running'); the error below says why.
        if (!refused || !ordinaryProblem(e)) throw e;
    }
    emit();
    if (refused) throw refused;
    return { status, progress: { ...progress } };

    /**
     * Reads the questions batch by batch (generating and storing them, when they come from the feed), hands each
     * model the slots it has not answered, and waits while any model has a few batches waiting: generation runs
     * only as far ahead of the asking as that, so memory does not grow with the number of questions.
     */
    async function produce(): Promise<void> {
        const room = Math.max(2 * BATCH, ...models.map(m => 4 * m.model.limits.concurrency));
        try {
            for await (const batch of opts.batches ?? inBatches(opts.questions ?? [])) {
                // Cancelled, a write refused, or every model given up: nobody is left to ask.
                if (signal?.aborted || writes.failed || pools.every(p => p.queue.isClosed)) return;
                progress.questions += batch.length;
                if (progress.generating) progress.total = progress.questions * perQuestion;
                for (const { m, queue } of pools) {
                    const slots = await pendingSlots(store, runId, batch, m, answered);
                    const before = batch.length * m.model.samples - slots.length;
                    const counted = Math.min(ahead, before);
                    ahead -= counted;
                    progress.resumed += before - counted;
                    progress.answered += before - counted;
                    progress.done += before - counted;
                    queue.push(m.client.cacheable ? await serveFromCache(m, slots) : slots);
                }
                emit();
                for (const { queue } of pools) await queue.room(room);
                // Let the workers send, and cancellation and progress drawing in, between batches.
                await new Promise(resolve => setImmediate(resolve));
            }
            if (signal?.aborted || writes.failed) return;
            progress.generating = false;
            progress.total = progress.questions * perQuestion;
            emit();
        } catch (e) {
            // Storing the generated questions failed (a full disk): stop as for an answer; other errors are bugs.
            writes.fail(e);
        } finally {
            for (const { queue } of pools) queue.close();
        }
    }

    /**
     * Answers what the cache already holds in one transaction per batch (these answers are durable in the cache
     * already, so a crash mid-batch loses nothing), and returns the slots left to ask.
     */
    async function serveFromCache(rm: RunModel, slots: PendingSlot[]): Promise<PendingSlot[]> {
        const left: PendingSlot[] = [];
        const hits: { slot: PendingSlot; record: AnswerRecord }[] = [];
        for (const s of slots) {
            s.hash ??= requestHash(rm.model.endpoint, rm.model.id, answerParams(rm.model.params, s.sample), s.question.messages);
            const hit = s.hit === undefined ? await store.cached(s.hash) : s.hit;
            if (!hit) {
                left.push(s);
                continue;
            }
            hits.push({ slot: s, record: cacheRecord(runId, rm, s.question, s.sample, s.hash, hit) });
        }
        if (hits.length) {
            await writes.cachedAnswers(hits.map(h => h.record));
            progress.answered += hits.length;
            progress.done += hits.length;
            progress.cached += hits.length;
            for (const h of hits)
                opts.onAnswer?.({
                    question: h.slot.question,
                    model: rm.model.name,
                    sample: h.slot.sample,
                    text: h.record.text,
                    cached: true,
                });
        }
        return left;
    }
}
