/**
 * A shared run (`halluprobe run … --join`): several processes, on one machine or many, work on one run in a
 * team store. First its questions are all stored, by whichever worker holds the run's lease (the others wait for
 * it, and take over if it dies); then every worker claims chunks of the questions (store/chunks.ts) one after
 * another, asks what each chunk still lacks with the usual pools (ask.ts) and marks it done. A worker's heartbeat
 * renews its chunks' leases; a chunk whose lease lapses goes to the next worker that asks, and the worker that
 * lost it drops what it had not asked. Every request is checked against the claim's fencing token just before it
 * is sent (and counted in the store then): nobody asks, or retries, a slot of a chunk another worker holds.
 */
import type { Question } from '../probes/question.js';
import { LEASE_STALE_MS, type RunStatus, type Store, type WorkChunk } from '../store/index.js';
import { ordinaryProblem } from '../errors.js';
import { DEFAULT_RETRY } from './retry.js';
import { SlotQueue } from './queue.js';
import { askModels } from './ask.js';
import { sleep } from './limiter.js';
import { cacheRecord, pendingSlots, type PendingSlot, type RunModel, type SlotChunk } from './pending.js';
import { runProgress } from './progress.js';
import type { RunOptions, RunOutcome } from './runner.js';
import { progressWrites } from './writes.js';

export interface SharedOptions {
    /** A chunk's lease, renewed every third of it (default: the run lease's, HALLUPROBE_LEASE_STALE_MS or 30 s). */
    leaseMs?: number;
    /** Between two looks at a run whose questions another worker is storing, or whose chunks others hold. */
    pollMs?: number;
    /** The run's questions, generated and stored as they come (read through only by the worker storing them). */
    generate: () => AsyncIterable<Question[]>;
}

export async function executeSharedRun(opts: RunOptions & { shared: SharedOptions }): Promise<RunOutcome> {
    const { store, runId, models, signal } = opts;
    const leaseMs = opts.shared.leaseMs ?? LEASE_STALE_MS;
    const pollMs = opts.shared.pollMs ?? Math.max(50, Math.min(2_000, leaseMs / 4));
    const retry = opts.retry ?? DEFAULT_RETRY;
    const perQuestion = models.reduce((n, m) => n + m.model.samples, 0);
    const { progress, emit } = runProgress({}, opts.onProgress);

    if (!(await storeQuestions(store, runId, opts.shared, pollMs, signal)))
        return { status: 'cancelled', progress: { ...progress }, verifies: false };
    const counts = await store.counts(runId);
    Object.assign(progress, {
        generating: false,
        questions: counts.questions,
        total: counts.questions * perQuestion,
        resumed: counts.answered,
        answered: counts.answered,
        failed: counts.failed,
        done: counts.answered + counts.failed,
    });
    emit();

    const pools = models.map(m => ({ m, queue: new SlotQueue() }));
    // This worker's claims, by fencing token.
    const held = new Map<string, ChunkTicket>();
    const stop = () => {
        for (const p of pools) p.queue.close(true);
    };
    signal?.addEventListener('abort', stop, { once: true });
    // A refused write stops this worker's calls as in a run of one process (writes.ts); what is held is shown.
    const writes = progressWrites(store, stop, progress, emit);
    // Renews the leases of the claims this worker is still working on; one no longer held was taken over: its
    // slots are dropped. A claim dropped here is not renewed again, so its chunk lapses to the next worker.
    const beat = setInterval(
        () => {
            const live = [...held.values()].filter(t => !t.lost);
            store.chunks
                .renew(
                    runId,
                    leaseMs,
                    live.map(t => t.fence),
                )
                .then(
                    mine => {
                        for (const t of live) if (!mine.has(t.fence)) t.lose();
                    },
                    () => undefined,
                );
        },
        Math.max(20, leaseMs / 3),
    );
    let unreachable = 0;
    try {
        unreachable = await askModels({ ...opts, retry, progress, emit, writes }, pools, produce);
    } finally {
        clearInterval(beat);
        signal?.removeEventListener('abort', stop);
        // Cancelled or given up: what this worker did not finish goes back at once, not when its leases lapse.
        // (A store whose server stayed away keeps them: they lapse with their leases; the error below says why.)
        await store.chunks.release(runId).catch(e => {
            if (!ordinaryProblem(e)) throw e;
        });
    }
    // Every call is done: what the store refused is written now, or after a wait for space, or named as lost.
    const refused = await writes.settle(signal);
    if (refused) throw refused;
    const state = await store.chunks.state(runId);
    const all = state.done === state.total;
    // Every worker sees the end; the one that marks the run completed verifies it.
    const verifies = all && !signal?.aborted && unreachable === 0 && (await store.chunks.complete(runId));
    const status: RunStatus = signal?.aborted ? 'cancelled' : unreachable > 0 ? 'failed' : all ? 'completed' : 'running';
    if (status !== 'completed' && status !== 'running' && state.held === 0) await store.setStatus(runId, status);
    const end = await store.counts(runId);
    Object.assign(progress, { answered: end.answered, failed: end.failed, done: end.answered + end.failed });
    emit();
    return { status, progress: { ...progress }, verifies };

    /** Claims chunks while the models have room for more, until every chunk of the run is done. */
    async function produce(): Promise<void> {
        const room = Math.max(...models.map(m => 2 * m.model.limits.concurrency));
        try {
            while (!signal?.aborted && !pools.every(p => p.queue.isClosed)) {
                for (const { queue } of pools) await queue.room(room);
                if (signal?.aborted) return;
                const chunk = await store.chunks.claim(runId, leaseMs);
                if (chunk) {
                    await take(chunk);
                    continue;
                }
                const state = await store.chunks.state(runId);
                if (state.free === 0 && state.held === 0) return;
                // Others hold the rest: wait for them to finish, or for a dead one's lease to lapse.
                await sleep(pollMs, signal);
                const c = await store.counts(runId);
                Object.assign(progress, { answered: c.answered, failed: c.failed, done: c.answered + c.failed });
                emit();
            }
        } catch (e) {
            // The store went away for good (its server did not come back): stop as for a refused write.
            writes.fail(e);
        } finally {
            for (const { queue } of pools) queue.close();
        }
    }

    /** Hands the models a claimed chunk's unanswered slots (answering cache hits at once). */
    async function take(chunk: WorkChunk): Promise<void> {
        const questions = await store.chunks.questions(runId, chunk.first, chunk.last);
        const answered = await store.chunks.answered(runId, chunk.first, chunk.last);
        const ticket: ChunkTicket = new ChunkTicket(chunk.fence, {
            done: () =>
                store.chunks.finish(runId, chunk.chunk, chunk.fence).then(
                    () => {
                        held.delete(chunk.fence);
                    },
                    () => undefined,
                ),
            send: () => store.chunks.send(runId, chunk.chunk, chunk.fence, leaseMs),
            // Taken over: what is left of it is the new holder's (if it still holds it after all, it is given back at once).
            lost: () => {
                held.delete(chunk.fence);
                void store.chunks.drop(runId, chunk.chunk, chunk.fence).catch(() => undefined);
            },
        });
        held.set(chunk.fence, ticket);
        const perModel: [SlotQueue, PendingSlot[]][] = [];
        for (const { m, queue } of pools) {
            const slots = (await pendingSlots(store, runId, questions, m, answered)).map(s => ({ ...s, chunk: ticket }));
            perModel.push([queue, m.client.cacheable ? await serveFromCache(m, slots) : slots]);
        }
        ticket.expect(perModel.reduce((n, [, s]) => n + s.length, 0));
        for (const [queue, slots] of perModel) queue.push(slots);
        emit();
    }

    async function serveFromCache(rm: RunModel, slots: PendingSlot[]): Promise<PendingSlot[]> {
        const hits = slots.filter(s => s.hit);
        if (hits.length === 0) return slots;
        await store.recordAnswers(hits.map(s => cacheRecord(runId, rm, s.question, s.sample, s.hash!, s.hit!)));
        progress.answered += hits.length;
        progress.done += hits.length;
        progress.cached += hits.length;
        for (const s of hits)
            opts.onAnswer?.({ question: s.question, model: rm.model.name, sample: s.sample, text: s.hit!.text, cached: true });
        return slots.filter(s => !s.hit);
    }
}

/** What a claim does in the store: finish its chunk, count a request before it is sent, give the chunk back. */
interface TicketActions {
    done: () => Promise<void>;
    send: () => Promise<boolean>;
    lost: () => void;
}

/**
 * A claimed chunk: done once each of its slots handed to the models is settled. Each request for one of its slots
 * is first checked against the claim's fencing token (`send`): once another claim holds the chunk, nothing more
 * is sent for it here.
 */
class ChunkTicket implements SlotChunk {
    /** Taken by another worker after this one's lease lapsed: its slots left here are dropped. */
    lost = false;
    private left = 0;
    private counted = false;
    private finished = false;

    constructor(
        readonly fence: string,
        private readonly act: TicketActions,
    ) {}

    /** True (the request counted) while the claim holds its chunk; false, and lost from then on, once it does not. */
    async send(): Promise<boolean> {
        if (this.lost) return false;
        if (await this.act.send()) return true;
        this.lose();
        return false;
    }

    lose(): void {
        if (this.lost || this.finished) return;
        this.lost = true;
        this.act.lost();
    }

    /** All its slots are handed out: `n` of them. */
    expect(n: number): void {
        this.left += n;
        this.counted = true;
        this.check();
    }

    settled(): void {
        this.left--;
        this.check();
    }

    private check(): void {
        if (!this.counted || this.left > 0 || this.lost || this.finished) return;
        this.finished = true;
        void this.act.done();
    }
}

/**
 * Makes sure every question of the run is stored and cut into chunks: the worker that gets the run's lease stores
 * them (continuing where a worker that died stopped) and gives the lease back; the others wait until it has.
 * False when cancelled while waiting.
 */
async function storeQuestions(
    store: Store,
    runId: string,
    o: SharedOptions,
    pollMs: number,
    signal?: AbortSignal,
): Promise<boolean> {
    for (;;) {
        if (signal?.aborted) return false;
        const run = await store.getRun(runId);
        const state = await store.chunks.state(runId);
        const ready = run?.settings.generating !== true && state.total > 0;
        // A finished run joined again (to ask what failed): its chunks open again, once, by the lease holder.
        const retry = ready && state.done === state.total && run?.status !== 'running';
        if (ready && !retry) return true;
        if (!(await store.acquireLease(runId))) {
            try {
                if (!ready) {
                    for await (const _batch of o.generate()) if (signal?.aborted) return false;
                    await store.chunks.addChunks(runId, await store.questionCount(runId));
                } else {
                    await store.chunks.reopen(runId);
                }
                await store.setStatus(runId, 'running');
            } finally {
                await store.releaseLease(runId);
            }
            return true;
        }
        await sleep(pollMs, signal);
    }
}
