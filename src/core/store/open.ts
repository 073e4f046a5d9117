/**
 * Opening a results store file: better-sqlite3 in WAL mode, migrated; a file that is not a store is the user's
 * input problem (a Problem with a remedy), not a crash.
 */
import { mkdirSync } from 'node:fs';
import * as path from 'node:path';
import Database from 'better-sqlite3';
import { migrate } from './migrations.js';
import { HalluProbeError, problem } from '../errors.js';

/** Opens (creating when new) and migrates the store file; returns the database and its schema version. */
export function openSqlite(file: string): { db: Database.Database; schemaVersion: number } {
    if (file !== ':memory:') mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    const db = openDatabase(file);
    try {
        db.pragma('journal_mode = WAL');
        // NORMAL in WAL mode: a committed answer survives the process being killed (not a power cut), and
        // commits stay cheap enough to make one per answer.
        db.pragma('synchronous = NORMAL');
        db.pragma('busy_timeout = 5000');
        return { db, schemaVersion: migrate(db) };
    } catch (e) {
        db.close();
        throw storeError(file, e);
    }
}

function openDatabase(file: string): Database.Database {
    try {
        return new Database(file);
    } catch (e) {
        throw storeError(file, e);
    }
}

/** A file that is not a results store (or cannot be opened) is the user's input problem, not a bug. */
function storeError(file: string, e: unknown): Error {
    const code = (e as { code?: string }).code ?? '';
    if (!/^SQLITE_(NOTADB|CORRUPT|CANTOPEN|READONLY|PERM|IOERR)/.test(code)) return e as Error;
    return new HalluProbeError(problem('bad-store', `${file} is not a HalluProbe results store (${(e as Error).message}).`,
        'Pass the results file with --db (by default .halluprobe/results.db beside the spec), or a new file name to start one.'));
}
