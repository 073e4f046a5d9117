/**
 * Overrides: a user marks a verdict wrong (the answer or the rationale), with who, when and why. They live in
 * their own table of the results store (created on first use, so the store's migrations stay the runner's),
 * are applied before metrics are computed, and are listed in every report.
 */
import type Database from 'better-sqlite3';
import type { Verdict } from './types.js';

export interface Override {
    run: string;
    questionId: string;
    model: string;
    sample: number;
    /** The corrected answer verdict, if the answer was judged wrongly. */
    correct?: boolean;
    /** The corrected rationale verdict, if the rationale was judged wrongly. */
    rationale?: boolean;
    by: string;
    at: string;
    why: string;
}

const TABLE = `CREATE TABLE IF NOT EXISTS verdict_overrides (
    run TEXT NOT NULL, question TEXT NOT NULL, model TEXT NOT NULL, sample INTEGER NOT NULL,
    correct INTEGER, rationale INTEGER, by TEXT NOT NULL, at TEXT NOT NULL, why TEXT NOT NULL,
    PRIMARY KEY (run, question, model, sample))`;

interface Row { run: string; question: string; model: string; sample: number; correct: number | null; rationale: number | null; by: string; at: string; why: string }

/** Records (or replaces) the override of one verdict; `at` defaults to now. */
export function recordOverride(db: Database.Database, o: Omit<Override, 'at'> & { at?: string }): Override {
    db.exec(TABLE);
    const at = o.at ?? new Date().toISOString();
    const bit = (b: boolean | undefined) => (b === undefined ? null : b ? 1 : 0);
    db.prepare('INSERT OR REPLACE INTO verdict_overrides (run, question, model, sample, correct, rationale, by, at, why) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)')
        .run(o.run, o.questionId, o.model, o.sample, bit(o.correct), bit(o.rationale), o.by, at, o.why);
    return { ...o, at };
}

export function removeOverride(db: Database.Database, run: string, questionId: string, model: string, sample: number): boolean {
    db.exec(TABLE);
    return db.prepare('DELETE FROM verdict_overrides WHERE run = ? AND question = ? AND model = ? AND sample = ?').run(run, questionId, model, sample).changes > 0;
}

export function loadOverrides(db: Database.Database, run: string): Override[] {
    db.exec(TABLE);
    const rows = db.prepare('SELECT * FROM verdict_overrides WHERE run = ? ORDER BY at, question').all(run) as Row[];
    return rows.map(r => {
        const o: Override = { run: r.run, questionId: r.question, model: r.model, sample: r.sample, by: r.by, at: r.at, why: r.why };
        if (r.correct !== null) o.correct = r.correct === 1;
        if (r.rationale !== null) o.rationale = r.rationale === 1;
        return o;
    });
}

/** Copies of the verdicts with each override attached (the verifier's own fields stay as they were). */
export function applyOverrides(verdicts: Verdict[], overrides: Override[]): Verdict[] {
    if (overrides.length === 0) return verdicts;
    const key = (q: string, m: string, s: number) => `${q}\u0000${m}\u0000${s}`;
    const byKey = new Map(overrides.map(o => [key(o.questionId, o.model, o.sample), o]));
    return verdicts.map(v => {
        const o = byKey.get(key(v.questionId, v.model, v.sample));
        if (!o) return v;
        const override: NonNullable<Verdict['override']> = { by: o.by, at: o.at, why: o.why };
        if (o.correct !== undefined) override.correct = o.correct;
        if (o.rationale !== undefined) override.rationale = o.rationale;
        return { ...v, override };
    });
}
