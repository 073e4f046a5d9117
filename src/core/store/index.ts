/**
 * The results store: one SQLite file (better-sqlite3, WAL) holding runs, their questions, every call, the
 * response cache, answers and verdicts. Each answer is committed in its own transaction as it arrives, so a
 * killed run loses nothing it received. Keys never reach this file: callers pass parameters without them.
 * The records are in types.ts, opening a file in open.ts, the judgement tables in verdicts.ts, batches in batches.ts.
 */
import { randomBytes } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { Question } from '../probes/question.js';
import type { Verdict } from '../verify/types.js';
import type { GroupVerdict } from '../verify/types.js';
import type { Override } from '../verify/overrides.js';
import { Leases, type LeaseHolder } from './lease.js';
import { openSqlite } from './open.js';
import { Judgements } from './verdicts.js';
import { BatchTables } from './batches.js';
import { slotKey, type AnswerRecord, type CacheEntry, type FailureRecord, type RunCounts, type RunRecord, type RunResults, type RunSettings, type RunStatus, type StoredAnswer } from './types.js';

export { leaseMessage, LEASE_STALE_MS, type LeaseHolder } from './lease.js';
export * from './types.js';
export type { BatchRecord, BatchSlot } from './batches.js';
export { copyStore, type CopyResult } from './copy.js';

interface RunRow { id: string; spec: string; suite: string; started: string; finished: string | null; status: RunStatus; settings: string }

const toRun = (r: RunRow): RunRecord => ({ ...r, settings: JSON.parse(r.settings) as RunSettings });

export class Store {
    readonly db: Database.Database;
    readonly schemaVersion: number;
    private readonly stmts;
    private readonly leases: Leases;
    private readonly judgements: Judgements;
    /** The provider batches of batch runs. */
    readonly batches: BatchTables;

    constructor(readonly file: string) {
        ({ db: this.db, schemaVersion: this.schemaVersion } = openSqlite(file));
        this.leases = new Leases(this.db);
        this.judgements = new Judgements(this.db);
        this.batches = new BatchTables(this.db);
        const db = this.db;
        this.stmts = {
            insertRun: db.prepare('INSERT INTO runs (id, spec, suite, started, finished, status, settings) VALUES (?, ?, ?, ?, NULL, ?, ?)'),
            getRun: db.prepare('SELECT * FROM runs WHERE id = ?'),
            setStatus: db.prepare('UPDATE runs SET status = ?, finished = ? WHERE id = ?'),
            insertQuestion: db.prepare('INSERT OR IGNORE INTO questions (run, id, seq, probe, kind, phrasing, json) VALUES (?, ?, ?, ?, ?, ?, ?)'),
            countQuestions: db.prepare('SELECT COUNT(*) AS n FROM questions WHERE run = ?'),
            getQuestion: db.prepare('SELECT json FROM questions WHERE run = ? AND id = ?'),
            // By rowid, which follows seq within a run: a range scan per page (the table has no (run, seq) index).
            firstQuestionRow: db.prepare('SELECT MIN(rowid) AS r FROM questions WHERE run = ?'),
            questionPage: db.prepare('SELECT rowid AS r, json FROM questions NOT INDEXED WHERE run = ? AND rowid >= ? ORDER BY rowid LIMIT ?'),
            getCache: db.prepare('SELECT text, tokens_in AS tokensIn, tokens_out AS tokensOut, finish_reason AS finishReason, latency_ms AS latencyMs FROM cache WHERE hash = ?'),
            putCache: db.prepare('INSERT OR IGNORE INTO cache (hash, text, tokens_in, tokens_out, finish_reason, latency_ms, created) VALUES (?, ?, ?, ?, ?, ?, ?)'),
            insertCall: db.prepare(`INSERT INTO calls (run, question, model, sample, hash, params, latency_ms, tokens_in, tokens_out, cost, attempts, status, error, at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
            insertResponse: db.prepare('INSERT OR REPLACE INTO responses (run, question, model, sample, text, cached, call) VALUES (?, ?, ?, ?, ?, ?, ?)'),
            answered: db.prepare('SELECT question, model, sample FROM responses WHERE run = ?'),
        };
    }

    /** Releases this store's run leases, then closes the file. */
    close(): void {
        if (this.db.open) this.leases.releaseAll();
        this.db.close();
    }

    /** Takes the one-writer lease of a run; the live holder when another process writes it. */
    acquireLease(runId: string): LeaseHolder | undefined { return this.leases.acquire(runId); }

    releaseLease(runId: string): void { this.leases.release(runId); }

    /** Runs `fn` in one IMMEDIATE transaction (choosing or creating a run is atomic across processes). */
    exclusive<T>(fn: () => T): T { return this.db.transaction(fn).immediate(); }

    createRun(spec: string, suite: string, settings: RunSettings): RunRecord {
        const now = new Date();
        const id = `${now.toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '-')}-${randomBytes(3).toString('hex')}`;
        this.stmts.insertRun.run(id, spec, suite, now.toISOString(), 'running', JSON.stringify(settings));
        return this.getRun(id)!;
    }

    getRun(id: string): RunRecord | undefined {
        const r = this.stmts.getRun.get(id) as RunRow | undefined;
        return r && toRun(r);
    }

    setStatus(id: string, status: RunStatus): void {
        this.stmts.setStatus.run(status, status === 'running' ? null : new Date().toISOString(), id);
    }

    updateSettings(id: string, settings: RunSettings): void {
        this.db.prepare('UPDATE runs SET settings = ? WHERE id = ?').run(JSON.stringify(settings), id);
    }

    listRuns(): RunRecord[] {
        return (this.db.prepare('SELECT * FROM runs ORDER BY started DESC, rowid DESC').all() as RunRow[]).map(toRun);
    }

    latestRun(spec?: string, suite?: string): RunRecord | undefined {
        const r = (spec === undefined
            ? this.db.prepare('SELECT * FROM runs ORDER BY started DESC, rowid DESC LIMIT 1').get()
            : this.db.prepare('SELECT * FROM runs WHERE spec = ? AND suite = ? ORDER BY started DESC, rowid DESC LIMIT 1').get(spec, suite ?? '')) as RunRow | undefined;
        return r && toRun(r);
    }

    /** The latest run of this spec and suite that did not complete: what `halluprobe run` continues. */
    resumableRun(spec: string, suite: string): RunRecord | undefined {
        const r = this.latestRun(spec, suite);
        return r && r.status !== 'completed' ? r : undefined;
    }

    /** Adds the run's questions (already stored ones are kept), in one transaction. */
    saveQuestions(runId: string, questions: Iterable<Question>): number {
        let seq = (this.stmts.countQuestions.get(runId) as { n: number }).n;
        let added = 0;
        this.db.transaction(() => {
            for (const q of questions) {
                const r = this.stmts.insertQuestion.run(runId, q.id, seq, q.probe, q.kind, q.phrasing, JSON.stringify(q));
                if (r.changes) { seq++; added++; }
            }
        })();
        return added;
    }

    /**
     * Stores a batch of the run's questions, numbered from `seq` on, in one transaction; says which were new (a
     * question id the run holds already keeps its stored version). Generation streams through this in batches.
     */
    addQuestions(runId: string, questions: readonly Question[], seq: number): boolean[] {
        const added: boolean[] = [];
        this.db.transaction(() => {
            for (const q of questions) {
                const r = this.stmts.insertQuestion.run(runId, q.id, seq, q.probe, q.kind, q.phrasing, JSON.stringify(q));
                added.push(r.changes > 0);
                if (r.changes) seq++;
            }
        })();
        return added;
    }

    questionCount(runId: string): number {
        return (this.stmts.countQuestions.get(runId) as { n: number }).n;
    }

    /** One stored question of a run. */
    storedQuestion(runId: string, id: string): Question | undefined {
        const r = this.stmts.getQuestion.get(runId, id) as { json: string } | undefined;
        return r && (JSON.parse(r.json) as Question);
    }

    /** The run's stored questions page by page, in the order they were stored (only one page is held at a time). */
    *questionPages(runId: string, size = 500): Generator<Question[]> {
        let from = (this.stmts.firstQuestionRow.get(runId) as { r: number | null }).r;
        while (from !== null) {
            const rows = this.stmts.questionPage.all(runId, from, size) as { r: number; json: string }[];
            if (rows.length === 0) return;
            from = rows[rows.length - 1]!.r + 1;
            yield rows.map(r => JSON.parse(r.json) as Question);
        }
    }

    questions(runId: string): Question[] {
        return (this.db.prepare('SELECT json FROM questions WHERE run = ? ORDER BY seq').all(runId) as { json: string }[])
            .map(r => JSON.parse(r.json) as Question);
    }

    cached(hash: string): CacheEntry | undefined {
        return this.stmts.getCache.get(hash) as CacheEntry | undefined;
    }

    /** The (question, model) pairs of a run that were answered from the cache, as `slotKey`-like "question\0model". */
    cachedAnswers(runId: string): Set<string> {
        const rows = this.db.prepare('SELECT question, model FROM responses WHERE run = ? AND cached = 1').all(runId) as { question: string; model: string }[];
        return new Set(rows.map(r => `${r.question}\u0000${r.model}`));
    }

    /** Commits one answer: the call, the cache entry and the response, atomically. */
    recordAnswer(a: AnswerRecord): void {
        this.db.transaction(() => this.insertAnswer(a, new Date().toISOString()))();
    }

    /**
     * Commits many answers in one transaction. Only for answers that are durable elsewhere already (cache
     * hits): a crash before the commit loses nothing, a resume serves them from the cache again.
     */
    recordAnswers(answers: AnswerRecord[]): void {
        const now = new Date().toISOString();
        this.db.transaction(() => { for (const a of answers) this.insertAnswer(a, now); })();
    }

    private insertAnswer(a: AnswerRecord, now: string): void {
        const call = this.stmts.insertCall.run(a.run, a.question, a.model, a.sample, a.hash, JSON.stringify(a.params), a.latencyMs,
            a.tokensIn, a.tokensOut, a.cost, a.attempts, a.cached ? 'cached' : 'ok', null, now);
        if (a.cacheable && !a.cached) this.stmts.putCache.run(a.hash, a.text, a.tokensIn, a.tokensOut, a.finishReason, a.latencyMs, now);
        this.stmts.insertResponse.run(a.run, a.question, a.model, a.sample, a.text, a.cached ? 1 : 0, call.lastInsertRowid);
    }

    /**
     * Commits a call made on the way to a verdict rather than as an answer (a rule probe's claim extraction): the
     * call, and its cache entry when it was asked (not served from the cache); no response row, so the run's
     * answers and their counts stay the questions'.
     */
    recordSideCall(a: Omit<AnswerRecord, 'cacheable'>, entries?: { hash: string; text: string }[]): void {
        const now = new Date().toISOString();
        this.db.transaction(() => {
            this.stmts.insertCall.run(a.run, a.question, a.model, a.sample, a.hash, JSON.stringify(a.params), a.latencyMs,
                a.tokensIn, a.tokensOut, a.cost, a.attempts, a.cached ? 'cached' : 'ok', null, now);
            if (a.cached) return;
            // One request may answer several cache entries (a batch of embeddings: one entry per text).
            for (const e of entries ?? [{ hash: a.hash, text: a.text }]) this.stmts.putCache.run(e.hash, e.text, entries ? 0 : a.tokensIn, entries ? 0 : a.tokensOut, a.finishReason, a.latencyMs, now);
        })();
    }

    /**
     * Caches answers asked before their run exists (the models a probe's generation reads: run/aids.ts); their calls
     * are recorded with the run once it is made (\`recordSideCall\`, which leaves these entries as they are).
     */
    cacheAnswers(entries: readonly ({ hash: string } & CacheEntry)[]): void {
        const now = new Date().toISOString();
        this.db.transaction(() => {
            for (const e of entries) this.stmts.putCache.run(e.hash, e.text, e.tokensIn, e.tokensOut, e.finishReason, e.latencyMs, now);
        })();
    }

    recordFailure(f: FailureRecord): void {
        this.stmts.insertCall.run(f.run, f.question, f.model, f.sample, f.hash, JSON.stringify(f.params), f.latencyMs, 0, 0, 0, f.attempts, 'error', f.error, new Date().toISOString());
    }

    /** The answer slots of a run that already have a response. */
    answered(runId: string): Set<string> {
        const rows = this.stmts.answered.all(runId) as { question: string; model: string; sample: number }[];
        return new Set(rows.map(r => slotKey(r.question, r.model, r.sample)));
    }

    /** Average output tokens of the model's answered calls, for estimates; undefined when there are none. */
    averageOutputTokens(model: string): number | undefined {
        const r = this.db.prepare("SELECT AVG(tokens_out) AS avg, COUNT(*) AS n FROM calls WHERE model = ? AND status IN ('ok', 'cached') AND tokens_out > 0").get(model) as { avg: number | null; n: number };
        return r.n > 0 && r.avg !== null ? r.avg : undefined;
    }

    counts(runId: string): RunCounts {
        const db = this.db;
        const q = (db.prepare('SELECT COUNT(*) AS n FROM questions WHERE run = ?').get(runId) as { n: number }).n;
        const resp = db.prepare('SELECT COUNT(*) AS n, COALESCE(SUM(cached), 0) AS cached FROM responses WHERE run = ?').get(runId) as { n: number; cached: number };
        const calls = db.prepare("SELECT COUNT(*) AS n, COALESCE(SUM(tokens_in), 0) AS tin, COALESCE(SUM(tokens_out), 0) AS tout, COALESCE(SUM(cost), 0) AS cost FROM calls WHERE run = ? AND status != 'cached'").get(runId) as { n: number; tin: number; tout: number; cost: number };
        const failed = (db.prepare(`SELECT COUNT(*) AS n FROM (SELECT DISTINCT question, model, sample FROM calls c WHERE run = ? AND status = 'error'
            AND NOT EXISTS (SELECT 1 FROM responses r WHERE r.run = c.run AND r.question = c.question AND r.model = c.model AND r.sample = c.sample))`).get(runId) as { n: number }).n;
        const run = this.getRun(runId);
        const slots = Number(run?.settings.slots ?? resp.n + failed);
        return { questions: q, slots, answered: resp.n, cached: resp.cached, failed, tokensIn: calls.tin, tokensOut: calls.tout, cost: calls.cost, calls: calls.n };
    }

    /** The last error of each unanswered slot of a run. */
    failures(runId: string): { question: string; model: string; sample: number; error: string; attempts: number }[] {
        return this.db.prepare(`SELECT question, model, sample, error, attempts FROM calls c WHERE run = ? AND status = 'error'
            AND id = (SELECT MAX(id) FROM calls d WHERE d.run = c.run AND d.question = c.question AND d.model = c.model AND d.sample = c.sample)
            AND NOT EXISTS (SELECT 1 FROM responses r WHERE r.run = c.run AND r.question = c.question AND r.model = c.model AND r.sample = c.sample)`)
            .all(runId) as { question: string; model: string; sample: number; error: string; attempts: number }[];
    }

    saveVerdicts(runId: string, verdicts: Verdict[]): void { this.judgements.saveVerdicts(runId, verdicts); }

    loadRunResults(runId: string): RunResults | undefined {
        const run = this.getRun(runId);
        if (!run) return undefined;
        const answers = this.db.prepare(`SELECT r.question AS questionId, r.model, r.sample, r.text FROM responses r
            JOIN questions q ON q.run = r.run AND q.id = r.question WHERE r.run = ? ORDER BY q.seq, r.model, r.sample`).all(runId) as StoredAnswer[];
        return { run, questions: this.questions(runId), answers, verdicts: this.judgements.verdicts(runId), groupVerdicts: this.groupVerdicts(runId) };
    }

    /** Replaces the run's group verdicts (they are derived from all its verdicts at once). */
    saveGroupVerdicts(runId: string, verdicts: readonly GroupVerdict[]): void { this.judgements.saveGroupVerdicts(runId, verdicts); }

    groupVerdicts(runId: string): GroupVerdict[] { return this.judgements.groupVerdicts(runId); }

    /** Records (or replaces) a user's override of one verdict; `at` defaults to now. */
    recordOverride(o: Omit<Override, 'at'> & { at?: string }): Override { return this.judgements.recordOverride(o); }

    overrides(runId: string): Override[] { return this.judgements.overrides(runId); }
}

export function openStore(file: string): Store {
    return new Store(file);
}
