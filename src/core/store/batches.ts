/**
 * The batch tables of the results store: the provider batches of a run (our id, the provider's, its files and
 * state) and the slot each of their requests answers. A batch is stored before it is created at the provider.
 */
import { slotKey, type BatchRecord, type BatchSlot, type BatchStore } from './types.js';
import { insertMany, type Sql } from './sql.js';

interface BatchRow extends Omit<BatchRecord, 'inputFile' | 'outputFile' | 'errorFile' | 'collected'> {
    input_file: string;
    output_file: string | null;
    error_file: string | null;
    collected: number;
}

const toBatch = (r: BatchRow): BatchRecord => ({
    local: r.local,
    run: r.run,
    model: r.model,
    id: r.id,
    endpoint: r.endpoint ?? null,
    inputFile: r.input_file,
    status: r.status,
    outputFile: r.output_file,
    errorFile: r.error_file,
    requests: r.requests,
    done: r.done,
    failed: r.failed,
    created: r.created,
    updated: r.updated,
    collected: r.collected === 1,
});

export class BatchTables implements BatchStore {
    constructor(private readonly sql: Sql) {}

    /** Stores a batch about to be created and its slots, in one transaction. */
    async addBatch(
        b: { local: string; run: string; model: string; inputFile: string; endpoint: string },
        slots: readonly BatchSlot[],
    ): Promise<void> {
        const now = new Date().toISOString();
        await this.sql.transaction(async tx => {
            await tx.run(
                "INSERT INTO batches (local, run, model, id, input_file, status, requests, created, updated, endpoint) VALUES (?, ?, ?, NULL, ?, 'uploaded', ?, ?, ?, ?)",
                [b.local, b.run, b.model, b.inputFile, slots.length, now, now, b.endpoint],
            );
            await insertMany(
                tx,
                'INSERT INTO batch_slots (batch, custom_id, run, question, model, sample, hash, attempt)',
                8,
                slots.map(s => [b.local, s.customId, b.run, s.question, b.model, s.sample, s.hash, s.attempt]),
            );
        });
    }

    /** Records what the provider says about a batch. */
    async updateBatch(
        local: string,
        u: { id?: string; status: string; outputFile?: string | null; errorFile?: string | null; done?: number; failed?: number },
    ): Promise<void> {
        await this.sql.run(
            `UPDATE batches SET id = COALESCE(?, id), status = ?, output_file = COALESCE(?, output_file), error_file = COALESCE(?, error_file),
            done = COALESCE(?, done), failed = COALESCE(?, failed), updated = ? WHERE local = ?`,
            [
                u.id ?? null,
                u.status,
                u.outputFile ?? null,
                u.errorFile ?? null,
                u.done ?? null,
                u.failed ?? null,
                new Date().toISOString(),
                local,
            ],
        );
    }

    async markCollected(local: string): Promise<void> {
        await this.sql.run('UPDATE batches SET collected = 1, updated = ? WHERE local = ?', [new Date().toISOString(), local]);
    }

    /** Every batch of a run (of one model), oldest first. */
    async batches(run: string, model?: string): Promise<BatchRecord[]> {
        const rows =
            model === undefined
                ? await this.sql.all<BatchRow>('SELECT * FROM batches WHERE run = ? ORDER BY created, local', [run])
                : await this.sql.all<BatchRow>('SELECT * FROM batches WHERE run = ? AND model = ? ORDER BY created, local', [
                      run,
                      model,
                  ]);
        return rows.map(toBatch);
    }

    async batchSlots(local: string): Promise<BatchSlot[]> {
        return this.sql.all<BatchSlot>(
            'SELECT custom_id AS "customId", question, sample, hash, attempt FROM batch_slots WHERE batch = ? ORDER BY custom_id',
            [local],
        );
    }

    /** Per slot of the run and model (`slotKey`): how many times it was sent in a batch, and whether one is still open. */
    async batchAttempts(run: string, model: string): Promise<Map<string, { attempts: number; open: boolean }>> {
        const rows = await this.sql.all<{ question: string; sample: number; attempts: number; open: number }>(
            `SELECT s.question, s.sample, MAX(s.attempt) AS attempts, MAX(1 - b.collected) AS open FROM batch_slots s
            JOIN batches b ON b.local = s.batch WHERE s.run = ? AND s.model = ? GROUP BY s.question, s.sample`,
            [run, model],
        );
        return new Map(rows.map(r => [slotKey(r.question, model, r.sample), { attempts: r.attempts, open: r.open === 1 }]));
    }
}
