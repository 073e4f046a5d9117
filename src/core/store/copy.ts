/**
 * `halluprobe store copy <from> <to>`: copies runs between results stores — SQLite files and PostgreSQL servers,
 * either way — with their questions, calls, the cache entries of those calls, answers, verdicts, overrides, review labels,
 * group verdicts and batches. Each run is copied in one transaction; a run the target has already is skipped, so a copy
 * can be repeated, and copies run at the same time insert each run once (the run's row claims it, copyRun). Finish
 * reasons and errors are copied with key-shaped text redacted. Call ids are the target's own (answers point at the copied calls).
 */
import { openPostgres } from './postgres.js';
import { openSqlite } from './open.js';
import { sqliteSql, type Param, type Row, type Sql } from './sql.js';
import { HalluProbeError, problem } from '../errors.js';
import { REVIEW_LABEL_COLUMNS } from './labels.js';
import { QUESTION_FACT_COLUMNS } from './facts.js';
import { isPostgresUrl, shownStore } from '../data/postgres-url.js';
import { redact } from '../models/secrets.js';

/** The tables a run owns, in the order they are copied, with their columns (`calls.id` is renumbered). */
const TABLES: { table: string; columns: string[] }[] = [
    { table: 'runs', columns: ['id', 'spec', 'suite', 'started', 'finished', 'status', 'settings'] },
    { table: 'questions', columns: ['run', 'id', 'seq', 'probe', 'kind', 'phrasing', 'json'] },
    { table: 'question_facts', columns: QUESTION_FACT_COLUMNS },
    {
        table: 'calls',
        columns: [
            'run',
            'question',
            'model',
            'sample',
            'hash',
            'params',
            'latency_ms',
            'tokens_in',
            'tokens_out',
            'cost',
            'attempts',
            'status',
            'error',
            'at',
        ],
    },
    { table: 'cache', columns: ['hash', 'text', 'tokens_in', 'tokens_out', 'finish_reason', 'latency_ms', 'created'] },
    { table: 'responses', columns: ['run', 'question', 'model', 'sample', 'text', 'cached', 'call'] },
    { table: 'verdicts', columns: ['run', 'question', 'model', 'sample', 'answer', 'correct', 'rationale', 'json'] },
    {
        table: 'verdict_overrides',
        columns: [
            'run',
            'question',
            'model',
            'sample',
            'correct',
            'rationale',
            'by',
            'at',
            'why',
            'read_text',
            'read_start',
            'read_end',
            'read_by',
        ],
    },
    { table: 'review_labels', columns: REVIEW_LABEL_COLUMNS },
    { table: 'group_verdicts', columns: ['run', 'grp', 'model', 'sample', 'relation', 'probe', 'outcome', 'ok', 'json'] },
    {
        table: 'batches',
        columns: [
            'local',
            'run',
            'model',
            'id',
            'input_file',
            'status',
            'output_file',
            'error_file',
            'requests',
            'done',
            'failed',
            'created',
            'updated',
            'collected',
            'endpoint',
        ],
    },
    { table: 'batch_slots', columns: ['batch', 'custom_id', 'run', 'question', 'model', 'sample', 'hash', 'attempt'] },
];

/**
 * Columns where no key belongs but an older HalluProbe may have stored one an endpoint echoed (a batch's finish
 * reason, an error): copied with anything shaped like a key redacted, so a copy never spreads one.
 */
const KEY_FREE: Record<string, string[]> = { cache: ['finish_reason'], calls: ['error'] };

const quoted = (columns: string[]) => columns.map(c => `"${c}"`).join(', ');

function select(table: string): string {
    if (table === 'runs') return 'SELECT * FROM runs WHERE id = ?';
    if (table === 'cache') return 'SELECT * FROM cache WHERE hash IN (SELECT hash FROM calls WHERE run = ?)';
    if (table === 'calls') return 'SELECT * FROM calls WHERE run = ? ORDER BY id';
    return `SELECT * FROM ${table} WHERE run = ?`;
}

/** Either store's tables, as the same statements (sql.ts). */
async function openEnd(where: string, passwordEnv?: string): Promise<Sql> {
    if (isPostgresUrl(where)) return (await openPostgres(where, passwordEnv)).sql;
    return sqliteSql(openSqlite(where).db);
}

/** Inserts rows the target does not have; for `calls`, returns the new ids in order; how many rows it wrote. */
async function insert(target: Sql, table: string, columns: string[], rows: Row[]): Promise<{ ids: number[]; written: number }> {
    const text = `INSERT INTO ${table} (${quoted(columns)}) VALUES (${columns.map(() => '?').join(', ')}) ON CONFLICT DO NOTHING${table === 'calls' ? ' RETURNING id' : ''}`;
    const ids: number[] = [];
    let written = 0;
    for (const r of rows) {
        const values = columns.map(c => {
            const v = (r[c] ?? null) as Param;
            return typeof v === 'string' && KEY_FREE[table]?.includes(c) ? redact(v, []) : v;
        });
        if (table === 'calls') {
            ids.push(Number((await target.get<{ id: number }>(text, values))!.id));
            written++;
        } else written += (await target.run(text, values)).changes;
    }
    return { ids, written };
}

/** Thrown inside a run's transaction when another copy holds the run already: rolled back, the run skipped. */
class CopiedElsewhere extends Error {}

export interface CopyResult {
    copied: string[];
    skipped: string[];
}

/** Copies the runs of `from` (or only `runs`) into `to`; runs `to` has already are skipped. */
export async function copyStore(from: string, to: string, runs?: readonly string[], passwordEnv?: string): Promise<CopyResult> {
    const source = await openEnd(from, passwordEnv);
    try {
        const target = await openEnd(to, passwordEnv);
        try {
            const runIds = async (end: Sql) =>
                (await end.all<{ id: string }>('SELECT id FROM runs ORDER BY started, id')).map(r => r.id);
            const have = new Set(await runIds(target));
            const there = await runIds(source);
            const missing = (runs ?? []).filter(r => !there.includes(r));
            if (missing.length)
                throw new HalluProbeError(
                    problem(
                        'unknown-run',
                        `No run ${missing.join(', ')} in ${shownStore(from)}.`,
                        'List the runs with "halluprobe runs --db <store>".',
                    ),
                );
            const result: CopyResult = { copied: [], skipped: [] };
            for (const run of runs ?? there) {
                if (have.has(run)) {
                    result.skipped.push(run);
                    continue;
                }
                try {
                    await target.transaction(tx => copyRun(source, tx, run));
                    result.copied.push(run);
                } catch (e) {
                    if (!(e instanceof CopiedElsewhere)) throw e;
                    result.skipped.push(run);
                }
            }
            return result;
        } finally {
            await target.close();
        }
    } finally {
        await source.close();
    }
}

/**
 * One run, inside the target's transaction. Its `runs` row goes first and claims it: a copy running at the same time
 * waits on that row (PostgreSQL's unique key; SQLite's one writer) and, finding it written, rolls back and skips the
 * run — so copies run at once insert a run's calls once, not once each.
 */
async function copyRun(source: Sql, target: Sql, run: string): Promise<void> {
    const callIds = new Map<number, number>();
    for (const { table, columns } of TABLES) {
        const rows = await source.all(select(table), [run]);
        if (table === 'responses')
            for (const r of rows) if (r.call !== null && r.call !== undefined) r.call = callIds.get(Number(r.call)) ?? null;
        const { ids, written } = await insert(target, table, columns, rows);
        if (table === 'runs' && written === 0) throw new CopiedElsewhere(run);
        if (table === 'calls') rows.forEach((r, i) => callIds.set(Number(r.id), ids[i]!));
    }
}
