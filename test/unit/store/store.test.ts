import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tempDir } from '../../support/temp.js';
import * as path from 'node:path';
import { mkdirSync } from 'node:fs';
import Database from 'better-sqlite3';
import { Store } from '../../../src/core/store/index.js';
import { MIGRATIONS } from '../../../src/core/store/migrations.js';
import { answerParams, canonicalJson, requestHash } from '../../../src/core/run/hash.js';
import type { Verdict } from '../../../src/core/verify/types.js';
import { movieQuestions } from '../../support/questions.js';

const tmp = () => path.join(tempDir('hp-store-'), 'sub', 'results.db');
const answer = (run: string, question: string, over: Partial<Parameters<Store['recordAnswer']>[0]> = {}) => ({
    run, question, model: 'm', sample: 0, hash: `h-${question}`, params: { temperature: 0 }, text: `answer ${question}`,
    tokensIn: 10, tokensOut: 5, latencyMs: 3, cost: 0.001, attempts: 1, finishReason: 'stop', cached: false, cacheable: true, ...over,
});

test('opens in WAL mode, applies migrations once, and reopens', () => {
    const file = tmp();
    const a = new Store(file);
    assert.equal(a.db.pragma('journal_mode', { simple: true }), 'wal');
    assert.equal(a.schemaVersion, MIGRATIONS.at(-1)!.version);
    a.close();
    const b = new Store(file);
    const versions = b.db.prepare('SELECT version FROM migrations').all();
    assert.equal(versions.length, MIGRATIONS.length);
    b.close();
});

test('questions, answers, the cache, counts and failures', () => {
    const store = new Store(tmp());
    const run = store.createRun('/x/spec.probe', 'movies', { slots: 4 });
    const qs = movieQuestions(4);
    assert.equal(store.saveQuestions(run.id, qs), 4);
    assert.equal(store.saveQuestions(run.id, qs), 0, 'already stored questions are kept, not doubled');
    assert.deepEqual(store.questions(run.id).map(q => q.id), qs.map(q => q.id));
    store.recordAnswer(answer(run.id, qs[0]!.id));
    store.recordAnswer(answer(run.id, qs[1]!.id, { cached: true, hash: 'h-q0', cost: 0, tokensIn: 10, tokensOut: 5 }));
    store.recordFailure({ run: run.id, question: qs[2]!.id, model: 'm', sample: 0, hash: 'h2', params: {}, attempts: 5, error: 'server: HTTP 500', latencyMs: 1 });
    assert.deepEqual(store.cached('h-q0'), { text: 'answer q0', tokensIn: 10, tokensOut: 5, finishReason: 'stop', latencyMs: 3 });
    assert.equal(store.cached('h-q1'), undefined, 'a cached answer is not cached again under another hash');
    assert.equal(store.answered(run.id).size, 2);
    const c = store.counts(run.id);
    assert.deepEqual([c.questions, c.slots, c.answered, c.cached, c.failed, c.calls, c.tokensIn], [4, 4, 2, 1, 1, 2, 10]);
    assert.deepEqual(store.failures(run.id).map(f => [f.question, f.attempts]), [[qs[2]!.id, 5]]);
    // A later answer to the failed slot clears it from the failures.
    store.recordAnswer(answer(run.id, qs[2]!.id, { hash: 'h-q2' }));
    assert.equal(store.counts(run.id).failed, 0);
    assert.equal(store.averageOutputTokens('m'), 5);
    store.close();
});

test('runs: latest, resumable, listing', () => {
    const store = new Store(tmp());
    const a = store.createRun('/s.probe', 'x', {});
    assert.equal(store.resumableRun('/s.probe', 'x')?.id, a.id);
    store.setStatus(a.id, 'completed');
    assert.equal(store.resumableRun('/s.probe', 'x'), undefined);
    assert.ok(store.getRun(a.id)!.finished);
    const b = store.createRun('/s.probe', 'x', {});
    store.setStatus(b.id, 'cancelled');
    assert.equal(store.resumableRun('/s.probe', 'x')?.id, b.id);
    assert.equal(store.resumableRun('/s.probe', 'other'), undefined);
    assert.equal(store.latestRun()?.id, b.id);
    assert.equal(store.listRuns().length, 2);
    store.close();
});

test('verdicts are saved (replacing earlier ones) and loaded with the run results', () => {
    const store = new Store(tmp());
    const run = store.createRun('/s.probe', 'x', {});
    const qs = movieQuestions(2);
    store.saveQuestions(run.id, qs);
    store.recordAnswer(answer(run.id, qs[1]!.id));
    store.recordAnswer(answer(run.id, qs[0]!.id));
    const v: Verdict = { questionId: qs[0]!.id, model: 'm', sample: 0, answer: 'yes', correct: true, rationale: false, rationaleText: '', hops: [] };
    store.saveVerdicts(run.id, [v]);
    store.saveVerdicts(run.id, [{ ...v, rationale: true }]);
    const r = store.loadRunResults(run.id)!;
    assert.deepEqual(r.answers.map(a => a.questionId), [qs[0]!.id, qs[1]!.id], 'answers in question order');
    assert.deepEqual(r.verdicts, [{ ...v, rationale: true }]);
    assert.equal(r.questions.length, 2);
    assert.equal(store.loadRunResults('nope'), undefined);
    const row = store.db.prepare('SELECT correct, rationale FROM verdicts').get();
    assert.deepEqual(row, { correct: 1, rationale: 1 });
    store.close();
});

test('an answer is durable once recorded: another connection sees it at once', () => {
    const file = tmp();
    const store = new Store(file);
    const run = store.createRun('/s.probe', 'x', {});
    store.recordAnswer(answer(run.id, 'q9'));
    const other = new Database(file, { readonly: true });
    assert.equal((other.prepare('SELECT COUNT(*) AS n FROM responses').get() as { n: number }).n, 1);
    other.close();
    store.close();
});

test('the cache key: canonical, parameter-sensitive, sample 0 is the plain request', () => {
    assert.equal(canonicalJson({ b: 1, a: [{ d: 2, c: undefined }] }), '{"a":[{"d":2}],"b":1}');
    const msgs = [{ role: 'user' as const, content: 'Q?' }];
    const h = requestHash('http://e/v1', 'm', answerParams({ temperature: 0 }, 0), msgs);
    assert.equal(h, requestHash('http://e/v1', 'm', { temperature: 0 }, msgs));
    assert.notEqual(h, requestHash('http://e/v1', 'm', answerParams({ temperature: 0.1 }, 0), msgs));
    assert.notEqual(h, requestHash('http://e/v1', 'm', answerParams({ temperature: 0, maxTokens: 9 }, 0), msgs));
    assert.notEqual(h, requestHash('http://e/v1', 'm', answerParams({ temperature: 0 }, 1), msgs));
    assert.notEqual(h, requestHash('http://f/v1', 'm', answerParams({ temperature: 0 }, 0), msgs));
    assert.notEqual(h, requestHash('http://e/v1', 'm2', answerParams({ temperature: 0 }, 0), msgs));
    assert.equal(h, requestHash('http://e/v1', 'm', answerParams({ temperature: 0, stream: true }, 0), msgs), 'streaming does not change the answer');
});

test('the fast cache key equals the canonical JSON of the whole request', async () => {
    const { createHash } = await import('node:crypto');
    const messages = [{ role: 'system' as const, content: 'Say "yes"\n' }, { role: 'user' as const, content: 'Q ü?' }];
    const params = { temperature: 0, max_tokens: 5 };
    const expected = createHash('sha256').update(canonicalJson({ endpoint: 'http://e/v1', model: 'm', params, messages })).digest('hex');
    assert.equal(requestHash('http://e/v1', 'm', params, messages), expected);
});

test('an override keeps the span it overrode; a store from before (schema 4) gains the columns and keeps its overrides', () => {
    const file = tmp();
    mkdirSync(path.dirname(file), { recursive: true });
    const old = new Database(file);
    old.exec('CREATE TABLE migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied TEXT NOT NULL)');
    for (const m of MIGRATIONS.filter(m => m.version <= 4)) {
        old.exec(m.sql);
        old.prepare('INSERT INTO migrations VALUES (?, ?, ?)').run(m.version, m.name, '2026-11-01');
    }
    old.prepare("INSERT INTO verdict_overrides (run, question, model, sample, correct, rationale, by, at, why) VALUES ('r', 'q0', 'm', 0, 1, NULL, 'ann', '2026-11-01', 'alias')").run();
    old.close();
    const store = new Store(file);
    try {
        assert.equal(store.schemaVersion, MIGRATIONS.at(-1)!.version);
        assert.deepEqual(store.overrides('r'), [{ run: 'r', questionId: 'q0', model: 'm', sample: 0, correct: true, by: 'ann', at: '2026-11-01', why: 'alias' }], 'an older override has no span, and says nothing of one');
        const read = { text: "I'm not sure", span: [0, 12] as [number, number], by: 'patterns' };
        store.recordOverride({ run: 'r', questionId: 'q1', model: 'm', sample: 0, correct: false, by: 'bob', why: 'hedged', at: '2026-11-02', read });
        assert.deepEqual(store.overrides('r')[1], { run: 'r', questionId: 'q1', model: 'm', sample: 0, correct: false, by: 'bob', at: '2026-11-02', why: 'hedged', read });
    } finally {
        store.close();
    }
});
