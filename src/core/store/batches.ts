/**
 * The batch tables of the results store: the provider batches of a run (our id, the provider's, its files and
 * state) and the slot each of their requests answers. A batch is stored before it is created at the provider.
 */
import type Database from 'better-sqlite3';
import { slotKey } from './types.js';

export interface BatchRecord {
    /** Our id, sent with the batch as metadata. */
    local: string;
    run: string;
    model: string;
    /** The provider's batch id, once created. */
    id: string | null;
    inputFile: string;
    status: string;
    outputFile: string | null;
    errorFile: string | null;
    requests: number;
    done: number;
    failed: number;
    created: string;
    updated: string;
    collected: boolean;
}

export interface BatchSlot { customId: string; question: string; sample: number; hash: string; attempt: number }

interface BatchRow extends Omit<BatchRecord, 'inputFile' | 'outputFile' | 'errorFile' | 'collected'> { input_file: string; output_file: string | null; error_file: string | null; collected: number }

const toBatch = (r: BatchRow): BatchRecord => ({
    local: r.local, run: r.run, model: r.model, id: r.id, inputFile: r.input_file, status: r.status, outputFile: r.output_file, errorFile: r.error_file,
    requests: r.requests, done: r.done, failed: r.failed, created: r.created, updated: r.updated, collected: r.collected === 1,
});

export class BatchTables {
    constructor(private readonly db: Database.Database) {}

    /** Stores a batch about to be created and its slots, in one transaction. */
    addBatch(b: { local: string; run: string; model: string; inputFile: string }, slots: readonly BatchSlot[]): void {
        const now = new Date().toISOString();
        const slot = this.db.prepare('INSERT INTO batch_slots (batch, custom_id, run, question, model, sample, hash, attempt) VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
        this.db.transaction(() => {
            this.db.prepare("INSERT INTO batches (local, run, model, id, input_file, status, requests, created, updated) VALUES (?, ?, ?, NULL, ?, 'uploaded', ?, ?, ?)")
                .run(b.local, b.run, b.model, b.inputFile, slots.length, now, now);
            for (const s of slots) slot.run(b.local, s.customId, b.run, s.question, b.model, s.sample, s.hash, s.attempt);
        })();
    }

    /** Records what the provider says about a batch. */
    updateBatch(local: string, u: { id?: string; status: string; outputFile?: string | null; errorFile?: string | null; done?: number; failed?: number }): void {
        this.db.prepare(`UPDATE batches SET id = COALESCE(?, id), status = ?, output_file = COALESCE(?, output_file), error_file = COALESCE(?, error_file),
            done = COALESCE(?, done), failed = COALESCE(?, failed), updated = ? WHERE local = ?`)
            .run(u.id ?? null, u.status, u.outputFile ?? null, u.errorFile ?? null, u.done ?? null, u.failed ?? null, new Date().toISOString(), local);
    }

    markCollected(local: string): void {
        this.db.prepare('UPDATE batches SET collected = 1, updated = ? WHERE local = ?').run(new Date().toISOString(), local);
    }

    /** Every batch of a run (of one model), oldest first. */
    batches(run: string, model?: string): BatchRecord[] {
        const rows = (model === undefined
            ? this.db.prepare('SELECT * FROM batches WHERE run = ? ORDER BY created, rowid').all(run)
            : this.db.prepare('SELECT * FROM batches WHERE run = ? AND model = ? ORDER BY created, rowid').all(run, model)) as BatchRow[];
        return rows.map(toBatch);
    }

    batchSlots(local: string): BatchSlot[] {
        return this.db.prepare('SELECT custom_id AS customId, question, sample, hash, attempt FROM batch_slots WHERE batch = ?').all(local) as BatchSlot[];
    }

    /** Per slot of the run and model (`slotKey`): how many times it was sent in a batch, and whether one is still open. */
    batchAttempts(run: string, model: string): Map<string, { attempts: number; open: boolean }> {
        const rows = this.db.prepare(`SELECT s.question, s.sample, MAX(s.attempt) AS attempts, MAX(1 - b.collected) AS open FROM batch_slots s
            JOIN batches b ON b.local = s.batch WHERE s.run = ? AND s.model = ? GROUP BY s.question, s.sample`).all(run, model) as { question: string; sample: number; attempts: number; open: number }[];
        return new Map(rows.map(r => [slotKey(r.question, model, r.sample), { attempts: r.attempts, open: r.open === 1 }]));
    }
}
