/**
 * Review labels: a person's verdict on one answer (pass, fail, unsure, unreadable; optionally the rationale and, for
 * open answers, each claim's status), with who and when, and what the reader had read when they labelled it (its
 * verdict and the span it read), so that a label still says what it judged after the answer is read again. Several
 * reviewers label side by side: one row per slot and reviewer. The same table and SQL on SQLite and PostgreSQL.
 */
import type { Sql } from './sql.js';
import type { ReviewLabel, ReviewLabelValue } from './types.js';

/** Migration 8 on both engines (the same statement: plain types, no reserved word). */
export const REVIEW_LABELS_SQL = `
CREATE TABLE review_labels (
    run TEXT NOT NULL,
    question TEXT NOT NULL,
    model TEXT NOT NULL,
    sample INTEGER NOT NULL,
    reviewer TEXT NOT NULL,
    at TEXT NOT NULL,
    label TEXT NOT NULL,
    rationale INTEGER,
    claims TEXT,
    read_answer TEXT,
    read_correct INTEGER,
    read_text TEXT,
    read_start INTEGER,
    read_end INTEGER,
    read_why TEXT,
    read_by TEXT,
    PRIMARY KEY (run, question, model, sample, reviewer)
);
CREATE INDEX review_labels_run ON review_labels(run, reviewer, at);
`;

/** The columns `store copy` carries, in order. */
export const REVIEW_LABEL_COLUMNS = [
    'run',
    'question',
    'model',
    'sample',
    'reviewer',
    'at',
    'label',
    'rationale',
    'claims',
    'read_answer',
    'read_correct',
    'read_text',
    'read_start',
    'read_end',
    'read_why',
    'read_by',
];

interface LabelRow {
    run: string;
    question: string;
    model: string;
    sample: number;
    reviewer: string;
    at: string;
    label: string;
    rationale: number | null;
    claims: string | null;
    read_answer: string | null;
    read_correct: number | null;
    read_text: string | null;
    read_start: number | null;
    read_end: number | null;
    read_why: string | null;
    read_by: string | null;
}

const bit = (b: boolean | undefined) => (b === undefined ? null : b ? 1 : 0);

export class ReviewLabels {
    constructor(private readonly sql: Sql) {}

    /** Records (or replaces) one reviewer's label of one answer; `at` defaults to now. */
    async record(l: Omit<ReviewLabel, 'at'> & { at?: string }): Promise<ReviewLabel> {
        const at = l.at ?? new Date().toISOString();
        const r = l.read;
        await this.sql.run(
            `INSERT INTO review_labels (${REVIEW_LABEL_COLUMNS.join(', ')}) VALUES (${REVIEW_LABEL_COLUMNS.map(() => '?').join(', ')})
            ON CONFLICT (run, question, model, sample, reviewer) DO UPDATE SET at = excluded.at, label = excluded.label, rationale = excluded.rationale, claims = excluded.claims,
                read_answer = excluded.read_answer, read_correct = excluded.read_correct, read_text = excluded.read_text, read_start = excluded.read_start,
                read_end = excluded.read_end, read_why = excluded.read_why, read_by = excluded.read_by`,
            [
                l.run,
                l.questionId,
                l.model,
                l.sample,
                l.reviewer,
                at,
                l.label,
                bit(l.rationale),
                l.claims ? JSON.stringify(l.claims) : null,
                r?.answer ?? null,
                bit(r?.correct),
                r?.text ?? null,
                r?.span?.[0] ?? null,
                r?.span?.[1] ?? null,
                r?.why ?? null,
                r?.by ?? null,
            ],
        );
        return { ...l, at };
    }

    /** Removes one reviewer's label of one answer (undo); whether there was one. */
    async remove(run: string, questionId: string, model: string, sample: number, reviewer: string): Promise<boolean> {
        return (
            (
                await this.sql.run(
                    'DELETE FROM review_labels WHERE run = ? AND question = ? AND model = ? AND sample = ? AND reviewer = ?',
                    [run, questionId, model, sample, reviewer],
                )
            ).changes > 0
        );
    }

    /** Every label of a run, oldest first (then by reviewer and slot). */
    async list(run: string): Promise<ReviewLabel[]> {
        const rows = await this.sql.all<LabelRow>(
            'SELECT * FROM review_labels WHERE run = ? ORDER BY at, reviewer, question, model, sample',
            [run],
        );
        return rows.map(r => {
            const l: ReviewLabel = {
                run: r.run,
                questionId: r.question,
                model: r.model,
                sample: Number(r.sample),
                reviewer: r.reviewer,
                at: r.at,
                label: r.label as ReviewLabelValue,
            };
            if (r.rationale !== null) l.rationale = Number(r.rationale) === 1;
            if (r.claims !== null) l.claims = JSON.parse(r.claims) as ReviewLabel['claims'];
            if (r.read_answer !== null) {
                l.read = { answer: r.read_answer, correct: Number(r.read_correct) === 1, by: r.read_by ?? 'patterns' };
                if (r.read_text !== null) l.read.text = r.read_text;
                if (r.read_start !== null && r.read_end !== null) l.read.span = [Number(r.read_start), Number(r.read_end)];
                if (r.read_why !== null) l.read.why = r.read_why;
            }
            return l;
        });
    }
}
