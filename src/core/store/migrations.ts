/**
 * The store's schema, as numbered migrations recorded in the `migrations` table. Append new ones; never edit an
 * applied one (stores on users' disks have run it).
 */
import type Database from 'better-sqlite3';
import { REVIEW_LABELS_SQL } from './labels.js';
import { QUESTION_FACTS_SQL } from './facts.js';
import { storedGroupId } from './verdicts.js';

/** `up`: a step SQL cannot say (run after `sql`, in the same transaction). */
export interface Migration {
    version: number;
    name: string;
    sql: string;
    up?: (db: Database.Database) => void;
}

export const MIGRATIONS: Migration[] = [
    {
        version: 1,
        name: 'runs, questions, calls, cache, responses, verdicts',
        sql: `
CREATE TABLE runs (
    id TEXT PRIMARY KEY,
    spec TEXT NOT NULL,
    suite TEXT NOT NULL,
    started TEXT NOT NULL,
    finished TEXT,
    status TEXT NOT NULL,
    settings TEXT NOT NULL
);
CREATE INDEX runs_spec_suite ON runs(spec, suite, started);

CREATE TABLE questions (
    run TEXT NOT NULL REFERENCES runs(id),
    id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    probe TEXT NOT NULL,
    kind TEXT NOT NULL,
    phrasing TEXT NOT NULL,
    json TEXT NOT NULL,
    PRIMARY KEY (run, id)
);

-- One row per logical call (all its attempts): what it cost and how it ended. Never holds a key.
CREATE TABLE calls (
    id INTEGER PRIMARY KEY,
    run TEXT NOT NULL,
    question TEXT NOT NULL,
    model TEXT NOT NULL,
    sample INTEGER NOT NULL,
    hash TEXT NOT NULL,
    params TEXT NOT NULL,
    latency_ms REAL,
    tokens_in INTEGER NOT NULL DEFAULT 0,
    tokens_out INTEGER NOT NULL DEFAULT 0,
    cost REAL NOT NULL DEFAULT 0,
    attempts INTEGER NOT NULL DEFAULT 1,
    status TEXT NOT NULL,
    error TEXT,
    at TEXT NOT NULL
);
CREATE INDEX calls_run ON calls(run, question, model, sample);

-- The response cache: an identical request (endpoint, model, parameters, messages) is answered from here.
CREATE TABLE cache (
    hash TEXT PRIMARY KEY,
    text TEXT NOT NULL,
    tokens_in INTEGER NOT NULL,
    tokens_out INTEGER NOT NULL,
    finish_reason TEXT NOT NULL,
    latency_ms REAL,
    created TEXT NOT NULL
);

CREATE TABLE responses (
    run TEXT NOT NULL,
    question TEXT NOT NULL,
    model TEXT NOT NULL,
    sample INTEGER NOT NULL,
    text TEXT NOT NULL,
    cached INTEGER NOT NULL,
    call INTEGER,
    PRIMARY KEY (run, question, model, sample)
);

CREATE TABLE verdicts (
    run TEXT NOT NULL,
    question TEXT NOT NULL,
    model TEXT NOT NULL,
    sample INTEGER NOT NULL,
    answer TEXT NOT NULL,
    correct INTEGER NOT NULL,
    rationale INTEGER NOT NULL,
    json TEXT NOT NULL,
    PRIMARY KEY (run, question, model, sample)
);
`,
    },
    {
        version: 2,
        name: 'verdict overrides and question-group verdicts',
        // verdict_overrides was created on first use before the store owned it: IF NOT EXISTS keeps such stores.
        sql: `
CREATE TABLE IF NOT EXISTS verdict_overrides (
    run TEXT NOT NULL, question TEXT NOT NULL, model TEXT NOT NULL, sample INTEGER NOT NULL,
    correct INTEGER, rationale INTEGER, by TEXT NOT NULL, at TEXT NOT NULL, why TEXT NOT NULL,
    PRIMARY KEY (run, question, model, sample)
);

CREATE TABLE group_verdicts (
    run TEXT NOT NULL,
    grp TEXT NOT NULL,
    model TEXT NOT NULL,
    sample INTEGER NOT NULL,
    relation TEXT NOT NULL,
    probe TEXT NOT NULL,
    outcome TEXT NOT NULL,
    ok INTEGER,
    json TEXT NOT NULL,
    PRIMARY KEY (run, grp, model, sample)
);
`,
    },
    {
        version: 3,
        name: 'run leases: one writer per run',
        sql: `
-- Who is writing a run now: a second process refuses instead of asking the same questions again.
CREATE TABLE run_leases (
    run TEXT PRIMARY KEY,
    token TEXT NOT NULL,
    pid INTEGER NOT NULL,
    host TEXT NOT NULL,
    started TEXT NOT NULL,
    heartbeat INTEGER NOT NULL
);
`,
    },
    {
        version: 4,
        name: 'provider batches of a run and the slots each holds',
        sql: `
-- A chunk of a run's slots sent to a provider's Batch API. Stored (with its input file) before the batch is
-- created, under our own id sent as the batch's metadata: a run killed in between finds the batch again.
CREATE TABLE batches (
    local TEXT PRIMARY KEY,
    run TEXT NOT NULL,
    model TEXT NOT NULL,
    id TEXT,
    input_file TEXT NOT NULL,
    status TEXT NOT NULL,
    output_file TEXT,
    error_file TEXT,
    requests INTEGER NOT NULL,
    done INTEGER NOT NULL DEFAULT 0,
    failed INTEGER NOT NULL DEFAULT 0,
    created TEXT NOT NULL,
    updated TEXT NOT NULL,
    collected INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX batches_run ON batches(run, model);

-- Which slot each request of a batch answers; attempt 2 is the one resubmission of a failed or expired request.
CREATE TABLE batch_slots (
    batch TEXT NOT NULL,
    custom_id TEXT NOT NULL,
    run TEXT NOT NULL,
    question TEXT NOT NULL,
    model TEXT NOT NULL,
    sample INTEGER NOT NULL,
    hash TEXT NOT NULL,
    attempt INTEGER NOT NULL,
    PRIMARY KEY (batch, custom_id)
);
CREATE INDEX batch_slots_slot ON batch_slots(run, model, question, sample);
`,
    },
    {
        version: 5,
        name: 'questions read back in order by seq',
        // Pages of a run's questions by (run, seq), the same statement on SQLite and PostgreSQL (which has no rowid).
        sql: 'CREATE INDEX questions_seq ON questions(run, seq);',
    },
    {
        version: 6,
        name: "work chunks: ranges of a shared run's questions leased to workers",
        sql: `
-- A run worked on by several processes (--join) is cut into ranges of its questions by seq; each worker holds a
-- range until its lease lapses (expires, on the database's clock, renewed by a heartbeat), then anyone may take
-- it. claimed is when the holder took it, takeovers how often it was taken from a holder whose lease lapsed.
CREATE TABLE work_chunks (
    run TEXT NOT NULL,
    chunk INTEGER NOT NULL,
    first_seq INTEGER NOT NULL,
    last_seq INTEGER NOT NULL,
    holder TEXT,
    pid INTEGER,
    host TEXT,
    expires INTEGER,
    claimed INTEGER,
    takeovers INTEGER NOT NULL DEFAULT 0,
    done INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (run, chunk)
);
`,
    },
    {
        version: 7,
        name: 'an override keeps the span it overrode',
        // What the verdict had read as the answer (words, span, which reader): older overrides keep NULLs.
        sql: `
ALTER TABLE verdict_overrides ADD COLUMN read_text TEXT;
ALTER TABLE verdict_overrides ADD COLUMN read_start INTEGER;
ALTER TABLE verdict_overrides ADD COLUMN read_end INTEGER;
ALTER TABLE verdict_overrides ADD COLUMN read_by TEXT;
`,
    },
    {
        version: 8,
        name: "review labels: a person's verdict on an answer, beside the reader's",
        sql: REVIEW_LABELS_SQL,
    },
    {
        version: 9,
        name: 'the facts each question tests',
        sql: QUESTION_FACTS_SQL,
    },
    {
        version: 10,
        name: 'group ids stored escaped (NUL as \\0), as a server can hold them',
        // SQLite's replace() stops at a NUL: the ids written before are escaped here, row by row (storedGroupId).
        sql: '',
        up: db => {
            const rows = db
                .prepare("SELECT rowid AS id, grp FROM group_verdicts WHERE instr(grp, '\\') > 0 OR instr(grp, char(0)) > 0")
                .all() as { id: number; grp: string }[];
            const set = db.prepare('UPDATE group_verdicts SET grp = ? WHERE rowid = ?');
            for (const r of rows) set.run(storedGroupId(r.grp), r.id);
        },
    },
    {
        version: 11,
        name: 'work chunks: a fencing token per claim, and the requests sent for each chunk',
        sql: `
ALTER TABLE work_chunks ADD COLUMN fence TEXT;
ALTER TABLE work_chunks ADD COLUMN sent INTEGER NOT NULL DEFAULT 0;
`,
    },
    {
        version: 12,
        name: 'batches: the endpoint each was submitted to',
        sql: 'ALTER TABLE batches ADD COLUMN endpoint TEXT;',
    },
];

export function migrate(db: Database.Database): number {
    db.exec('CREATE TABLE IF NOT EXISTS migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied TEXT NOT NULL)');
    const done = new Set((db.prepare('SELECT version FROM migrations').all() as { version: number }[]).map(r => r.version));
    const record = db.prepare('INSERT INTO migrations (version, name, applied) VALUES (?, ?, ?)');
    const applied = db.prepare('SELECT 1 FROM migrations WHERE version = ?');
    // Each migration in a write-locked transaction (BEGIN IMMEDIATE) that asks again whether it is done: two processes
    // opening a new store together both saw it undone, and the second failed on 'duplicate column name'.
    const apply = db.transaction((m: (typeof MIGRATIONS)[number]) => {
        if (applied.get(m.version)) return;
        db.exec(m.sql);
        m.up?.(db);
        record.run(m.version, m.name, new Date().toISOString());
    });
    let version = 0;
    for (const m of MIGRATIONS) {
        version = m.version;
        if (!done.has(m.version)) apply.immediate(m);
    }
    return version;
}
