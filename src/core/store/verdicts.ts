/**
 * The judgement tables of the results store: verdicts, question-group verdicts and users' overrides of verdicts.
 */
import type Database from 'better-sqlite3';
import type { Verdict } from '../verify/types.js';
import type { GroupVerdict } from '../verify/types.js';
import type { Override } from '../verify/overrides.js';

export class Judgements {
    private readonly upsertVerdict;

    constructor(private readonly db: Database.Database) {
        this.upsertVerdict = db.prepare('INSERT OR REPLACE INTO verdicts (run, question, model, sample, answer, correct, rationale, json) VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
    }

    saveVerdicts(runId: string, verdicts: Verdict[]): void {
        this.db.transaction(() => {
            for (const v of verdicts) {
                this.upsertVerdict.run(runId, v.questionId, v.model, v.sample, v.answer, v.correct ? 1 : 0, v.rationale ? 1 : 0, JSON.stringify(v));
            }
        })();
    }

    verdicts(runId: string): Verdict[] {
        return (this.db.prepare('SELECT json FROM verdicts WHERE run = ?').all(runId) as { json: string }[]).map(r => JSON.parse(r.json) as Verdict);
    }

    /** Replaces the run's group verdicts (they are derived from all its verdicts at once). */
    saveGroupVerdicts(runId: string, verdicts: readonly GroupVerdict[]): void {
        const insert = this.db.prepare('INSERT OR REPLACE INTO group_verdicts (run, grp, model, sample, relation, probe, outcome, ok, json) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)');
        this.db.transaction(() => {
            this.db.prepare('DELETE FROM group_verdicts WHERE run = ?').run(runId);
            for (const g of verdicts) insert.run(runId, g.group, g.model, g.sample, g.relation, g.probe, g.outcome, g.ok === null ? null : g.ok ? 1 : 0, JSON.stringify(g));
        })();
    }

    groupVerdicts(runId: string): GroupVerdict[] {
        return (this.db.prepare('SELECT json FROM group_verdicts WHERE run = ? ORDER BY model, probe, grp, sample').all(runId) as { json: string }[]).map(r => JSON.parse(r.json) as GroupVerdict);
    }

    /** Records (or replaces) a user's override of one verdict; `at` defaults to now. */
    recordOverride(o: Omit<Override, 'at'> & { at?: string }): Override {
        const at = o.at ?? new Date().toISOString();
        const bit = (b: boolean | undefined) => (b === undefined ? null : b ? 1 : 0);
        this.db.prepare('INSERT OR REPLACE INTO verdict_overrides (run, question, model, sample, correct, rationale, by, at, why, read_text, read_start, read_end, read_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)')
            .run(o.run, o.questionId, o.model, o.sample, bit(o.correct), bit(o.rationale), o.by, at, o.why, o.read?.text ?? null, o.read?.span[0] ?? null, o.read?.span[1] ?? null, o.read?.by ?? null);
        return { ...o, at };
    }

    overrides(runId: string): Override[] {
        const rows = this.db.prepare('SELECT * FROM verdict_overrides WHERE run = ? ORDER BY at').all(runId) as OverrideRow[];
        return rows.map(r => {
            const o: Override = { run: r.run, questionId: r.question, model: r.model, sample: r.sample, by: r.by, at: r.at, why: r.why };
            if (r.correct !== null) o.correct = r.correct === 1;
            if (r.rationale !== null) o.rationale = r.rationale === 1;
            if (r.read_text !== null && r.read_start !== null && r.read_end !== null) o.read = { text: r.read_text, span: [r.read_start, r.read_end], by: r.read_by ?? 'patterns' };
            return o;
        });
    }
}

interface OverrideRow {
    run: string; question: string; model: string; sample: number; correct: number | null; rationale: number | null; by: string; at: string; why: string;
    read_text: string | null; read_start: number | null; read_end: number | null; read_by: string | null;
}
