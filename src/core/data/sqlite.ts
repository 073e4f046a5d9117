/**
 * Reading a SQLite source (a table or a query) with better-sqlite3, read-only and row by row. A row's line is
 * its rowid for a table (what `SELECT rowid` shows the user) and its 1-based position for a query.
 */
import Database from 'better-sqlite3';
import type { SourceDecl } from '../spec/model.js';
import type { FormatProblem } from './csv.js';
import { closest } from '../language/validation/suggest.js';

export interface SqliteResult { header: string[]; problems: FormatProblem[]; complete: boolean }
export type SqliteRowSink = (values: unknown[], line: number) => void;

const quoteName = (name: string) => `"${name.replace(/"/g, '""')}"`;

function open(source: SourceDecl): Database.Database | FormatProblem {
    try {
        return new Database(source.path, { readonly: true, fileMustExist: true });
    } catch (e) {
        return { severity: 'error', lines: [], message: `could not be opened as an SQLite database: ${(e as Error).message}` };
    }
}

/** The statement that reads the source, and whether its first column is the rowid we added. */
function prepare(db: Database.Database, source: SourceDecl): { statement: Database.Statement; rowid: boolean } | FormatProblem {
    try {
        if (source.query !== undefined) return { statement: db.prepare(source.query), rowid: false };
        if (source.table === undefined) return { severity: 'error', lines: [], message: 'needs `table "name"` or `query "select …"` to say which rows to read' };
        try {
            return { statement: db.prepare(`SELECT rowid AS "halluprobe rowid", * FROM ${quoteName(source.table)}`), rowid: true };
        } catch {
            // Views and WITHOUT ROWID tables have no rowid: fall back to row numbers.
            return { statement: db.prepare(`SELECT * FROM ${quoteName(source.table)}`), rowid: false };
        }
    } catch (e) {
        const message = (e as Error).message;
        if (source.table !== undefined && /no such table/.test(message)) {
            const tables = (db.prepare(`SELECT name FROM sqlite_master WHERE type IN ('table', 'view') ORDER BY name`).pluck().all() as string[]);
            const guess = closest(source.table, tables);
            return { severity: 'error', lines: [], message: `has no table '${source.table}'${guess ? `; did you mean '${guess}'?` : ''} Its tables: ${tables.join(', ') || '(none)'}` };
        }
        return { severity: 'error', lines: [], message: `query failed: ${message}` };
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
        if (!statement.reader) return { header: [], problems: [{ severity: 'error', lines: [], message: 'query returns no rows (it is not a SELECT)' }], complete: false };
        const header = statement.columns().map(c => c.name).slice(rowid ? 1 : 0);
        if (headerOnly) return { header, problems: [], complete: true };
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
        return { header: [], problems: [{ severity: 'error', lines: [], message: `could not be read: ${(e as Error).message}` }], complete: false };
    } finally {
        db.close();
    }
}
