/**
 * The facts each stored question tests (docs/facts.md): one row per question and fact, beside the question's JSON
 * (which carries them too), so that a fact's questions are found by its id. The same table and SQL on SQLite and
 * PostgreSQL; written with the questions (store.ts), carried by `store copy`.
 */
import type { FactRef, Question } from '../probes/question.js';
import { insertMany, type Param, type Sql } from './sql.js';

/** Migration 9 on both engines (the same statement: plain types, no reserved word). */
export const QUESTION_FACTS_SQL = `
CREATE TABLE question_facts (
    run TEXT NOT NULL,
    question TEXT NOT NULL,
    pos INTEGER NOT NULL,
    fact TEXT NOT NULL,
    label TEXT NOT NULL,
    relation TEXT NOT NULL,
    attribute TEXT NOT NULL,
    value TEXT NOT NULL,
    role TEXT NOT NULL,
    json TEXT NOT NULL,
    PRIMARY KEY (run, question, pos)
);
CREATE INDEX question_facts_fact ON question_facts(run, fact);
`;

/** The columns `store copy` carries, in order. */
export const QUESTION_FACT_COLUMNS = [
    'run',
    'question',
    'pos',
    'fact',
    'label',
    'relation',
    'attribute',
    'value',
    'role',
    'json',
];

/** The rows of these (newly stored) questions' facts. */
export async function insertQuestionFacts(tx: Sql, runId: string, questions: readonly Question[]): Promise<void> {
    const rows: Param[][] = [];
    for (const q of questions)
        (q.facts ?? []).forEach((f, pos) =>
            rows.push([runId, q.id, pos, f.id, f.label, f.relation, f.attribute, f.value, f.role, JSON.stringify(f)]),
        );
    await insertMany(
        tx,
        'INSERT INTO question_facts (run, question, pos, fact, label, relation, attribute, value, role, json)',
        QUESTION_FACT_COLUMNS.length,
        rows,
    );
}

/** A stored question's fact. */
export interface StoredFact {
    question: string;
    fact: FactRef;
}

/** The run's question facts in question order (of the named facts only, when given). */
export async function questionFacts(sql: Sql, runId: string, factIds?: readonly string[]): Promise<StoredFact[]> {
    const only = factIds && factIds.length ? ` AND fact IN (${factIds.map(() => '?').join(', ')})` : '';
    const rows = await sql.all<{ question: string; json: string }>(
        `SELECT question, json FROM question_facts WHERE run = ?${only} ORDER BY question, pos`,
        [runId, ...(factIds ?? [])],
    );
    return rows.map(r => ({ question: r.question, fact: JSON.parse(r.json) as FactRef }));
}
