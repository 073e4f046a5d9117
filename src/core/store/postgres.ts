/**
 * The results store on a PostgreSQL server: the same schema as the SQLite file (numbered migrations, recorded in
 * `migrations`, applied under an advisory lock so two machines starting at once do not race), reached through a
 * `pg` pool with the password rules of sources (`password_env`, a saved password, PGPASSWORD, ~/.pgpass; never a
 * password in the URL, and the URL only ever shown redacted).
 */
import * as fs from 'node:fs';
import pg from 'pg';
import { clientConfig, connectionProblem } from '../data/postgres.js';
import { passwordPlace, safeUrl } from '../data/postgres-url.js';
import { HalluProbeError, problem } from '../errors.js';
import { IDLE_IN_TRANSACTION_MS, postgresSql, type Sql } from './sql.js';
import { REVIEW_LABELS_SQL } from './labels.js';
import { QUESTION_FACTS_SQL } from './facts.js';

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
    {
        version: 5,
        name: 'questions read back in order by seq',
        // `ord`: the order runs were made in, where SQLite has its rowid (runs started in the same millisecond).
        sql: 'CREATE INDEX questions_seq ON questions(run, seq); ALTER TABLE runs ADD COLUMN ord BIGSERIAL;',
    },
    {
        version: 6,
        name: "work chunks: ranges of a shared run's questions leased to workers",
        sql: `
CREATE TABLE work_chunks (run TEXT NOT NULL, chunk INTEGER NOT NULL, first_seq INTEGER NOT NULL, last_seq INTEGER NOT NULL, holder TEXT, pid INTEGER, host TEXT,
    expires BIGINT, claimed BIGINT, takeovers INTEGER NOT NULL DEFAULT 0, done INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (run, chunk));
`,
    },
    {
        version: 7,
        name: 'an override keeps the span it overrode',
        sql: 'ALTER TABLE verdict_overrides ADD COLUMN read_text TEXT, ADD COLUMN read_start INTEGER, ADD COLUMN read_end INTEGER, ADD COLUMN read_by TEXT;',
    },
    { version: 8, name: "review labels: a person's verdict on an answer, beside the reader's", sql: REVIEW_LABELS_SQL },
    { version: 9, name: 'the facts each question tests', sql: QUESTION_FACTS_SQL },
    {
        version: 10,
        name: 'group ids stored escaped (NUL as \\0), as a server can hold them',
        // A server never held a NUL: only the backslashes written before are doubled (storedGroupId).
        sql: "UPDATE group_verdicts SET grp = replace(grp, '\\', '\\\\') WHERE strpos(grp, '\\') > 0;",
    },
    {
        version: 11,
        name: 'work chunks: a fencing token per claim, and the requests sent for each chunk',
        sql: 'ALTER TABLE work_chunks ADD COLUMN fence TEXT, ADD COLUMN sent INTEGER NOT NULL DEFAULT 0;',
    },
    { version: 12, name: 'batches: the endpoint each was submitted to', sql: 'ALTER TABLE batches ADD COLUMN endpoint TEXT;' },
];

/** A store URL rather than a file name. */
/** Brings the server's tables up to the last migration; returns the schema version. */
async function migratePostgres(sql: Sql): Promise<number> {
    return sql.transaction(async tx => {
        await tx.run(
            'CREATE TABLE IF NOT EXISTS migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied TEXT NOT NULL)',
        );
        const done = new Set((await tx.all<{ version: number }>('SELECT version FROM migrations')).map(r => r.version));
        for (const m of PG_MIGRATIONS) {
            if (done.has(m.version)) continue;
            // Without parameters pg sends the text as one simple query: several statements at once.
            await tx.run(m.sql);
            await tx.run('INSERT INTO migrations (version, name, applied) VALUES (?, ?, ?)', [
                m.version,
                m.name,
                new Date().toISOString(),
            ]);
        }
        return PG_MIGRATIONS.at(-1)!.version;
    }, true);
}

/** How to give a server store its password, wherever a message needs it. */
const STORE_PASSWORD_REMEDY =
    'set PGPASSWORD, keep it in ~/.pgpass, or name the variable holding it with --db-password-env; in VS Code run "HalluProbe: Set Database Password"';

/** Counts and sums come back as numbers (pg gives 64-bit integers and NUMERIC as strings, to be exact past 2^53). */
const NUMBERS = new Set([20, 1700]);
const types = {
    getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        NUMBERS.has(oid) ? Number : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

/** Connections per process: the runner's workers share them (an answer is one short transaction). */
const POOL_SIZE = 8;

/**
 * Connects to a PostgreSQL results store (password rules of sources) and migrates it. A URL with a password, an
 * unreachable server or refused credentials is the user's problem, said with the URL redacted.
 */
export async function openPostgres(url: string, passwordEnv?: string): Promise<{ sql: Sql; schemaVersion: number }> {
    const where = safeUrl(url);
    const place = passwordPlace(url);
    if (place)
        throw new HalluProbeError(
            problem(
                'store-password-in-url',
                `The results store ${where} has a password in its URL (${place}).`,
                `Remove it from the URL and ${STORE_PASSWORD_REMEDY}.`,
            ),
        );
    let parsed: URL;
    try {
        parsed = new URL(url);
    } catch {
        throw new HalluProbeError(
            problem(
                'bad-store',
                `The results store ${where} is not a URL pg can read.`,
                'Write it as postgres://user@host:port/database.',
            ),
        );
    }
    for (const name of ['sslcert', 'sslkey', 'sslrootcert']) {
        const file = parsed.searchParams.get(name);
        if (file && !fs.existsSync(file))
            throw new HalluProbeError(
                problem(
                    'bad-store',
                    `The results store ${where} names ${name}=${file}, which does not exist.`,
                    'Give the path of the file or remove the parameter.',
                ),
            );
    }
    const config = clientConfig({ path: url, settings: passwordEnv ? { password_env: passwordEnv } : {} });
    const pool = new pg.Pool({ ...config, types, max: POOL_SIZE, idle_in_transaction_session_timeout: IDLE_IN_TRANSACTION_MS });
    // An idle connection the server drops surfaces as the next query's error, not as a crash.
    pool.on('error', () => undefined);
    const sql = postgresSql(pool);
    // A first connection of its own, ended whatever happens: one the server refused part-way (no password given
    // for a password it asks) is otherwise left open until the server's authentication_timeout (60 s), and the
    // process with it.
    const first = new pg.Client(config);
    try {
        await first.connect();
        await first.end();
    } catch (e) {
        await first.end().catch(() => undefined);
        await pool.end().catch(() => undefined);
        throw new HalluProbeError(
            problem(
                'store-unreachable',
                `Results store: ${connectionProblem(e, url).message}.`,
                `Check the URL given with --db (or the halluprobe.storePath setting); for the password ${STORE_PASSWORD_REMEDY}.`,
            ),
        );
    }
    try {
        return { sql, schemaVersion: await migratePostgres(sql) };
    } catch (e) {
        await pool.end().catch(() => undefined);
        throw e;
    }
}
