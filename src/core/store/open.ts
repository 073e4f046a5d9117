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
        const schemaVersion = migrate(db);
        // A damaged page in the middle is otherwise found only by the query that reads it, mid-run.
        if (file !== ':memory:') checkIntegrity(db, file);
        return { db, schemaVersion };
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

/** `PRAGMA quick_check`: a store with a damaged page is refused when it is opened, not half-way through a run. */
function checkIntegrity(db: Database.Database, file: string): void {
    const result = db.pragma('quick_check', { simple: true });
    if (result === 'ok') return;
    throw new HalluProbeError(
        problem(
            'bad-store',
            `${file} is damaged (${String(result)}).`,
            'Restore it from a copy, or recover what it holds with `sqlite3 FILE .recover | sqlite3 NEW`, or pass --db with a new file to start again.',
        ),
    );
}

/** A file that is not a results store (or cannot be opened) is the user's input problem, not a bug. */
function storeError(file: string, e: unknown): Error {
    if (e instanceof HalluProbeError) return e;
    const code = (e as { code?: string }).code ?? '';
    if (/^SQLITE_(READONLY|PERM)|^SQLITE_CANTOPEN/.test(code) || /EACCES|EROFS|EPERM/.test(code)) {
        return new HalluProbeError(
            problem(
                'store-unwritable',
                `${file} cannot be written (${(e as Error).message}).`,
                'Make the file and its folder writable (a read-only disk or mount cannot hold results), or pass --db with a file in a writable folder.',
            ),
        );
    }
    if (/^SQLITE_FULL|ENOSPC|EDQUOT/.test(code))
        return new HalluProbeError(
            problem(
                'disk-full',
                `the disk holding ${file} is full (${(e as Error).message}).`,
                'Free some space (or pass --db on another disk) and run again: what was stored is kept.',
            ),
        );
    if (!/^SQLITE_(NOTADB|CORRUPT|CANTOPEN|READONLY|PERM|IOERR)/.test(code)) return e as Error;
    return new HalluProbeError(
        problem(
            'bad-store',
            `${file} is not a HalluProbe results store (${(e as Error).message}).`,
            'Pass the results file with --db (by default .halluprobe/results.db beside the spec), or a new file name to start one.',
        ),
    );
}
