/**
 * `halluprobe store copy <from> <to>`: copies runs between results stores — SQLite files and PostgreSQL servers,
 * either way — with their questions, calls, the cache entries of those calls, answers, verdicts, overrides, group
 * verdicts and batches. Each run is copied in one transaction; a run the target has already is skipped, so a copy
 * can be repeated. Call ids are the target's own (answers point at the copied calls).
 */
import type pg from 'pg';
import type Database from 'better-sqlite3';
import { openPostgresStore } from './postgres.js';
import { openSqlite } from './open.js';
import { HalluProbeError, problem } from '../errors.js';
import { isPostgresUrl, shownStore } from '../data/postgres-url.js';

type Row = Record<string, unknown>;

/** The tables a run owns, in the order they are copied, with their columns (`calls.id` is renumbered). */
const TABLES: { table: string; columns: string[] }[] = [
    { table: 'runs', columns: ['id', 'spec', 'suite', 'started', 'finished', 'status', 'settings'] },
    { table: 'questions', columns: ['run', 'id', 'seq', 'probe', 'kind', 'phrasing', 'json'] },
    { table: 'calls', columns: ['run', 'question', 'model', 'sample', 'hash', 'params', 'latency_ms', 'tokens_in', 'tokens_out', 'cost', 'attempts', 'status', 'error', 'at'] },
    { table: 'cache', columns: ['hash', 'text', 'tokens_in', 'tokens_out', 'finish_reason', 'latency_ms', 'created'] },
    { table: 'responses', columns: ['run', 'question', 'model', 'sample', 'text', 'cached', 'call'] },
    { table: 'verdicts', columns: ['run', 'question', 'model', 'sample', 'answer', 'correct', 'rationale', 'json'] },
    { table: 'verdict_overrides', columns: ['run', 'question', 'model', 'sample', 'correct', 'rationale', 'by', 'at', 'why'] },
    { table: 'group_verdicts', columns: ['run', 'grp', 'model', 'sample', 'relation', 'probe', 'outcome', 'ok', 'json'] },
    { table: 'batches', columns: ['local', 'run', 'model', 'id', 'input_file', 'status', 'output_file', 'error_file', 'requests', 'done', 'failed', 'created', 'updated', 'collected'] },
    { table: 'batch_slots', columns: ['batch', 'custom_id', 'run', 'question', 'model', 'sample', 'hash', 'attempt'] },
];

const quoted = (columns: string[]) => columns.map(c => `"${c}"`).join(', ');

/** One end of a copy: the same few statements on SQLite or PostgreSQL. */
interface End {
    runIds(): Promise<string[]>;
    /** A run's rows of a table (`cache`: the entries its calls used); `calls` with their id. */
    rows(table: string, run: string): Promise<Row[]>;
    /** Inserts rows (skipping rows the target has); for `calls`, returns the new ids in order. */
    insert(table: string, columns: string[], rows: Row[]): Promise<number[]>;
    transaction<T>(fn: () => Promise<T>): Promise<T>;
    close(): Promise<void>;
}

function select(table: string, param: string): string {
    if (table === 'runs') return `SELECT * FROM runs WHERE id = ${param}`;
    if (table === 'cache') return `SELECT * FROM cache WHERE hash IN (SELECT hash FROM calls WHERE run = ${param})`;
    if (table === 'calls') return `SELECT * FROM calls WHERE run = ${param} ORDER BY id`;
    return `SELECT * FROM ${table} WHERE run = ${param}`;
}

function sqliteEnd(db: Database.Database): End {
    return {
        runIds: async () => (db.prepare('SELECT id FROM runs ORDER BY started, rowid').all() as { id: string }[]).map(r => r.id),
        rows: async (table, run) => db.prepare(select(table, '?')).all(run) as Row[],
        insert: async (table, columns, rows) => {
            const stmt = db.prepare(`INSERT OR IGNORE INTO ${table} (${quoted(columns)}) VALUES (${columns.map(() => '?').join(', ')})`);
            return rows.map(r => Number(stmt.run(...columns.map(c => r[c] ?? null)).lastInsertRowid));
        },
        transaction: async fn => {
            db.exec('BEGIN IMMEDIATE');
            try { const out = await fn(); db.exec('COMMIT'); return out; } catch (e) { db.exec('ROLLBACK'); throw e; }
        },
        close: async () => { db.close(); },
    };
}

function postgresEnd(client: pg.Client): End {
    return {
        runIds: async () => (await client.query<{ id: string }>('SELECT id FROM runs ORDER BY started, id')).rows.map(r => r.id),
        rows: async (table, run) => (await client.query(select(table, '$1'), [run])).rows as Row[],
        insert: async (table, columns, rows) => {
            const sql = `INSERT INTO ${table} (${quoted(columns)}) VALUES (${columns.map((_, i) => `$${i + 1}`).join(', ')}) ON CONFLICT DO NOTHING${table === 'calls' ? ' RETURNING id' : ''}`;
            const ids: number[] = [];
            for (const r of rows) {
                const res = await client.query<{ id: string }>(sql, columns.map(c => r[c] ?? null));
                if (table === 'calls') ids.push(Number(res.rows[0]!.id));
            }
            return ids;
        },
        transaction: async fn => {
            await client.query('BEGIN');
            try { const out = await fn(); await client.query('COMMIT'); return out; } catch (e) { await client.query('ROLLBACK').catch(() => undefined); throw e; }
        },
        close: async () => { await client.end(); },
    };
}

async function openEnd(where: string): Promise<End> {
    return isPostgresUrl(where) ? postgresEnd(await openPostgresStore(where)) : sqliteEnd(openSqlite(where).db);
}

export interface CopyResult { copied: string[]; skipped: string[] }

/** Copies the runs of `from` (or only `runs`) into `to`; runs `to` has already are skipped. */
export async function copyStore(from: string, to: string, runs?: readonly string[]): Promise<CopyResult> {
    const source = await openEnd(from);
    try {
        const target = await openEnd(to);
        try {
            const have = new Set(await target.runIds());
            const there = await source.runIds();
            const missing = (runs ?? []).filter(r => !there.includes(r));
            if (missing.length) throw new HalluProbeError(problem('unknown-run', `No run ${missing.join(', ')} in ${shownStore(from)}.`, 'List the runs with "halluprobe runs --db <store>".'));
            const result: CopyResult = { copied: [], skipped: [] };
            for (const run of runs ?? there) {
                if (have.has(run)) { result.skipped.push(run); continue; }
                await target.transaction(() => copyRun(source, target, run));
                result.copied.push(run);
            }
            return result;
        } finally {
            await target.close();
        }
    } finally {
        await source.close();
    }
}

async function copyRun(source: End, target: End, run: string): Promise<void> {
    const callIds = new Map<number, number>();
    for (const { table, columns } of TABLES) {
        const rows = await source.rows(table, run);
        if (table === 'responses') for (const r of rows) if (r.call !== null && r.call !== undefined) r.call = callIds.get(Number(r.call)) ?? null;
        const ids = await target.insert(table, columns, rows);
        if (table === 'calls') rows.forEach((r, i) => callIds.set(Number(r.id), ids[i]!));
    }
}
