/**
 * The judgement tables of the results store: verdicts, question-group verdicts and users' overrides of verdicts.
 */
import type { Verdict } from '../verify/types.js';
import type { GroupVerdict } from '../verify/types.js';
import type { Override } from '../verify/overrides.js';
import { insertMany, type Sql } from './sql.js';

/** One row per key, the last given winning (one statement may not write a row twice). */
function lastOfEach<T>(items: readonly T[], key: (t: T) => unknown[]): T[] {
    const byKey = new Map<string, T>();
    for (const t of items) byKey.set(JSON.stringify(key(t)), t);
    return byKey.size === items.length ? [...items] : [...byKey.values()];
}

/**
 * A group id as the `grp` column holds it: a backslash doubled and NUL written `\0`. Ids are the data's own text
 * (a rule probe's joins a fact's arguments with U+0000), and PostgreSQL text cannot hold NUL; the escape is one to
 * one, so two groups never share a row, and the verdicts are read back whole from their JSON.
 */
export const storedGroupId = (id: string): string => id.replace(/[\\\u0000]/g, c => (c === '\\' ? '\\\\' : '\\0'));

const bit = (b: boolean | undefined | null) => (b === undefined || b === null ? null : b ? 1 : 0);

export class Judgements {
    constructor(private readonly sql: Sql) {}

    async saveVerdicts(runId: string, verdicts: Verdict[]): Promise<void> {
        if (verdicts.length === 0) return;
        await this.sql.transaction(tx =>
            insertMany(
                tx,
                'INSERT INTO verdicts (run, question, model, sample, answer, correct, rationale, json)',
                8,
                lastOfEach(verdicts, v => [v.questionId, v.model, v.sample]).map(v => [
                    runId,
                    v.questionId,
                    v.model,
                    v.sample,
                    v.answer,
                    v.correct ? 1 : 0,
                    v.rationale ? 1 : 0,
                    JSON.stringify(v),
                ]),
                'ON CONFLICT (run, question, model, sample) DO UPDATE SET answer = excluded.answer, correct = excluded.correct, rationale = excluded.rationale, json = excluded.json',
            ),
        );
    }

    async verdicts(runId: string): Promise<Verdict[]> {
        return (await this.sql.all<{ json: string }>('SELECT json FROM verdicts WHERE run = ?', [runId])).map(
            r => JSON.parse(r.json) as Verdict,
        );
    }

    /** Replaces the run's group verdicts (they are derived from all its verdicts at once). */
    async saveGroupVerdicts(runId: string, verdicts: readonly GroupVerdict[]): Promise<void> {
        await this.sql.transaction(async tx => {
            await tx.run('DELETE FROM group_verdicts WHERE run = ?', [runId]);
            await insertMany(
                tx,
                'INSERT INTO group_verdicts (run, grp, model, sample, relation, probe, outcome, ok, json)',
                9,
                lastOfEach(verdicts, g => [g.group, g.model, g.sample]).map(g => [
                    runId,
                    storedGroupId(g.group),
                    g.model,
                    g.sample,
                    g.relation,
                    g.probe,
                    g.outcome,
                    bit(g.ok),
                    JSON.stringify(g),
                ]),
                'ON CONFLICT (run, grp, model, sample) DO UPDATE SET relation = excluded.relation, probe = excluded.probe, outcome = excluded.outcome, ok = excluded.ok, json = excluded.json',
            );
        });
    }

    async groupVerdicts(runId: string): Promise<GroupVerdict[]> {
        return (
            await this.sql.all<{ json: string }>(
                'SELECT json FROM group_verdicts WHERE run = ? ORDER BY model, probe, grp, sample',
                [runId],
            )
        ).map(r => JSON.parse(r.json) as GroupVerdict);
    }

    /** Records (or replaces) a user's override of one verdict; `at` defaults to now. */
    async recordOverride(o: Omit<Override, 'at'> & { at?: string }): Promise<Override> {
        const at = o.at ?? new Date().toISOString();
        await this.sql.run(
            `INSERT INTO verdict_overrides (run, question, model, sample, correct, rationale, "by", at, why, read_text, read_start, read_end, read_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (run, question, model, sample) DO UPDATE SET correct = excluded.correct, rationale = excluded.rationale, "by" = excluded."by", at = excluded.at, why = excluded.why,
                read_text = excluded.read_text, read_start = excluded.read_start, read_end = excluded.read_end, read_by = excluded.read_by`,
            [
                o.run,
                o.questionId,
                o.model,
                o.sample,
                bit(o.correct),
                bit(o.rationale),
                o.by,
                at,
                o.why,
                o.read?.text ?? null,
                o.read?.span[0] ?? null,
                o.read?.span[1] ?? null,
                o.read?.by ?? null,
            ],
        );
        return { ...o, at };
    }

    async overrides(runId: string): Promise<Override[]> {
        const rows = await this.sql.all<OverrideRow>('SELECT * FROM verdict_overrides WHERE run = ? ORDER BY at', [runId]);
        return rows.map(r => {
            const o: Override = {
                run: r.run,
                questionId: r.question,
                model: r.model,
                sample: r.sample,
                by: r.by,
                at: r.at,
                why: r.why,
            };
            if (r.correct !== null) o.correct = r.correct === 1;
            if (r.rationale !== null) o.rationale = r.rationale === 1;
            if (r.read_text !== null && r.read_start !== null && r.read_end !== null)
                o.read = { text: r.read_text, span: [r.read_start, r.read_end], by: r.read_by ?? 'patterns' };
            return o;
        });
    }
}

interface OverrideRow {
    run: string;
    question: string;
    model: string;
    sample: number;
    correct: number | null;
    rationale: number | null;
    by: string;
    at: string;
    why: string;
    read_text: string | null;
    read_start: number | null;
    read_end: number | null;
    read_by: string | null;
}
