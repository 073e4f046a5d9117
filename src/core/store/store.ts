/**
 * The results store over either engine (sql.ts): runs, their questions, every call, the response cache, answers,
 * verdicts. Each answer is committed in its own transaction as it arrives, so a killed run loses nothing it
 * received. Keys never reach this file: callers pass parameters without them. The judgement tables are in
 * verdicts.ts, batches in batches.ts, the run lease in lease.ts, shared runs' chunks in chunks.ts.
 */
import { randomBytes } from 'node:crypto';
import type { Question } from '../probes/question.js';
import type { Verdict } from '../verify/types.js';
import type { GroupVerdict } from '../verify/types.js';
import type { Override } from '../verify/overrides.js';
import { Leases } from './lease.js';
import { Judgements } from './verdicts.js';
import { ReviewLabels } from './labels.js';
import { BatchTables } from './batches.js';
import { WorkChunks } from './chunks.js';
import { insertMany, type Param, type Sql } from './sql.js';
import { insertQuestionFacts, questionFacts, type StoredFact } from './facts.js';
import {
    slotKey,
    type AnswerRecord,
    type CacheEntry,
    type FailureRecord,
    type FailureSummary,
    type LeaseHolder,
    type RunCounts,
    type RunRecord,
    type ReviewLabel,
    type RunResults,
    type RunSettings,
    type RunStatus,
    type StoredAnswer,
    type Store,
} from './types.js';

/** A run as its table row holds it: the settings as JSON text. */
type RunRow = Omit<RunRecord, 'settings'> & { settings: string };

const toRun = (r: RunRow): RunRecord => ({
    id: r.id,
    spec: r.spec,
    suite: r.suite,
    started: r.started,
    finished: r.finished,
    status: r.status,
    settings: JSON.parse(r.settings) as RunSettings,
});

export const CACHE_COLUMNS =
    'hash, text, tokens_in AS "tokensIn", tokens_out AS "tokensOut", finish_reason AS "finishReason", latency_ms AS "latencyMs"';
const INSERT_CALL = `INSERT INTO calls (run, question, model, sample, hash, params, latency_ms, tokens_in, tokens_out, cost, attempts, status, error, at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`;
const PUT_CACHE =
    'INSERT INTO cache (hash, text, tokens_in, tokens_out, finish_reason, latency_ms, created) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (hash) DO NOTHING';
const PUT_RESPONSE = `INSERT INTO responses (run, question, model, sample, text, cached, call) VALUES (?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT (run, question, model, sample) DO UPDATE SET text = excluded.text, cached = excluded.cached, call = excluded.call`;
/**
 * The same three inserts as one statement, for a server: one round trip per answer instead of five (BEGIN, three
 * inserts, COMMIT), and as atomic (a statement is its own transaction).
 */
const RECORD_ANSWER_PG = `WITH c AS (
    INSERT INTO calls (run, question, model, sample, hash, params, latency_ms, tokens_in, tokens_out, cost, attempts, status, error, at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?) RETURNING id
), k AS (
    INSERT INTO cache (hash, text, tokens_in, tokens_out, finish_reason, latency_ms, created)
    SELECT ?::TEXT, ?::TEXT, ?::BIGINT, ?::BIGINT, ?::TEXT, ?::DOUBLE PRECISION, ?::TEXT WHERE ?::BOOLEAN ON CONFLICT (hash) DO NOTHING
)
INSERT INTO responses (run, question, model, sample, text, cached, call) SELECT ?::TEXT, ?::TEXT, ?::TEXT, ?::INTEGER, ?::TEXT, ?::INTEGER, c.id FROM c
    ON CONFLICT (run, question, model, sample) DO UPDATE SET text = excluded.text, cached = excluded.cached, call = excluded.call`;
/** Hashes per `IN (…)` lookup. */
const HASHES_PER_LOOKUP = 500;

/** What a store and the views of it inside its transactions share: the leases it holds. */
interface Shared {
    leases: Leases;
}

/** The call columns of an answer received, up to its status (INSERT_CALL's and RECORD_ANSWER_PG's first twelve). */
function answeredCall(a: Omit<AnswerRecord, 'cacheable'>): Param[] {
    return [
        a.run,
        a.question,
        a.model,
        a.sample,
        a.hash,
        JSON.stringify(a.params),
        a.latencyMs,
        a.tokensIn,
        a.tokensOut,
        a.cost,
        a.attempts,
        a.cached ? 'cached' : 'ok',
    ];
}

export class SqlStore implements Store {
    readonly batches: BatchTables;
    readonly chunks: WorkChunks;
    private readonly judgements: Judgements;
    private readonly reviewLabels: ReviewLabels;

    constructor(
        protected readonly sql: Sql,
        readonly location: string,
        readonly schemaVersion: number,
        private readonly shared: Shared = { leases: new Leases(sql) },
    ) {
        this.judgements = new Judgements(sql);
        this.reviewLabels = new ReviewLabels(sql);
        this.batches = new BatchTables(sql);
        this.chunks = new WorkChunks(sql);
    }

    get engine(): 'sqlite' | 'postgres' {
        return this.sql.dialect;
    }

    async close(): Promise<void> {
        await this.shared.leases.releaseAll().catch(() => undefined);
        await this.sql.close();
    }

    acquireLease(runId: string): Promise<LeaseHolder | undefined> {
        return this.shared.leases.acquire(runId, this.sql);
    }

    releaseLease(runId: string): Promise<void> {
        return this.shared.leases.release(runId);
    }

    exclusive<T>(fn: (store: Store) => Promise<T>): Promise<T> {
        return this.sql.transaction(tx => fn(new SqlStore(tx, this.location, this.schemaVersion, this.shared)), true);
    }

    async createRun(spec: string, suite: string, settings: RunSettings): Promise<RunRecord> {
        const now = new Date();
        const id = `${now.toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '-')}-${randomBytes(3).toString('hex')}`;
        await this.sql.run(
            'INSERT INTO runs (id, spec, suite, started, finished, status, settings) VALUES (?, ?, ?, ?, NULL, ?, ?)',
            [id, spec, suite, now.toISOString(), 'running', JSON.stringify(settings)],
        );
        return (await this.getRun(id))!;
    }

    async getRun(id: string): Promise<RunRecord | undefined> {
        const r = await this.sql.get<RunRow>('SELECT * FROM runs WHERE id = ?', [id]);
        return r && toRun(r);
    }

    async setStatus(id: string, status: RunStatus): Promise<void> {
        await this.sql.run('UPDATE runs SET status = ?, finished = ? WHERE id = ?', [
            status,
            status === 'running' ? null : new Date().toISOString(),
            id,
        ]);
    }

    async updateSettings(id: string, settings: RunSettings): Promise<void> {
        await this.sql.run('UPDATE runs SET settings = ? WHERE id = ?', [JSON.stringify(settings), id]);
    }

    /** Newest first; runs started in the same millisecond in the order they were made. */
    private get newestFirst(): string {
        return `ORDER BY started DESC, ${this.sql.dialect === 'sqlite' ? 'rowid' : 'ord'} DESC`;
    }

    async listRuns(): Promise<RunRecord[]> {
        return (await this.sql.all<RunRow>(`SELECT * FROM runs ${this.newestFirst}`)).map(toRun);
    }

    async latestRun(spec?: string, suite?: string): Promise<RunRecord | undefined> {
        const r =
            spec === undefined
                ? await this.sql.get<RunRow>(`SELECT * FROM runs ${this.newestFirst} LIMIT 1`)
                : await this.sql.get<RunRow>(`SELECT * FROM runs WHERE spec = ? AND suite = ? ${this.newestFirst} LIMIT 1`, [
                      spec,
                      suite ?? '',
                  ]);
        return r && toRun(r);
    }

    async resumableRun(spec: string, suite: string): Promise<RunRecord | undefined> {
        const r = await this.latestRun(spec, suite);
        return r && r.status !== 'completed' ? r : undefined;
    }

    async saveQuestions(runId: string, questions: Iterable<Question>): Promise<number> {
        const all = [...questions];
        return this.sql.transaction(async tx => {
            const seq = await this.countIn(tx, runId);
            return (await this.insertQuestions(tx, runId, all, seq)).filter(Boolean).length;
        });
    }

    addQuestions(runId: string, questions: readonly Question[], seq: number): Promise<boolean[]> {
        return this.sql.transaction(tx => this.insertQuestions(tx, runId, questions, seq));
    }

    /** Inserts the questions the run does not hold yet (the first of repeated ids), numbered on from `seq`. */
    private async insertQuestions(tx: Sql, runId: string, questions: readonly Question[], seq: number): Promise<boolean[]> {
        const held = new Set<string>();
        for (let i = 0; i < questions.length; i += HASHES_PER_LOOKUP) {
            const ids = questions.slice(i, i + HASHES_PER_LOOKUP).map(q => q.id);
            for (const r of await tx.all<{ id: string }>(
                `SELECT id FROM questions WHERE run = ? AND id IN (${ids.map(() => '?').join(', ')})`,
                [runId, ...ids],
            ))
                held.add(r.id);
        }
        const rows: (string | number)[][] = [];
        const added = questions.map(q => {
            if (held.has(q.id)) return false;
            held.add(q.id);
            rows.push([runId, q.id, seq++, q.probe, q.kind, q.phrasing, JSON.stringify(q)]);
            return true;
        });
        await insertMany(tx, 'INSERT INTO questions (run, id, seq, probe, kind, phrasing, json)', 7, rows);
        await insertQuestionFacts(
            tx,
            runId,
            questions.filter((_, i) => added[i]),
        );
        return added;
    }

    private async countIn(sql: Sql, runId: string): Promise<number> {
        return Number((await sql.get<{ n: number }>('SELECT COUNT(*) AS n FROM questions WHERE run = ?', [runId]))!.n);
    }

    questionCount(runId: string): Promise<number> {
        return this.countIn(this.sql, runId);
    }

    async storedQuestion(runId: string, id: string): Promise<Question | undefined> {
        const r = await this.sql.get<{ json: string }>('SELECT json FROM questions WHERE run = ? AND id = ?', [runId, id]);
        return r && (JSON.parse(r.json) as Question);
    }

    async *questionPages(runId: string, size = 500): AsyncGenerator<Question[]> {
        for (let from = 0; ;) {
            const rows = await this.sql.all<{ seq: number; json: string }>(
                'SELECT seq, json FROM questions WHERE run = ? AND seq >= ? ORDER BY seq LIMIT ?',
                [runId, from, size],
            );
            if (rows.length === 0) return;
            from = Number(rows[rows.length - 1]!.seq) + 1;
            yield rows.map(r => JSON.parse(r.json) as Question);
        }
    }

    async questions(runId: string): Promise<Question[]> {
        return (await this.sql.all<{ json: string }>('SELECT json FROM questions WHERE run = ? ORDER BY seq', [runId])).map(
            r => JSON.parse(r.json) as Question,
        );
    }

    questionFacts(runId: string, factIds?: readonly string[]): Promise<StoredFact[]> {
        return questionFacts(this.sql, runId, factIds);
    }

    async cached(hash: string): Promise<CacheEntry | undefined> {
        const r = await this.sql.get<CacheEntry & { hash: string }>(`SELECT ${CACHE_COLUMNS} FROM cache WHERE hash = ?`, [hash]);
        if (!r) return undefined;
        const { hash: _hash, ...entry } = r;
        return entry;
    }

    async cachedMany(hashes: readonly string[]): Promise<Map<string, CacheEntry>> {
        const out = new Map<string, CacheEntry>();
        const unique = [...new Set(hashes)];
        for (let i = 0; i < unique.length; i += HASHES_PER_LOOKUP) {
            const part = unique.slice(i, i + HASHES_PER_LOOKUP);
            const rows = await this.sql.all<CacheEntry & { hash: string }>(
                `SELECT ${CACHE_COLUMNS} FROM cache WHERE hash IN (${part.map(() => '?').join(', ')})`,
                part,
            );
            for (const { hash, ...entry } of rows) out.set(hash, entry);
        }
        return out;
    }

    async cacheAnswers(entries: readonly ({ hash: string } & CacheEntry)[]): Promise<void> {
        const now = new Date().toISOString();
        await this.sql.transaction(async tx => {
            for (const e of entries)
                await tx.run(PUT_CACHE, [e.hash, e.text, e.tokensIn, e.tokensOut, e.finishReason, e.latencyMs, now]);
        });
    }

    cacheReader(): ((hash: string) => CacheEntry | undefined) | undefined {
        return undefined;
    }

    async cachedAnswers(runId: string): Promise<Set<string>> {
        const rows = await this.sql.all<{ question: string; model: string }>(
            'SELECT question, model FROM responses WHERE run = ? AND cached = 1',
            [runId],
        );
        return new Set(rows.map(r => `${r.question}\u0000${r.model}`));
    }

    recordAnswer(a: AnswerRecord): Promise<void> {
        const now = new Date().toISOString();
        // On a server the answer is one statement, atomic as it is.
        return this.sql.dialect === 'postgres'
            ? this.insertAnswer(this.sql, a, now)
            : this.sql.transaction(tx => this.insertAnswer(tx, a, now));
    }

    async recordAnswers(answers: AnswerRecord[]): Promise<void> {
        const now = new Date().toISOString();
        await this.sql.transaction(async tx => {
            for (const a of answers) await this.insertAnswer(tx, a, now);
        });
    }

    /** One answer's call, cache entry and response (on a server, as one statement). */
    private async insertAnswer(tx: Sql, a: AnswerRecord, now: string): Promise<void> {
        if (tx.dialect === 'postgres') {
            await tx.run(RECORD_ANSWER_PG, [
                ...answeredCall(a),
                now,
                a.hash,
                a.text,
                a.tokensIn,
                a.tokensOut,
                a.finishReason,
                a.latencyMs,
                now,
                a.cacheable && !a.cached,
                a.run,
                a.question,
                a.model,
                a.sample,
                a.text,
                a.cached ? 1 : 0,
            ]);
            return;
        }
        const call = await tx.get<{ id: number }>(INSERT_CALL, [...answeredCall(a), null, now]);
        if (a.cacheable && !a.cached)
            await tx.run(PUT_CACHE, [a.hash, a.text, a.tokensIn, a.tokensOut, a.finishReason, a.latencyMs, now]);
        await tx.run(PUT_RESPONSE, [a.run, a.question, a.model, a.sample, a.text, a.cached ? 1 : 0, call!.id]);
    }

    async recordSideCall(a: Omit<AnswerRecord, 'cacheable'>, entries?: { hash: string; text: string }[]): Promise<void> {
        const now = new Date().toISOString();
        await this.sql.transaction(async tx => {
            await tx.run(INSERT_CALL, [...answeredCall(a), null, now]);
            if (a.cached) return;
            // One request may answer several cache entries (a batch of embeddings: one entry per text).
            for (const e of entries ?? [{ hash: a.hash, text: a.text }])
                await tx.run(PUT_CACHE, [
                    e.hash,
                    e.text,
                    entries ? 0 : a.tokensIn,
                    entries ? 0 : a.tokensOut,
                    a.finishReason,
                    a.latencyMs,
                    now,
                ]);
        });
    }

    async recordFailure(f: FailureRecord): Promise<void> {
        await this.sql.run(INSERT_CALL, [
            f.run,
            f.question,
            f.model,
            f.sample,
            f.hash,
            JSON.stringify(f.params),
            f.latencyMs,
            0,
            0,
            0,
            f.attempts,
            'error',
            f.error,
            new Date().toISOString(),
        ]);
    }

    async answered(runId: string): Promise<Set<string>> {
        const rows = await this.sql.all<{ question: string; model: string; sample: number }>(
            'SELECT question, model, sample FROM responses WHERE run = ?',
            [runId],
        );
        return new Set(rows.map(r => slotKey(r.question, r.model, r.sample)));
    }

    async averageOutputTokens(model: string): Promise<number | undefined> {
        const r = (await this.sql.get<{ avg: number | null; n: number }>(
            "SELECT AVG(tokens_out) AS avg, COUNT(*) AS n FROM calls WHERE model = ? AND status IN ('ok', 'cached') AND tokens_out > 0",
            [model],
        ))!;
        return Number(r.n) > 0 && r.avg !== null ? Number(r.avg) : undefined;
    }

    async counts(runId: string): Promise<RunCounts> {
        const sql = this.sql;
        const q = await this.countIn(sql, runId);
        const resp = (await sql.get<{ n: number; cached: number }>(
            'SELECT COUNT(*) AS n, COALESCE(SUM(cached), 0) AS cached FROM responses WHERE run = ?',
            [runId],
        ))!;
        const calls = (await sql.get<{ n: number; tin: number; tout: number; cost: number }>(
            "SELECT COUNT(*) AS n, COALESCE(SUM(tokens_in), 0) AS tin, COALESCE(SUM(tokens_out), 0) AS tout, COALESCE(SUM(cost), 0) AS cost FROM calls WHERE run = ? AND status != 'cached'",
            [runId],
        ))!;
        const failed = Number(
            (await sql.get<{ n: number }>(
                `SELECT COUNT(*) AS n FROM (SELECT DISTINCT question, model, sample FROM calls c WHERE run = ? AND status = 'error'
            AND NOT EXISTS (SELECT 1 FROM responses r WHERE r.run = c.run AND r.question = c.question AND r.model = c.model AND r.sample = c.sample)) AS f`,
                [runId],
            ))!.n,
        );
        const run = await this.getRun(runId);
        const answered = Number(resp.n);
        const slots = Number(run?.settings.slots ?? answered + failed);
        return {
            questions: q,
            slots,
            answered,
            cached: Number(resp.cached),
            failed,
            tokensIn: Number(calls.tin),
            tokensOut: Number(calls.tout),
            cost: Number(calls.cost),
            calls: Number(calls.n),
        };
    }

    failures(runId: string): Promise<FailureSummary[]> {
        return this.sql.all<FailureSummary>(
            `SELECT question, model, sample, error, attempts FROM calls c WHERE run = ? AND status = 'error'
            AND id = (SELECT MAX(id) FROM calls d WHERE d.run = c.run AND d.question = c.question AND d.model = c.model AND d.sample = c.sample)
            AND NOT EXISTS (SELECT 1 FROM responses r WHERE r.run = c.run AND r.question = c.question AND r.model = c.model AND r.sample = c.sample)
            ORDER BY id`,
            [runId],
        );
    }

    saveVerdicts(runId: string, verdicts: Verdict[]): Promise<void> {
        return this.judgements.saveVerdicts(runId, verdicts);
    }

    async loadRunResults(runId: string): Promise<RunResults | undefined> {
        const run = await this.getRun(runId);
        if (!run) return undefined;
        const answers = await this.sql.all<StoredAnswer>(
            `SELECT r.question AS "questionId", r.model, r.sample, r.text FROM responses r
            JOIN questions q ON q.run = r.run AND q.id = r.question WHERE r.run = ? ORDER BY q.seq, r.model, r.sample`,
            [runId],
        );
        return {
            run,
            questions: await this.questions(runId),
            answers,
            verdicts: await this.judgements.verdicts(runId),
            groupVerdicts: await this.groupVerdicts(runId),
        };
    }

    saveGroupVerdicts(runId: string, verdicts: readonly GroupVerdict[]): Promise<void> {
        return this.judgements.saveGroupVerdicts(runId, verdicts);
    }

    groupVerdicts(runId: string): Promise<GroupVerdict[]> {
        return this.judgements.groupVerdicts(runId);
    }

    recordOverride(o: Omit<Override, 'at'> & { at?: string }): Promise<Override> {
        return this.judgements.recordOverride(o);
    }

    overrides(runId: string): Promise<Override[]> {
        return this.judgements.overrides(runId);
    }

    recordLabel(l: Omit<ReviewLabel, 'at'> & { at?: string }): Promise<ReviewLabel> {
        return this.reviewLabels.record(l);
    }

    removeLabel(run: string, questionId: string, model: string, sample: number, reviewer: string): Promise<boolean> {
        return this.reviewLabels.remove(run, questionId, model, sample, reviewer);
    }

    labels(runId: string): Promise<ReviewLabel[]> {
        return this.reviewLabels.list(runId);
    }
}
