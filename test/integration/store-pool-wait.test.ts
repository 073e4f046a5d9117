/**
 * The PostgreSQL store on a busy server (issue 40): a statement that gets no connection of its pool in time waits
 * and is made again, as when the server went away, instead of ending the run with an internal error (a shared-run
 * soak on a loaded machine lost a worker so, exit 70); and the server ends a store session left idle inside a
 * transaction, so a worker paused mid-transaction cannot hold the others' locks. Against the PostgreSQL the test
 * starts; the test waits on the pool's own queue, never on a fixed delay.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { startPostgres, type PostgresServer } from '../support/postgres.js';
import { openPostgres } from '../../src/core/store/postgres.js';
import { IDLE_IN_TRANSACTION_MS, postgresSql } from '../../src/core/store/sql.js';

let db: PostgresServer | undefined;
before(async () => {
    db = await startPostgres();
    if (db) process.env.PGPASSWORD = db.password;
});
after(() => db?.stop());

/** Resolves once `check` holds, looking every few milliseconds. */
async function until(check: () => boolean): Promise<void> {
    while (!check()) await new Promise(r => setImmediate(r));
}

test("a statement that waited past the pool's connection timeout is made again once a connection is free", async t => {
    if (!db) {
        t.skip('PostgreSQL is not installed');
        return;
    }
    db.createDatabase('poolwait');
    const pool = new pg.Pool({ connectionString: db.url('poolwait'), max: 1, connectionTimeoutMillis: 1_000 });
    pool.on('error', () => undefined);
    const sql = postgresSql(pool, 20_000);
    const held = await pool.connect();
    try {
        let settled = false;
        const answer = sql.get<{ one: number }>('SELECT 1 AS one').finally(() => {
            settled = true;
        });
        answer.catch(() => undefined);
        // The statement queues for the pool's one connection, times out, and queues again: then the connection is
        // freed. (A statement that is not made again settles, with the pool's timeout, and is seen below.)
        let queued = 0,
            wasQueued = false;
        await until(() => {
            if (settled) return true;
            const now = pool.waitingCount > 0;
            if (now && !wasQueued) queued++;
            wasQueued = now;
            return queued >= 2;
        });
        held.release();
        assert.deepEqual(await answer, { one: 1 });
    } finally {
        await pool.end();
    }
});

test("the store's sessions are ended by the server when idle inside a transaction", async t => {
    if (!db) {
        t.skip('PostgreSQL is not installed');
        return;
    }
    db.createDatabase('idletx');
    const { sql } = await openPostgres(db.url('idletx'));
    try {
        const row = await sql.get<{ idle_in_transaction_session_timeout: string }>('SHOW idle_in_transaction_session_timeout');
        assert.equal(row?.idle_in_transaction_session_timeout, `${IDLE_IN_TRANSACTION_MS / 1000}s`);
    } finally {
        await sql.close();
    }
});
