/**
 * The results store's tables on a PostgreSQL server: the same schema as the SQLite file (numbered migrations,
 * recorded in `migrations`, applied under an advisory lock so two machines starting at once do not race),
 * connected with the password rules of sources (`password_env`, a saved password, PGPASSWORD, ~/.pgpass; never a
 * password in the URL). What this module offers today is the schema and copying runs between stores
 * (`halluprobe store copy`); runs are asked against a SQLite store.
 */
import type pg from 'pg';
import { connect } from '../data/postgres.js';
import { HalluProbeError, problem } from '../errors.js';

const PG_MIGRATIONS: { version: number; name: string; sql: string }[] = [
    {
        version: 1,
        name: 'runs, questions, calls, cache, responses, verdicts',
        sql: `
CREATE TABLE runs (id TEXT PRIMARY KEY, spec TEXT NOT NULL, suite TEXT NOT NULL, started TEXT NOT NULL, finished TEXT, status TEXT NOT NULL, settings TEXT NOT NULL);
CREATE INDEX runs_spec_suite ON runs(spec, suite, started);
CREATE TABLE questions (run TEXT NOT NULL REFERENCES runs(id), id TEXT NOT NULL, seq INTEGER NOT NULL, probe TEXT NOT NULL, kind TEXT NOT NULL,
    phrasing TEXT NOT NULL, json TEXT NOT NULL, PRIMARY KEY (run, id));
CREATE TABLE calls (id BIGSERIAL PRIMARY KEY, run TEXT NOT NULL, question TEXT NOT NULL, model TEXT NOT NULL, sample INTEGER NOT NULL, hash TEXT NOT NULL,
    params TEXT NOT NULL, latency_ms DOUBLE PRECISION, tokens_in BIGINT NOT NULL DEFAULT 0, tokens_out BIGINT NOT NULL DEFAULT 0,
    cost DOUBLE PRECISION NOT NULL DEFAULT 0, attempts INTEGER NOT NULL DEFAULT 1, status TEXT NOT NULL, error TEXT, at TEXT NOT NULL);
CREATE INDEX calls_run ON calls(run, question, model, sample);
CREATE TABLE cache (hash TEXT PRIMARY KEY, text TEXT NOT NULL, tokens_in BIGINT NOT NULL, tokens_out BIGINT NOT NULL, finish_reason TEXT NOT NULL,
    latency_ms DOUBLE PRECISION, created TEXT NOT NULL);
CREATE TABLE responses (run TEXT NOT NULL, question TEXT NOT NULL, model TEXT NOT NULL, sample INTEGER NOT NULL, text TEXT NOT NULL, cached INTEGER NOT NULL,
    call BIGINT, PRIMARY KEY (run, question, model, sample));
CREATE TABLE verdicts (run TEXT NOT NULL, question TEXT NOT NULL, model TEXT NOT NULL, sample INTEGER NOT NULL, answer TEXT NOT NULL, correct INTEGER NOT NULL,
    rationale INTEGER NOT NULL, json TEXT NOT NULL, PRIMARY KEY (run, question, model, sample));
`,
    },
    {
        version: 2,
        name: 'verdict overrides and question-group verdicts',
        sql: `
CREATE TABLE verdict_overrides (run TEXT NOT NULL, question TEXT NOT NULL, model TEXT NOT NULL, sample INTEGER NOT NULL, correct INTEGER, rationale INTEGER,
    "by" TEXT NOT NULL, at TEXT NOT NULL, why TEXT NOT NULL, PRIMARY KEY (run, question, model, sample));
CREATE TABLE group_verdicts (run TEXT NOT NULL, grp TEXT NOT NULL, model TEXT NOT NULL, sample INTEGER NOT NULL, relation TEXT NOT NULL, probe TEXT NOT NULL,
    outcome TEXT NOT NULL, ok INTEGER, json TEXT NOT NULL, PRIMARY KEY (run, grp, model, sample));
`,
    },
    {
        version: 3,
        name: 'run leases: one writer per run',
        sql: 'CREATE TABLE run_leases (run TEXT PRIMARY KEY, token TEXT NOT NULL, pid INTEGER NOT NULL, host TEXT NOT NULL, started TEXT NOT NULL, heartbeat BIGINT NOT NULL);',
    },
    {
        version: 4,
        name: 'provider batches of a run and the slots each holds',
        sql: `
CREATE TABLE batches (local TEXT PRIMARY KEY, run TEXT NOT NULL, model TEXT NOT NULL, id TEXT, input_file TEXT NOT NULL, status TEXT NOT NULL,
    output_file TEXT, error_file TEXT, requests INTEGER NOT NULL, done INTEGER NOT NULL DEFAULT 0, failed INTEGER NOT NULL DEFAULT 0,
    created TEXT NOT NULL, updated TEXT NOT NULL, collected INTEGER NOT NULL DEFAULT 0);
CREATE INDEX batches_run ON batches(run, model);
CREATE TABLE batch_slots (batch TEXT NOT NULL, custom_id TEXT NOT NULL, run TEXT NOT NULL, question TEXT NOT NULL, model TEXT NOT NULL, sample INTEGER NOT NULL,
    hash TEXT NOT NULL, attempt INTEGER NOT NULL, PRIMARY KEY (batch, custom_id));
CREATE INDEX batch_slots_slot ON batch_slots(run, model, question, sample);
`,
    },
];

/** A store URL rather than a file name. */
export { isPostgresUrl } from '../data/postgres-url.js';

/** Brings the server's tables up to the last migration; returns the schema version. */
export async function migratePostgres(client: pg.Client): Promise<number> {
    await client.query('BEGIN');
    try {
        // One migrator at a time across machines (the number is "hp" + "store").
        await client.query('SELECT pg_advisory_xact_lock(4812345678)');
        await client.query('CREATE TABLE IF NOT EXISTS migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied TEXT NOT NULL)');
        const done = new Set((await client.query<{ version: number }>('SELECT version FROM migrations')).rows.map(r => r.version));
        for (const m of PG_MIGRATIONS) {
            if (done.has(m.version)) continue;
            await client.query(m.sql);
            await client.query('INSERT INTO migrations (version, name, applied) VALUES ($1, $2, $3)', [m.version, m.name, new Date().toISOString()]);
        }
        await client.query('COMMIT');
    } catch (e) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw e;
    }
    return PG_MIGRATIONS.at(-1)!.version;
}

/** Connects to a PostgreSQL results store (password rules of sources) and migrates it. */
export async function openPostgresStore(url: string, passwordEnv?: string): Promise<pg.Client> {
    const client = await connect({ path: url, settings: passwordEnv ? { password_env: passwordEnv } : {} });
    if (!('query' in client)) throw new HalluProbeError(problem('bad-store', `PostgreSQL results store: ${client.message}.`, 'Pass --db postgres://user@host/database with the password in PGPASSWORD (or ~/.pgpass).'));
    try {
        await migratePostgres(client);
        return client;
    } catch (e) {
        await client.end().catch(() => undefined);
        throw e;
    }
}
