/**
 * Shared runs: a run several processes (on one machine or many) work on together. Its questions are cut into
 * chunks, ranges of `seq`; a worker claims the first chunk nobody holds — on PostgreSQL with
 * `SELECT … FOR UPDATE SKIP LOCKED`, so two workers claiming at once never get the same one — and holds it while
 * its heartbeat renews the lease. A chunk whose lease lapsed (its worker died, or lost the server) is free
 * again and goes to the next worker that asks, which asks only what the chunk still lacks. Lease times are on
 * the database's clock, so machines whose clocks differ agree.
 *
 * Each claim writes a fresh fencing token (`fence`) on the chunk: renewing, finishing, and each request sent for
 * the chunk's slots (`send`) name it, and change nothing once another claim (another worker's, or this worker's
 * own after its hold lapsed) wrote a new one. A worker paused past its lease so finds out before it pays again,
 * and `sent` counts every request made for the chunk's slots, before it is made.
 */
import * as os from 'node:os';
import { randomBytes } from 'node:crypto';
import type { Question } from '../probes/question.js';
import { insertMany, nowMs, type Sql } from './sql.js';
import { slotKey, type ChunkState, type ChunkStore, type WorkChunk } from './types.js';

/** Questions per chunk: small enough that a dead worker's unanswered share is small, large enough to claim rarely. */
const CHUNK_QUESTIONS = 50;

/** Fences per renewing statement (a worker holds a few chunks; far below either engine's parameter limit). */
const FENCES_PER_STATEMENT = 200;

interface ClaimRow {
    chunk: number;
    first_seq: number;
    last_seq: number;
    was: string | null;
}

/** A claim's fencing token: one per claim, never reused. */
const newFence = () => randomBytes(8).toString('hex');

export class WorkChunks implements ChunkStore {
    /** This process as a worker: the holder written on the chunks it claims. */
    readonly worker = { token: randomBytes(8).toString('hex'), pid: process.pid, host: os.hostname() };

    constructor(private readonly sql: Sql) {}

    /** Makes the chunks of a run holding `questions` questions (those made before are kept). */
    async addChunks(runId: string, questions: number, size = CHUNK_QUESTIONS): Promise<number> {
        const rows: number[][] = [];
        for (let k = 0; k * size < questions; k++) rows.push([k, k * size, Math.min(questions, (k + 1) * size) - 1]);
        await this.sql.transaction(tx =>
            insertMany(
                tx,
                'INSERT INTO work_chunks (run, chunk, first_seq, last_seq)',
                4,
                rows.map(r => [runId, ...r]),
                'ON CONFLICT (run, chunk) DO NOTHING',
            ),
        );
        return rows.length;
    }

    /** Takes the first chunk nobody holds (or whose holder's lease lapsed) for `leaseMs`; undefined when there is none. */
    async claim(runId: string, leaseMs: number): Promise<WorkChunk | undefined> {
        const { token, pid, host } = this.worker;
        const fence = newFence();
        const now = nowMs(this.sql);
        const free = `run = ? AND done = 0 AND (holder IS NULL OR expires < ${now})`;
        let row: ClaimRow | undefined;
        if (this.sql.dialect === 'postgres') {
            row = await this.sql.get<ClaimRow>(
                `WITH c AS (SELECT chunk, holder FROM work_chunks WHERE ${free} ORDER BY chunk LIMIT 1 FOR UPDATE SKIP LOCKED)
                UPDATE work_chunks w SET holder = ?, fence = ?, pid = ?, host = ?, expires = ${now} + ?, claimed = ${now},
                    takeovers = w.takeovers + (CASE WHEN c.holder IS NULL THEN 0 ELSE 1 END)
                FROM c WHERE w.run = ? AND w.chunk = c.chunk RETURNING w.chunk, w.first_seq, w.last_seq, c.holder AS was`,
                [runId, token, fence, pid, host, leaseMs, runId],
            );
        } else {
            // SQLite has one writer at a time: the select and the update in one IMMEDIATE transaction are the lock.
            row = await this.sql.transaction(async tx => {
                const c = await tx.get<ClaimRow>(
                    `SELECT chunk, first_seq, last_seq, holder AS was FROM work_chunks WHERE ${free} ORDER BY chunk LIMIT 1`,
                    [runId],
                );
                if (!c) return undefined;
                await tx.run(
                    `UPDATE work_chunks SET holder = ?, fence = ?, pid = ?, host = ?, expires = ${now} + ?, claimed = ${now}, takeovers = takeovers + ? WHERE run = ? AND chunk = ?`,
                    [token, fence, pid, host, leaseMs, c.was === null ? 0 : 1, runId, c.chunk],
                );
                return c;
            }, true);
        }
        return (
            row && {
                chunk: Number(row.chunk),
                first: Number(row.first_seq),
                last: Number(row.last_seq),
                takenOver: row.was !== null && row.was !== token,
                fence,
            }
        );
    }

    /**
     * Renews the leases of the claims named by their fences (those the worker is still working on; a claim it
     * dropped is not renewed, so it lapses and goes to the next worker); the fences still held.
     */
    async renew(runId: string, leaseMs: number, fences: readonly string[]): Promise<Set<string>> {
        const held = new Set<string>();
        for (let i = 0; i < fences.length; i += FENCES_PER_STATEMENT) {
            const part = fences.slice(i, i + FENCES_PER_STATEMENT);
            const rows = await this.sql.all<{ fence: string }>(
                `UPDATE work_chunks SET expires = ${nowMs(this.sql)} + ? WHERE run = ? AND done = 0
                AND fence IN (${part.map(() => '?').join(', ')}) RETURNING fence`,
                [leaseMs, runId, ...part],
            );
            for (const r of rows) held.add(r.fence);
        }
        return held;
    }

    /**
     * Before a request for one of the claim's slots is sent: true (the request counted, the lease renewed) while the
     * claim still holds its chunk; false once another claim took it (the request must not be sent).
     */
    async send(runId: string, chunk: number, fence: string, leaseMs: number): Promise<boolean> {
        return (
            (
                await this.sql.run(
                    `UPDATE work_chunks SET sent = sent + 1, expires = ${nowMs(this.sql)} + ? WHERE run = ? AND chunk = ? AND fence = ? AND done = 0`,
                    [leaseMs, runId, chunk, fence],
                )
            ).changes > 0
        );
    }

    /** Marks the claim's chunk as done; false when the claim no longer held it. */
    async finish(runId: string, chunk: number, fence: string): Promise<boolean> {
        return (
            (
                await this.sql.run('UPDATE work_chunks SET done = 1, expires = NULL WHERE run = ? AND chunk = ? AND fence = ?', [
                    runId,
                    chunk,
                    fence,
                ])
            ).changes > 0
        );
    }

    /** Gives back one claim's chunk at once, if it still holds it (its worker dropped it). */
    async drop(runId: string, chunk: number, fence: string): Promise<void> {
        await this.sql.run(
            'UPDATE work_chunks SET holder = NULL, fence = NULL, expires = NULL WHERE run = ? AND chunk = ? AND fence = ? AND done = 0',
            [runId, chunk, fence],
        );
    }

    /** Gives back this worker's unfinished chunks at once (cancelled): the others need not wait for the leases. */
    async release(runId: string): Promise<void> {
        await this.sql.run(
            'UPDATE work_chunks SET holder = NULL, fence = NULL, expires = NULL WHERE run = ? AND holder = ? AND done = 0',
            [runId, this.worker.token],
        );
    }

    /** Opens a finished run's chunks again (a resume asks what is still unanswered in them). */
    async reopen(runId: string): Promise<void> {
        await this.sql.run('UPDATE work_chunks SET done = 0, holder = NULL, fence = NULL, expires = NULL WHERE run = ?', [runId]);
    }

    async state(runId: string): Promise<ChunkState> {
        const now = nowMs(this.sql);
        const r = (await this.sql.get<Record<keyof ChunkState, number>>(
            `SELECT COUNT(*) AS total, COALESCE(SUM(done), 0) AS done,
            COALESCE(SUM(CASE WHEN done = 0 AND holder IS NOT NULL AND expires >= ${now} THEN 1 ELSE 0 END), 0) AS held FROM work_chunks WHERE run = ?`,
            [runId],
        ))!;
        const total = Number(r.total),
            done = Number(r.done),
            held = Number(r.held);
        return { total, done, held, free: total - done - held };
    }

    /** The run's questions numbered `first` to `last`. */
    async questions(runId: string, first: number, last: number): Promise<Question[]> {
        return (
            await this.sql.all<{ json: string }>(
                'SELECT json FROM questions WHERE run = ? AND seq >= ? AND seq <= ? ORDER BY seq',
                [runId, first, last],
            )
        ).map(r => JSON.parse(r.json) as Question);
    }

    /** The answered slots (`slotKey`) of the run's questions numbered `first` to `last`. */
    async answered(runId: string, first: number, last: number): Promise<Set<string>> {
        const rows = await this.sql.all<{ question: string; model: string; sample: number }>(
            `SELECT r.question, r.model, r.sample FROM responses r
            JOIN questions q ON q.run = r.run AND q.id = r.question WHERE r.run = ? AND q.seq >= ? AND q.seq <= ?`,
            [runId, first, last],
        );
        return new Set(rows.map(r => slotKey(r.question, r.model, r.sample)));
    }

    /** Marks the run completed; true for the one caller that did (it verifies the run). */
    async complete(runId: string): Promise<boolean> {
        return (
            (
                await this.sql.run("UPDATE runs SET status = 'completed', finished = ? WHERE id = ? AND status <> 'completed'", [
                    new Date().toISOString(),
                    runId,
                ])
            ).changes > 0
        );
    }
}
