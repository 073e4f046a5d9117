/**
 * The declared schema of a SQLite file — tables, column types, primary keys, unique indexes and foreign
 * keys — read with `pragma table_info`, `pragma index_list` / `index_info` and `pragma foreign_key_list`.
 * Here because SQL stays in the source readers; `src/core/schema/import.ts` turns it into a spec.
 */
import Database from 'better-sqlite3';
import type { ScalarType } from '../spec/model.js';

interface DeclaredColumn {
    name: string;
    type: ScalarType;
    declared: string;
    notNull: boolean;
}
interface DeclaredForeignKey {
    columns: string[];
    table: string;
    refColumns: string[];
}
export interface DeclaredTable {
    name: string;
    columns: DeclaredColumn[];
    /** The primary key first (if any), then each unique constraint or unique index, in column order. */
    keys: string[][];
    foreignKeys: DeclaredForeignKey[];
    rowCount: number;
}

const quoteName = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** SQLite's type affinity rules (https://sqlite.org/datatype3.html §3.1), with bool and date kept apart. */
function sqliteScalar(declared: string): ScalarType {
    const t = declared.toUpperCase();
    if (/BOOL/.test(t)) return 'bool';
    if (/INT/.test(t)) return 'int';
    if (/CHAR|CLOB|TEXT/.test(t)) return 'text';
    if (/^DATE$/.test(t.trim())) return 'date';
    if (/REAL|FLOA|DOUB|NUMERIC|DECIMAL/.test(t)) return 'real';
    return 'text';
}

interface TableInfoRow {
    name: string;
    type: string;
    notnull: number;
    pk: number;
}
interface IndexListRow {
    name: string;
    unique: number;
    origin: string;
    partial: number;
}
interface ForeignKeyRow {
    id: number;
    seq: number;
    table: string;
    from: string;
    to: string | null;
}

/** Every ordinary table of a SQLite file (not sqlite_* internals), or an Error saying why it cannot be read. */
export function readSqliteSchema(file: string): DeclaredTable[] | Error {
    let db: Database.Database;
    try {
        db = new Database(file, { readonly: true, fileMustExist: true });
    } catch (e) {
        return new Error(`could not be opened as an SQLite database: ${(e as Error).message}`);
    }
    try {
        const names = db
            .prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`)
            .pluck()
            .all() as string[];
        return names.map(name => describeTable(db, name));
    } catch (e) {
        return new Error(`could not be read as an SQLite database: ${(e as Error).message}`);
    } finally {
        db.close();
    }
}

function describeTable(db: Database.Database, name: string): DeclaredTable {
    const info = db.prepare(`PRAGMA table_info(${quoteName(name)})`).all() as TableInfoRow[];
    const columns = info.map(c => ({
        name: c.name,
        type: sqliteScalar(c.type),
        declared: c.type,
        notNull: c.notnull === 1 || c.pk > 0,
    }));
    const keys: string[][] = [];
    const primary = info
        .filter(c => c.pk > 0)
        .sort((a, b) => a.pk - b.pk)
        .map(c => c.name);
    if (primary.length > 0) keys.push(primary);
    for (const index of db.prepare(`PRAGMA index_list(${quoteName(name)})`).all() as IndexListRow[]) {
        if (index.unique !== 1 || index.partial === 1 || index.origin === 'pk') continue;
        const cols = (db.prepare(`PRAGMA index_info(${quoteName(index.name)})`).all() as { name: string | null }[]).map(
            c => c.name,
        );
        if (cols.some(c => c === null)) continue; // an index on an expression is not a key of columns
        if (!keys.some(k => k.join('\u0000') === cols.join('\u0000'))) keys.push(cols as string[]);
    }
    const byId = new Map<number, ForeignKeyRow[]>();
    for (const row of db.prepare(`PRAGMA foreign_key_list(${quoteName(name)})`).all() as ForeignKeyRow[]) {
        byId.set(row.id, [...(byId.get(row.id) ?? []), row]);
    }
    const foreignKeys = [...byId.values()].map(rows => {
        rows.sort((a, b) => a.seq - b.seq);
        const table = rows[0]!.table;
        // `REFERENCES t` without columns means t's primary key.
        const refPrimary = rows.some(r => r.to === null) ? primaryKeyOf(db, table) : [];
        return { columns: rows.map(r => r.from), table, refColumns: rows.map((r, i) => r.to ?? refPrimary[i]!) };
    });
    const rowCount = Number(
        db
            .prepare(`SELECT count(*) FROM ${quoteName(name)}`)
            .pluck()
            .get(),
    );
    return { name, columns, keys, foreignKeys, rowCount };
}

function primaryKeyOf(db: Database.Database, table: string): string[] {
    const info = db.prepare(`PRAGMA table_info(${quoteName(table)})`).all() as TableInfoRow[];
    return info
        .filter(c => c.pk > 0)
        .sort((a, b) => a.pk - b.pk)
        .map(c => c.name);
}
