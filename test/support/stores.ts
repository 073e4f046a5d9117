/**
 * The results store's two engines for one parameterised test suite: a SQLite file in a temporary folder, and a
 * database on a real PostgreSQL server started for the test file (test/support/postgres.ts), a fresh database
 * per store so tests do not see each other's runs. `rows` reads a table the way another process would: a second
 * connection, not the store under test.
 */
import * as path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { openStore, type Store } from '../../src/core/store/index.js';
import { startPostgres, type PostgresServer } from './postgres.js';
import { tempDir } from './temp.js';

export interface StoreEngine {
    name: 'sqlite' | 'postgres';
    /** A new, empty store; `where` opens it again. */
    fresh(): Promise<{ store: Store; where: string }>;
    open(where: string): Promise<Store>;
    /** Rows of a query on a second connection (SQL with `?` parameters, as the store writes it). */
    rows<T = Record<string, unknown>>(where: string, sql: string, params?: unknown[]): Promise<T[]>;
    /** Runs a statement on a second connection (what another process, or a crash, leaves behind). */
    exec(where: string, sql: string, params?: unknown[]): Promise<void>;
    stop(): Promise<void>;
}

export function sqliteEngine(): StoreEngine {
    return {
        name: 'sqlite',
        fresh: async () => {
            const where = path.join(tempDir('hp-store-'), 'sub', 'results.db');
            return { store: await openStore(where), where };
        },
        open: where => openStore(where),
        rows: async <T>(where: string, sql: string, params: unknown[] = []) => {
            const db = new Database(where, { readonly: true });
            try {
                return db.prepare(sql).all(...params) as T[];
            } finally {
                db.close();
            }
        },
        exec: async (where, sql, params = []) => {
            const db = new Database(where);
            try {
                db.prepare(sql).run(...params);
            } finally {
                db.close();
            }
        },
        stop: async () => undefined,
    };
}

/** PostgreSQL, started on first use; PGPASSWORD is set for the stores (the URL never holds it). */
export function postgresEngine(): StoreEngine {
    let server: PostgresServer | undefined;
    let started: Promise<PostgresServer | undefined> | undefined;
    let n = 0;
    const up = async () => {
        started ??= startPostgres();
        server = await started;
        if (!server) throw new Error('PostgreSQL is not installed here');
        process.env.PGPASSWORD = server.password;
        return server;
    };
    const engine: StoreEngine = {
        name: 'postgres',
        fresh: async () => {
            const s = await up();
            const db = `store_${process.pid}_${++n}`;
            s.createDatabase(db);
            const where = s.url(db);
            return { store: await openStore(where), where };
        },
        open: async where => {
            await up();
            return openStore(where);
        },
        rows: async <T>(where: string, sql: string, params: unknown[] = []) => query<T>(where, sql, params),
        exec: async (where, sql, params = []) => {
            await query(where, sql, params);
        },
        stop: async () => {
            server?.stop();
            delete process.env.PGPASSWORD;
        },
    };
    async function query<T>(where: string, sql: string, params: unknown[]): Promise<T[]> {
        const s = await up();
        const u = new URL(where);
        const client = new pg.Client({
            host: u.hostname,
            port: Number(u.port),
            user: u.username,
            database: u.pathname.slice(1),
            password: s.password,
        });
        await client.connect();
        try {
            let i = 0;
            return (
                await client.query(
                    sql.replace(/\?/g, () => `$${++i}`),
                    params,
                )
            ).rows as T[];
        } finally {
            await client.end();
        }
    }
    return engine;
}
