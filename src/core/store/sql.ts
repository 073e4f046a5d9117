/**
 * The one door from the store's tables to a database engine: a few promise-returning statements and transactions,
 * the same on a SQLite file (better-sqlite3) and a PostgreSQL server (a `pg` pool). Every table module writes its
 * SQL once, in the dialect both engines share (`?` parameters, `INSERT … ON CONFLICT`, `RETURNING`); where they
 * differ (a clock, a row order, a lock) the module asks `dialect`.
 *
 * SQLite is synchronous: each statement, and each transaction as a whole, runs under one queue per file in this
 * process, shared by every connection to that file. Two workers' transactions never interleave on a connection
 * (an awaited statement of one would otherwise land inside the other's BEGIN … COMMIT), and a second connection
 * never waits for the file's lock while the first one's transaction waits for its turn on the same event loop
 * (SQLite's busy wait would block that loop: a deadlock). A transaction's function must only await its `tx` —
 * never the network — so the queue is never held for long.
 */
import * as path from 'node:path';
import type Database from 'better-sqlite3';
import type pg from 'pg';

export type Row = Record<string, unknown>;
export type Param = string | number | bigint | null | boolean;

export interface Sql {
    readonly dialect: 'sqlite' | 'postgres';
    all<T = Row>(sql: string, params?: readonly Param[]): Promise<T[]>;
    get<T = Row>(sql: string, params?: readonly Param[]): Promise<T | undefined>;
    /** Runs a statement; `changes` is the number of rows it wrote. */
    run(sql: string, params?: readonly Param[]): Promise<{ changes: number }>;
    /**
     * Runs `fn` in one transaction on one connection (inside a transaction already: in that one). `exclusive`: no
     * other exclusive transaction, from any process, runs at the same time (SQLite: BEGIN IMMEDIATE; PostgreSQL: an
     * advisory lock held until the commit) — choosing or creating a run is atomic across machines.
     */
    transaction<T>(fn: (tx: Sql) => Promise<T>, exclusive?: boolean): Promise<T>;
    close(): Promise<void>;
}

/** Milliseconds since 1970 on the database's own clock (one clock for every machine sharing a server). */
export function nowMs(sql: Sql): string {
    return sql.dialect === 'postgres'
        ? '(EXTRACT(EPOCH FROM clock_timestamp()) * 1000)::BIGINT'
        : "CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)";
}

/** `(?, ?, …), (?, ?, …)` for `rows` rows of `columns` values. */
function valuesList(rows: number, columns: number): string {
    const one = `(${Array.from({ length: columns }, () => '?').join(', ')})`;
    return Array.from({ length: rows }, () => one).join(', ');
}

/** Rows per multi-row INSERT: far below both engines' parameter limits (SQLite 32,766, PostgreSQL 65,535). */
const ROWS_PER_INSERT = 200;

/**
 * Inserts `rows` with a few multi-row statements (`tail`: an ON CONFLICT clause). One round trip per 200 rows
 * rather than per row matters on a server; the caller brings the transaction.
 */
export async function insertMany(
    sql: Sql,
    head: string,
    columns: number,
    rows: readonly (readonly Param[])[],
    tail = '',
): Promise<number> {
    let changes = 0;
    for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
        const part = rows.slice(i, i + ROWS_PER_INSERT);
        changes += (await sql.run(`${head} VALUES ${valuesList(part.length, columns)} ${tail}`, part.flat())).changes;
    }
    return changes;
}

/** A queue of one: each holder runs alone, in the order they asked. */
class Turns {
    private last: Promise<unknown> = Promise.resolve();

    take<T>(fn: () => T | Promise<T>): Promise<T> {
        const next = this.last.then(fn, fn);
        this.last = next.catch(() => undefined);
        return next;
    }
}

const sqliteParams = (params: readonly Param[]) => params.map(p => (typeof p === 'boolean' ? (p ? 1 : 0) : p));

/** One queue per file for every connection of this process (`:memory:` databases are each their own). */
const fileTurns = new Map<string, Turns>();

/** better-sqlite3 behind the promise door; statements prepared once per text. */
export function sqliteSql(db: Database.Database): Sql & { readonly db: Database.Database } {
    const file = path.resolve(db.name);
    const turns = db.memory ? new Turns() : (fileTurns.get(file) ?? new Turns());
    if (!db.memory) fileTurns.set(file, turns);
    const prepared = new Map<string, Database.Statement>();
    const stmt = (text: string) => {
        let s = prepared.get(text);
        if (!s) {
            s = db.prepare(text);
            prepared.set(text, s);
        }
        return s;
    };
    // Runs the statements at once: only ever called holding the turn (or inside the transaction holding it).
    const direct = (inTx: boolean): Sql => ({
        dialect: 'sqlite',
        all: async <T>(text: string, params: readonly Param[] = []) => stmt(text).all(...sqliteParams(params)) as T[],
        get: async <T>(text: string, params: readonly Param[] = []) => stmt(text).get(...sqliteParams(params)) as T | undefined,
        run: async (text, params = []) => {
            const s = stmt(text);
            // A statement with RETURNING reads rows; `changes` is then how many came back.
            if (s.reader) return { changes: s.all(...sqliteParams(params)).length };
            return { changes: s.run(...sqliteParams(params)).changes };
        },
        transaction: async (fn, exclusive) => (inTx ? fn(direct(true)) : begin(fn, exclusive)),
        close: async () => undefined,
    });
    const inside = direct(false);
    async function begin<T>(fn: (tx: Sql) => Promise<T>, _exclusive?: boolean): Promise<T> {
        // IMMEDIATE always: a write transaction that starts as a reader can fail to upgrade (SQLITE_BUSY) mid-way.
        db.exec('BEGIN IMMEDIATE');
        try {
            const out = await fn(direct(true));
            db.exec('COMMIT');
            return out;
        } catch (e) {
            if (db.inTransaction) db.exec('ROLLBACK');
            throw e;
        }
    }
    return {
        dialect: 'sqlite',
        db,
        all: (text, params) => turns.take(() => inside.all(text, params)),
        get: (text, params) => turns.take(() => inside.get(text, params)),
        run: (text, params) => turns.take(() => inside.run(text, params)),
        transaction: (fn, exclusive) => turns.take(() => begin(fn, exclusive)),
        close: async () =>
            turns.take(() => {
                if (db.open) db.close();
            }),
    };
}

/** `?` → `$1, $2, …` (the store's SQL never holds a `?` inside a string literal). */
function numbered(text: string): string {
    let n = 0;
    return text.replace(/\?/g, () => `$${++n}`);
}

const query = (q: pg.Pool | pg.PoolClient, c: pg.QueryConfig | string) => (typeof c === 'string' ? q.query(c) : q.query(c));

/** One number for the store's advisory lock on a server ("hp" + "store"). */
const EXCLUSIVE_LOCK = 4812345678;

/** Statements kept prepared on each connection (by name); texts past this many are sent unnamed. */
const NAMED_STATEMENTS = 256;

/** How long a statement waits for a server that went away (a restart, a failover) before it fails, by default. */
const RECONNECT_MS = Number(process.env.HALLUPROBE_STORE_RECONNECT_MS ?? 60_000);

/**
 * The server went away under a statement (it is shutting down or restarting, or the connection broke), does not
 * take connections yet, or no connection of the pool came free in time (the others wait on a lock, or the machine
 * is busy): the statement did not commit, or never started, and is made again on a new connection. Errors with a
 * SQLSTATE of class 57P (operator intervention) or 08 (connection exception), a session ended for idling in a
 * transaction (25P03), refused or reset sockets, pg's own "Connection terminated" and the pool's "timeout exceeded
 * when trying to connect".
 */
function serverGone(e: unknown): boolean {
    const code = String((e as { code?: unknown })?.code ?? '');
    if (/^57P0[123]$|^08...$|^25P03$|^ECONNREFUSED$|^ECONNRESET$|^EPIPE$|^ETIMEDOUT$|^EHOSTUNREACH$/.test(code)) return true;
    return (
        e instanceof Error &&
        /^Connection terminated|not queryable|Connection ended|^timeout exceeded when trying to connect/i.test(e.message)
    );
}

/**
 * A store connection idle inside a transaction this long is ended by the server, so its locks are let go: a worker
 * paused mid-transaction (a laptop put to sleep, a process stopped) cannot hold every other worker of a shared run
 * back. A live worker's transactions are a few statements with no wait between them. Shorter than RECONNECT_MS,
 * so the others, waiting on its locks, are still trying when they are freed.
 */
export const IDLE_IN_TRANSACTION_MS = 30_000;

/** The store's server stayed away past the reconnect time: an ordinary problem (errors.ts), the run holds its answers. */
class StoreUnreachable extends Error {
    readonly code = 'STORE_UNREACHABLE';
    constructor(ms: number, cause: unknown) {
        super(
            `the results store's server did not come back within ${Math.round(ms / 1000)} s (${cause instanceof Error ? cause.message : String(cause)})`,
        );
    }
}

/**
 * Makes `fn` again on a new connection while the server is gone (serverGone), waiting 100 ms, then twice as long
 * each time up to 2 s, for at most `reconnectMs`; then StoreUnreachable. A connection that broke after the server
 * committed and before it said so (a crash, not a shutdown: a shutdown answers the statement first) is the one case
 * where a write is made twice.
 */
async function reconnecting<T>(fn: () => Promise<T>, reconnectMs: number): Promise<T> {
    const until = Date.now() + reconnectMs;
    for (let wait = 100; ; wait = Math.min(2 * wait, 2_000)) {
        try {
            return await fn();
        } catch (e) {
            if (!serverGone(e)) throw e;
            if (Date.now() >= until) throw new StoreUnreachable(reconnectMs, e);
            await new Promise(r => setTimeout(r, Math.min(wait, Math.max(0, until - Date.now()))));
        }
    }
}

/**
 * A `pg` pool (or, inside a transaction, its one client) behind the promise door. A statement or a transaction the
 * server dropped because it went away is made again once it is back (`reconnecting`), so a server restarting
 * mid-run costs a wait, not the run.
 */
export function postgresSql(pool: pg.Pool, reconnectMs = RECONNECT_MS): Sql {
    // Each statement is parsed and planned once per connection, not once per call: most calls are a few rows.
    const configs = new Map<string, { name?: string; text: string }>();
    const config = (t: string, params: readonly Param[]): pg.QueryConfig | string => {
        // Without parameters pg sends a simple query, which may hold several statements (a migration).
        if (params.length === 0) return t;
        let c = configs.get(t);
        if (!c) {
            c = configs.size < NAMED_STATEMENTS ? { name: `hp${configs.size}`, text: numbered(t) } : { text: numbered(t) };
            if (c.name) configs.set(t, c);
        }
        return { ...c, values: params as Param[] };
    };
    // Outside a transaction each statement is made again if the server went away under it; inside one, the
    // whole transaction is (its function only awaits its tx, so it can run again).
    const again = <T>(inTx: boolean, fn: () => Promise<T>) => (inTx ? fn() : reconnecting(fn, reconnectMs));
    const over = (q: pg.Pool | pg.PoolClient, inTx: boolean): Sql => ({
        dialect: 'postgres',
        all: async <T>(t: string, params: readonly Param[] = []) =>
            again(inTx, async () => (await query(q, config(t, params))).rows as T[]),
        get: async <T>(t: string, params: readonly Param[] = []) =>
            again(inTx, async () => (await query(q, config(t, params))).rows[0] as T | undefined),
        run: async (t, params = []) => again(inTx, async () => ({ changes: (await query(q, config(t, params))).rowCount ?? 0 })),
        transaction: async (fn, exclusive) => {
            if (inTx) return fn(over(q, true));
            return again(false, () => inTransaction(fn, exclusive));
        },
        close: async () => {
            if (!inTx) await pool.end();
        },
    });
    async function inTransaction<T>(fn: (tx: Sql) => Promise<T>, exclusive?: boolean): Promise<T> {
        const client = await pool.connect();
        let broken = false;
        try {
            await client.query('BEGIN');
            if (exclusive) await client.query('SELECT pg_advisory_xact_lock($1)', [EXCLUSIVE_LOCK]);
            const out = await fn(over(client, true));
            await client.query('COMMIT');
            return out;
        } catch (e) {
            broken = serverGone(e);
            if (!broken) await client.query('ROLLBACK').catch(() => undefined);
            throw e;
        } finally {
            // A connection the server dropped is closed, not given back to the pool.
            client.release(broken);
        }
    }
    return over(pool, false);
}
