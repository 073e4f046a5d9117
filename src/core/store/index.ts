/**
 * The store room's front door: one results store (`Store`, types.ts), on a SQLite file or a PostgreSQL server.
 * `openStore` takes either a file name or a postgres:// URL; `SqliteStore` opens a file without waiting (tests,
 * `store copy`). No SQL leaves this room.
 */
import type Database from 'better-sqlite3';
import { isPostgresUrl, safeUrl } from '../data/postgres-url.js';
import { openSqlite } from './open.js';
import { openPostgres } from './postgres.js';
import { sqliteSql } from './sql.js';
import { CACHE_COLUMNS, SqlStore } from './store.js';
import type { CacheEntry, Store } from './types.js';

export { leaseMessage, LEASE_STALE_MS } from './lease.js';
export * from './types.js';
export { isPostgresUrl, shownStore } from '../data/postgres-url.js';
export { copyStore } from './copy.js';

/** A results file, opened (created and migrated when new) at once. */
export class SqliteStore extends SqlStore {
    /** The file's connection, for what only SQLite has (copying a run out of it, tests). */
    readonly db: Database.Database;

    constructor(readonly file: string) {
        const { db, schemaVersion } = openSqlite(file);
        super(sqliteSql(db), file, schemaVersion);
        this.db = db;
    }

    /** A file's cache is read at once (a read never waits for a write on the same connection). */
    override cacheReader(): (hash: string) => CacheEntry | undefined {
        const get = this.db.prepare(`SELECT ${CACHE_COLUMNS} FROM cache WHERE hash = ?`);
        return hash => {
            const r = get.get(hash) as (CacheEntry & { hash: string }) | undefined;
            if (!r) return undefined;
            const { hash: _hash, ...entry } = r;
            return entry;
        };
    }
}

export interface OpenStoreOptions {
    /** A server store: the environment variable holding its password (else a saved password, PGPASSWORD, ~/.pgpass). */
    passwordEnv?: string;
}

/** Opens the results store at `where`: a file (created when new) or a postgres:// URL (its tables made when new). */
export async function openStore(where: string, options: OpenStoreOptions = {}): Promise<Store> {
    if (!isPostgresUrl(where)) return new SqliteStore(where);
    const { sql, schemaVersion } = await openPostgres(where, options.passwordEnv);
    return new SqlStore(sql, safeUrl(where), schemaVersion);
}
