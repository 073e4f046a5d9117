/**
 * Reading a SQLite source (a table or a query) with better-sqlite3, read-only and row by row. A row's line is
 * its rowid for a table (what `SELECT rowid` shows the user) and its 1-based position for a query.
 */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import Database from 'better-sqlite3';
import type { SourceDecl } from '../spec/model.js';
import type { SourceProblem } from '../problem.js';

/** The code of every problem of a sqlite source's read. */
const CODE = 'sqlite-error';
import { closest } from '../language/validation/suggest.js';

export interface SqliteResult {
    header: string[];
    problems: SourceProblem[];
    complete: boolean;
}
export type SqliteRowSink = (values: unknown[], line: number) => void;

const quoteName = (name: string) => `"${name.replace(/"/g, '""')}"`;

function open(source: SourceDecl): Database.Database | SourceProblem {
    try {
        return new Database(source.path, { readonly: true, fileMustExist: true });
    } catch (e) {
        return {
            severity: 'error',
            code: CODE,
            lines: [],
            message: `could not be opened as an SQLite database: ${(e as Error).message}`,
        };
    }
}

/** The statement that reads the source, and whether its first column is the rowid we added. */
function prepare(db: Database.Database, source: SourceDecl): { statement: Database.Statement; rowid: boolean } | SourceProblem {
    try {
        if (source.query !== undefined) return { statement: db.prepare(source.query), rowid: false };
        if (source.table === undefined)
            return {
                severity: 'error',
                code: CODE,
                lines: [],
                message: 'needs `table "name"` or `query "select …"` to say which rows to read',
            };
        try {
            return {
                statement: db.prepare(`SELECT rowid AS "halluprobe rowid", * FROM ${quoteName(source.table)}`),
                rowid: true,
            };
        } catch {
            // Views and WITHOUT ROWID tables have no rowid: fall back to row numbers.
            return { statement: db.prepare(`SELECT * FROM ${quoteName(source.table)}`), rowid: false };
        }
    } catch (e) {
        const message = (e as Error).message;
        if (source.table !== undefined && /no such table/.test(message)) {
            const tables = db
                .prepare(`SELECT name FROM sqlite_master WHERE type IN ('table', 'view') ORDER BY name`)
                .pluck()
                .all() as string[];
            const guess = closest(source.table, tables);
            return {
                severity: 'error',
                code: CODE,
                lines: [],
                message: `has no table '${source.table}'${guess ? `; did you mean '${guess}'?` : ''} Its tables: ${tables.join(', ') || '(none)'}`,
            };
        }
        return { severity: 'error', code: CODE, lines: [], message: `query failed: ${message}` };
    }
}

/**
 * A source query runs in a child process with a time budget: SQLite cannot be interrupted from JavaScript, and
 * a runaway query (a recursive CTE that never ends) would otherwise block the CLI or the language server for
 * good. HALLUPROBE_QUERY_TIMEOUT_MS sets the budget (default 10 s).
 */
function queryBudgetMs(env: NodeJS.ProcessEnv = process.env): number {
    const v = Number(env.HALLUPROBE_QUERY_TIMEOUT_MS);
    return Number.isFinite(v) && v > 0 ? v : 10_000;
}

const CHILD = `
const [mod, file, query] = process.argv.slice(1);
const Database = require(mod);
let out;
try {
    const db = new Database(file, { readonly: true, fileMustExist: true });
    const st = db.prepare(query);
    out = st.reader ? { header: st.columns().map(c => c.name), rows: st.raw(true).all() } : { error: 'query returns no rows (it is not a SELECT)' };
} catch (e) { out = { error: 'could not be read: ' + e.message }; }
process.stdout.write(JSON.stringify(out));
`;

function sqliteModulePath(): string {
    return createRequire(typeof __filename === 'string' ? __filename : import.meta.url).resolve('better-sqlite3');
}

/** Buffers (BLOBs) come back from JSON as { type: 'Buffer', data }. */
function revive(value: unknown): unknown {
    return value && typeof value === 'object' && (value as { type?: string }).type === 'Buffer'
        ? Buffer.from((value as { data: number[] }).data)
        : value;
}

type QueryRows = { header: string[]; rows: unknown[][] } | { problem: SourceProblem };

function runQueryBounded(file: string, query: string, budgetMs: number): QueryRows {
    const r = spawnSync(process.execPath, ['-e', CHILD, sqliteModulePath(), file, query], {
        timeout: budgetMs,
        killSignal: 'SIGKILL',
        maxBuffer: 512 * 1024 * 1024,
        encoding: 'utf8',
        env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
        windowsHide: true,
    });
    const seconds = `${Math.round(budgetMs / 100) / 10} s`;
    if ((r.error as NodeJS.ErrnoException | undefined)?.code === 'ETIMEDOUT' || r.signal === 'SIGKILL') {
        return {
            problem: {
                severity: 'error',
                code: CODE,
                lines: [],
                message: `query did not finish in ${seconds}; check it for a recursive CTE without an end or a join without a condition (raise the budget with HALLUPROBE_QUERY_TIMEOUT_MS)`,
            },
        };
    }
    if ((r.error as NodeJS.ErrnoException | undefined)?.code === 'ENOBUFS') {
        return {
            problem: {
                severity: 'error',
                code: CODE,
                lines: [],
                message: 'query returns more than 512 MB; select fewer rows or columns',
            },
        };
    }
    try {
        const out = JSON.parse(r.stdout) as { header: string[]; rows: unknown[][] } | { error: string };
        if ('error' in out) return { problem: { severity: 'error', code: CODE, lines: [], message: out.error } };
        return { header: out.header, rows: out.rows.map(row => row.map(revive)) };
    } catch {
        return {
            problem: {
                severity: 'error',
                code: CODE,
                lines: [],
                message: `could not be read (the query process ended: ${r.stderr.split('\n')[0] || r.status})`,
            },
        };
    }
}

/** Reads every row of a SQLite source, passing its values in column order (the added rowid removed). */
export function streamSqlite(source: SourceDecl, onRow: SqliteRowSink, signal?: AbortSignal, headerOnly = false): SqliteResult {
    const db = open(source);
    if (!(db instanceof Database)) return { header: [], problems: [db], complete: false };
    try {
        const prepared = prepare(db, source);
        if (!('statement' in prepared)) return { header: [], problems: [prepared], complete: false };
        const { statement, rowid } = prepared;
        if (!statement.reader)
            return {
                header: [],
                problems: [{ severity: 'error', code: CODE, lines: [], message: 'query returns no rows (it is not a SELECT)' }],
                complete: false,
            };
        const header = statement
            .columns()
            .map(c => c.name)
            .slice(rowid ? 1 : 0);
        if (headerOnly) return { header, problems: [], complete: true };
        if (source.query !== undefined) {
            const result = runQueryBounded(source.path, source.query, queryBudgetMs());
            if ('problem' in result) return { header: [], problems: [result.problem], complete: false };
            let line = 0;
            for (const row of result.rows) onRow(row, ++line);
            return { header: result.header, problems: [], complete: true };
        }
        let n = 0;
        for (const row of statement.raw(true).iterate() as IterableIterator<unknown[]>) {
            n++;
            if (n % 8192 === 0) signal?.throwIfAborted();
            if (rowid) onRow(row.slice(1), Number(row[0]));
            else onRow(row, n);
        }
        return { header, problems: [], complete: true };
    } catch (e) {
        if (signal?.aborted) throw e;
        return {
            header: [],
            problems: [{ severity: 'error', code: CODE, lines: [], message: `could not be read: ${(e as Error).message}` }],
            complete: false,
        };
    } finally {
        db.close();
    }
}
