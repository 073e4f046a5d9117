// The results store's test suite, one suite run against both engines: a SQLite file and a real PostgreSQL server
// started by the test (skipped, and said so, only where PostgreSQL is not installed outside CI).
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import Database from 'better-sqlite3';
import { tempDir } from '../../support/temp.js';
import { MIGRATIONS } from '../../../src/core/store/migrations.js';
import { answerParams, canonicalJson, requestHash } from '../../../src/core/run/hash.js';
import { openStore, type AnswerRecord, type Store } from '../../../src/core/store/index.js';
import type { Verdict } from '../../../src/core/verify/types.js';
import { movieQuestions } from '../../support/questions.js';
import { postgresInstalled } from '../../support/postgres.js';
import { postgresEngine, sqliteEngine, type StoreEngine } from '../../support/stores.js';

const answer = (run: string, question: string, over: Partial<AnswerRecord> = {}): AnswerRecord => ({
    run,
    question,
    model: 'm',
    sample: 0,
    hash: `h-${question}`,
    params: { temperature: 0 },
    text: `answer ${question}`,
    tokensIn: 10,
    tokensOut: 5,
    latencyMs: 3,
    cost: 0.001,
    attempts: 1,
    finishReason: 'stop',
    cached: false,
    cacheable: true,
    ...over,
});

for (const engine of [sqliteEngine(), postgresEngine()]) {
    const skip = engine.name === 'postgres' && !postgresInstalled() ? 'PostgreSQL is not installed here' : undefined;
    describe(`the results store on ${engine.name}`, { skip }, () => suite(engine));
}

function suite(engine: StoreEngine): void {
    after(() => engine.stop());
    const withStore = async (fn: (store: Store, where: string) => Promise<void>) => {
        const { store, where } = await engine.fresh();
        try {
            await fn(store, where);
        } finally {
            await store.close();
        }
    };

    test('applies its migrations once, and reopens', async () => {
        const { store: a, where } = await engine.fresh();
        assert.equal(a.engine, engine.name);
        assert.equal(a.schemaVersion, MIGRATIONS.at(-1)!.version);
        await a.close();
        const b = await engine.open(where);
        const versions = await engine.rows<{ version: number }>(where, 'SELECT version FROM migrations ORDER BY version');
        assert.deepEqual(
            versions.map(v => Number(v.version)),
            MIGRATIONS.map(m => m.version),
        );
        if (engine.name === 'sqlite')
            assert.deepEqual(await engine.rows(where, 'PRAGMA journal_mode'), [{ journal_mode: 'wal' }]);
        await b.close();
    });

    test('questions, answers, the cache, counts and failures', () =>
        withStore(async store => {
            const run = await store.createRun('/x/spec.probe', 'movies', { slots: 4 });
            const qs = movieQuestions(4);
            assert.equal(await store.saveQuestions(run.id, qs), 4);
            assert.equal(await store.saveQuestions(run.id, qs), 0, 'already stored questions are kept, not doubled');
            assert.deepEqual(
                (await store.questions(run.id)).map(q => q.id),
                qs.map(q => q.id),
            );
            await store.recordAnswer(answer(run.id, qs[0]!.id));
            await store.recordAnswer(
                answer(run.id, qs[1]!.id, { cached: true, hash: 'h-q0', cost: 0, tokensIn: 10, tokensOut: 5 }),
            );
            await store.recordFailure({
                run: run.id,
                question: qs[2]!.id,
                model: 'm',
                sample: 0,
                hash: 'h2',
                params: {},
                attempts: 5,
                error: 'server: HTTP 500',
                latencyMs: 1,
            });
            assert.deepEqual(await store.cached('h-q0'), {
                text: 'answer q0',
                tokensIn: 10,
                tokensOut: 5,
                finishReason: 'stop',
                latencyMs: 3,
            });
            assert.equal(await store.cached('h-q1'), undefined, 'a cached answer is not cached again under another hash');
            assert.deepEqual(
                [...(await store.cachedMany(['h-q1', 'h-q0', 'h-q0']))],
                [['h-q0', { text: 'answer q0', tokensIn: 10, tokensOut: 5, finishReason: 'stop', latencyMs: 3 }]],
            );
            assert.equal((await store.answered(run.id)).size, 2);
            const c = await store.counts(run.id);
            assert.deepEqual([c.questions, c.slots, c.answered, c.cached, c.failed, c.calls, c.tokensIn], [4, 4, 2, 1, 1, 2, 10]);
            assert.deepEqual(
                (await store.failures(run.id)).map(f => [f.question, f.attempts]),
                [[qs[2]!.id, 5]],
            );
            // A later answer to the failed slot clears it from the failures.
            await store.recordAnswer(answer(run.id, qs[2]!.id, { hash: 'h-q2' }));
            assert.equal((await store.counts(run.id)).failed, 0);
            assert.equal(await store.averageOutputTokens('m'), 5);
            assert.deepEqual([...(await store.cachedAnswers(run.id))], [`${qs[1]!.id}\u0000m`]);
        }));

    test('questions are added in batches, numbered on, read back page by page in order', () =>
        withStore(async store => {
            const run = await store.createRun('/x/spec.probe', 'movies', {});
            const qs = movieQuestions(7);
            assert.deepEqual(await store.addQuestions(run.id, qs.slice(0, 3), 0), [true, true, true]);
            // A repeat within a batch and an id stored already are not new; numbering goes on from the caller's seq.
            assert.deepEqual(await store.addQuestions(run.id, [qs[2]!, qs[3]!, qs[3]!, ...qs.slice(4)], 3), [
                false,
                true,
                false,
                true,
                true,
                true,
            ]);
            assert.equal(await store.questionCount(run.id), 7);
            const pages: string[][] = [];
            for await (const page of store.questionPages(run.id, 3)) pages.push(page.map(q => q.id));
            assert.deepEqual(
                pages,
                [qs.slice(0, 3), qs.slice(3, 6), qs.slice(6)].map(p => p.map(q => q.id)),
            );
            assert.equal((await store.storedQuestion(run.id, qs[5]!.id))?.question, qs[5]!.question);
            assert.equal(await store.storedQuestion(run.id, 'nope'), undefined);
        }));

    test('runs: latest, resumable, listing', () =>
        withStore(async store => {
            const a = await store.createRun('/s.probe', 'x', {});
            assert.equal((await store.resumableRun('/s.probe', 'x'))?.id, a.id);
            await store.setStatus(a.id, 'completed');
            assert.equal(await store.resumableRun('/s.probe', 'x'), undefined);
            assert.ok((await store.getRun(a.id))!.finished);
            const b = await store.createRun('/s.probe', 'x', {});
            await store.setStatus(b.id, 'cancelled');
            assert.equal((await store.resumableRun('/s.probe', 'x'))?.id, b.id);
            assert.equal(await store.resumableRun('/s.probe', 'other'), undefined);
            assert.equal((await store.latestRun())?.id, b.id);
            assert.deepEqual(
                (await store.listRuns()).map(r => r.id),
                [b.id, a.id],
            );
            await store.updateSettings(b.id, { seed: 7 });
            assert.deepEqual((await store.getRun(b.id))!.settings, { seed: 7 });
        }));

    test('verdicts are saved (replacing earlier ones) and loaded with the run results', () =>
        withStore(async (store, where) => {
            const run = await store.createRun('/s.probe', 'x', {});
            const qs = movieQuestions(2);
            await store.saveQuestions(run.id, qs);
            await store.recordAnswer(answer(run.id, qs[1]!.id));
            await store.recordAnswer(answer(run.id, qs[0]!.id));
            const v: Verdict = {
                questionId: qs[0]!.id,
                model: 'm',
                sample: 0,
                answer: 'yes',
                correct: true,
                rationale: false,
                rationaleText: '',
                hops: [],
            };
            await store.saveVerdicts(run.id, [v]);
            await store.saveVerdicts(run.id, [{ ...v, rationale: true }]);
            const r = (await store.loadRunResults(run.id))!;
            assert.deepEqual(
                r.answers.map(a => a.questionId),
                [qs[0]!.id, qs[1]!.id],
                'answers in question order',
            );
            assert.deepEqual(r.verdicts, [{ ...v, rationale: true }]);
            assert.equal(r.questions.length, 2);
            assert.equal(await store.loadRunResults('nope'), undefined);
            const rows = await engine.rows<{ correct: number; rationale: number }>(
                where,
                'SELECT correct, rationale FROM verdicts',
            );
            assert.deepEqual(rows, [{ correct: 1, rationale: 1 }]);
        }));

    test('group verdicts are replaced as a whole; an override replaces the earlier one of its slot', () =>
        withStore(async store => {
            const run = (await store.createRun('/s.probe', 'x', {})).id;
            const g = {
                group: 'g1',
                model: 'm',
                sample: 0,
                relation: 'twins',
                probe: 'p',
                outcome: 'consistent',
                ok: true,
            } as never;
            await store.saveGroupVerdicts(run, [g, { ...(g as object), group: 'g2', ok: null } as never]);
            await store.saveGroupVerdicts(run, [{ ...(g as object), outcome: 'inconsistent', ok: false } as never]);
            assert.deepEqual(
                (await store.groupVerdicts(run)).map(x => [x.group, x.outcome, x.ok]),
                [['g1', 'inconsistent', false]],
            );
            await store.recordOverride({
                run,
                questionId: 'q1',
                model: 'm',
                sample: 0,
                correct: true,
                by: 'ann',
                why: 'alias',
                at: '2026-01-01T00:00:00.000Z',
            });
            await store.recordOverride({ run, questionId: 'q1', model: 'm', sample: 0, rationale: false, by: 'bob', why: 'no' });
            const o = await store.overrides(run);
            assert.equal(o.length, 1);
            assert.deepEqual([o[0]!.by, o[0]!.correct, o[0]!.rationale], ['bob', undefined, false]);
        }));

    test('an override keeps the span it overrode; one written without it (an older store) says nothing of one', () =>
        withStore(async (store, where) => {
            const run = (await store.createRun('/s.probe', 'x', {})).id;
            await engine.exec(
                where,
                `INSERT INTO verdict_overrides (run, question, model, sample, correct, rationale, "by", at, why) VALUES (?, 'q0', 'm', 0, 1, NULL, 'ann', '2026-11-01', 'alias')`,
                [run],
            );
            const read = { text: "I'm not sure", span: [0, 12] as [number, number], by: 'patterns' };
            await store.recordOverride({
                run,
                questionId: 'q1',
                model: 'm',
                sample: 0,
                correct: false,
                by: 'bob',
                why: 'hedged',
                at: '2026-11-02',
                read,
            });
            assert.deepEqual(await store.overrides(run), [
                { run, questionId: 'q0', model: 'm', sample: 0, correct: true, by: 'ann', at: '2026-11-01', why: 'alias' },
                {
                    run,
                    questionId: 'q1',
                    model: 'm',
                    sample: 0,
                    correct: false,
                    by: 'bob',
                    at: '2026-11-02',
                    why: 'hedged',
                    read,
                },
            ]);
        }));

    test('review labels: several reviewers side by side, replaced per reviewer, removed (undo), with what the reader had read', () =>
        withStore(async (store, where) => {
            const run = (await store.createRun('/x/spec.probe', 'movies', {})).id;
            const read = {
                answer: 'no',
                correct: false,
                text: 'No',
                span: [0, 2] as [number, number],
                why: 'opens with "No"',
                by: 'patterns',
            };
            await store.recordLabel({
                run,
                questionId: 'q1',
                model: 'm',
                sample: 0,
                reviewer: 'ann',
                label: 'fail',
                at: '2026-11-01T00:00:00.000Z',
                read,
            });
            await store.recordLabel({
                run,
                questionId: 'q1',
                model: 'm',
                sample: 0,
                reviewer: 'bob',
                label: 'pass',
                rationale: false,
                at: '2026-11-02T00:00:00.000Z',
                claims: [{ index: 1, status: 'contradicted' }],
            });
            await store.recordLabel({
                run,
                questionId: 'q2',
                model: 'm',
                sample: 1,
                reviewer: 'ann',
                label: 'unsure',
                at: '2026-11-03T00:00:00.000Z',
            });
            await store.recordLabel({
                run,
                questionId: 'q1',
                model: 'm',
                sample: 0,
                reviewer: 'ann',
                label: 'unreadable',
                at: '2026-11-04T00:00:00.000Z',
                read,
            });
            assert.deepEqual(await store.labels(run), [
                {
                    run,
                    questionId: 'q1',
                    model: 'm',
                    sample: 0,
                    reviewer: 'bob',
                    label: 'pass',
                    rationale: false,
                    at: '2026-11-02T00:00:00.000Z',
                    claims: [{ index: 1, status: 'contradicted' }],
                },
                {
                    run,
                    questionId: 'q2',
                    model: 'm',
                    sample: 1,
                    reviewer: 'ann',
                    label: 'unsure',
                    at: '2026-11-03T00:00:00.000Z',
                },
                {
                    run,
                    questionId: 'q1',
                    model: 'm',
                    sample: 0,
                    reviewer: 'ann',
                    label: 'unreadable',
                    at: '2026-11-04T00:00:00.000Z',
                    read,
                },
            ]);
            assert.equal(await store.removeLabel(run, 'q2', 'm', 1, 'ann'), true);
            assert.equal(await store.removeLabel(run, 'q2', 'm', 1, 'ann'), false, 'nothing left to undo');
            assert.deepEqual(
                (await store.labels(run)).map(l => l.reviewer),
                ['bob', 'ann'],
            );
            const rows = await engine.rows<{ n: number }>(where, 'SELECT COUNT(*) AS n FROM review_labels WHERE run = ?', [run]);
            assert.equal(Number(rows[0]!.n), 2, 'kept in the store, seen by another connection');
        }));

    test('batches and their slots: stored before creation, updated, collected, attempts per slot', () =>
        withStore(async store => {
            const run = (await store.createRun('/s.probe', 'x', {})).id;
            await store.batches.addBatch(
                { local: 'hp-1', run, model: 'm', inputFile: 'file-1', endpoint: 'https://api.openai.com/v1' },
                [
                    { customId: '1-0', question: 'q0', sample: 0, hash: 'h0', attempt: 1 },
                    { customId: '1-1', question: 'q1', sample: 0, hash: 'h1', attempt: 1 },
                ],
            );
            await store.batches.updateBatch('hp-1', { id: 'batch_1', status: 'in_progress' });
            assert.deepEqual(
                (await store.batches.batches(run, 'm')).map(b => [b.id, b.status, b.requests, b.collected]),
                [['batch_1', 'in_progress', 2, false]],
            );
            assert.deepEqual(
                [...(await store.batches.batchAttempts(run, 'm')).values()],
                [
                    { attempts: 1, open: true },
                    { attempts: 1, open: true },
                ],
            );
            await store.batches.updateBatch('hp-1', { status: 'completed', done: 1, failed: 1, outputFile: 'out-1' });
            await store.batches.markCollected('hp-1');
            const [b] = await store.batches.batches(run);
            assert.deepEqual(
                [b!.id, b!.status, b!.done, b!.failed, b!.outputFile, b!.collected],
                ['batch_1', 'completed', 1, 1, 'out-1', true],
            );
            assert.equal(b!.endpoint, 'https://api.openai.com/v1', 'where it was submitted');
            assert.deepEqual(
                (await store.batches.batchSlots('hp-1')).map(s => s.customId),
                ['1-0', '1-1'],
            );
            assert.equal((await store.batches.batchAttempts(run, 'm')).get('q0\u0000m\u00000')?.open, false);
        }));

    test('an answer is durable once recorded: another connection sees it at once', () =>
        withStore(async (store, where) => {
            const run = await store.createRun('/s.probe', 'x', {});
            await store.recordAnswer(answer(run.id, 'q9'));
            const [row] = await engine.rows<{ n: number }>(where, 'SELECT COUNT(*) AS n FROM responses');
            assert.equal(Number(row!.n), 1);
        }));

    test('two stores choosing a run at once: one creates it, the other finds it (exclusive)', () =>
        withStore(async (store, where) => {
            const other = await engine.open(where);
            try {
                const choose = (s: Store) =>
                    s.exclusive(async tx => (await tx.resumableRun('/s.probe', 'x')) ?? tx.createRun('/s.probe', 'x', {}));
                const [a, b] = await Promise.all([choose(store), choose(other), choose(store), choose(other)]);
                assert.equal(a.id, b.id);
                assert.equal((await store.listRuns()).length, 1);
            } finally {
                await other.close();
            }
        }));

    test('chunks of a shared run: claimed once each however many workers ask at once; a lapsed lease frees its chunk', () =>
        withStore(async (store, where) => {
            const run = (await store.createRun('/s.probe', 'x', {})).id;
            await store.saveQuestions(run, movieQuestions(10));
            assert.equal(await store.chunks.addChunks(run, 10, 3), 4);
            assert.equal(await store.chunks.addChunks(run, 10, 3), 4, 'made once');
            const others = await Promise.all([engine.open(where), engine.open(where), engine.open(where)]);
            try {
                const workers = [store, ...others];
                // Every worker asks twice at once: four chunks, eight claims, each chunk to exactly one of them.
                const claims = await Promise.all(
                    workers.flatMap(w => [w.chunks.claim(run, 60_000), w.chunks.claim(run, 60_000)]),
                );
                const got = claims
                    .filter(c => c !== undefined)
                    .map(c => c!.chunk)
                    .sort();
                assert.deepEqual(got, [0, 1, 2, 3]);
                assert.deepEqual(await store.chunks.state(run), { total: 4, done: 0, held: 4, free: 0 });
                const mine = claims
                    .slice(0, 2)
                    .filter(c => c !== undefined)
                    .map(c => c!.fence);
                const theirs = claims
                    .slice(2)
                    .filter(c => c !== undefined)
                    .map(c => c!.fence);
                assert.deepEqual(
                    [...(await store.chunks.renew(run, 60_000, [...mine, ...theirs]))].sort(),
                    [...mine, ...theirs].sort(),
                    'the claims named by their fences',
                );
                assert.equal(new Set(claims.map(c => c?.fence).filter(Boolean)).size, 4, 'one fence per claim');
                // A worker's lease lapses (here: it is given one that has already run out); the next claim takes it over.
                const dead = others[0]!;
                await dead.chunks.release(run);
                const lapsed = await dead.chunks.claim(run, -1);
                assert.ok(lapsed);
                assert.equal(lapsed.takenOver, false);
                const taken = await others[1]!.chunks.claim(run, 60_000);
                assert.deepEqual([taken?.chunk, taken?.takenOver], [lapsed.chunk, true]);
                assert.equal(
                    (await dead.chunks.renew(run, 60_000, [lapsed.fence])).has(lapsed.fence),
                    false,
                    'the first holder sees it lost',
                );
                assert.equal(await dead.chunks.send(run, lapsed.chunk, lapsed.fence, 60_000), false, 'sends nothing more for it');
                assert.equal(await dead.chunks.finish(run, lapsed.chunk, lapsed.fence), false, 'and cannot finish it');
                assert.equal(await others[1]!.chunks.send(run, taken!.chunk, taken!.fence, 60_000), true, 'the new holder sends');
                assert.equal(await others[1]!.chunks.finish(run, lapsed.chunk, taken!.fence), true);
                const [row] = await engine.rows<{ takeovers: number; pid: number }>(
                    where,
                    'SELECT takeovers, pid FROM work_chunks WHERE run = ? AND chunk = ?',
                    [run, lapsed.chunk],
                );
                assert.equal(Number(row!.takeovers), 1);
                // The questions of a chunk, and which of its slots are answered.
                const first = (await store.chunks.questions(run, 3, 5)).map(q => q.id);
                assert.equal(first.length, 3);
                await store.recordAnswer(answer(run, first[1]!));
                assert.deepEqual([...(await store.chunks.answered(run, 3, 5))], [`${first[1]}\u0000m\u00000`]);
                for (const w of workers) await w.chunks.release(run);
                assert.deepEqual(await store.chunks.state(run), { total: 4, done: 1, held: 0, free: 3 });
                await store.chunks.reopen(run);
                assert.equal((await store.chunks.state(run)).free, 4);
                assert.equal(await store.chunks.complete(run), true);
                assert.equal(await store.chunks.complete(run), false, 'completed once: one worker verifies');
            } finally {
                for (const o of others) await o.close();
            }
        }));

    test('a lease is free once its process is gone or its heartbeat is stale', () =>
        withStore(async (first, where) => {
            const run = (await first.createRun('/s.probe', 's', {})).id;
            assert.equal(await first.acquireLease(run), undefined);
            const second = await engine.open(where);
            try {
                assert.equal((await second.acquireLease(run))?.pid, process.pid, 'a live holder is reported');
                // A process that died (here: a finished child) leaves a lease that is free at once.
                const child = spawn(process.execPath, ['-e', '0']);
                const pid = await new Promise<number>(resolve => child.on('exit', () => resolve(child.pid!)));
                await engine.exec(where, 'UPDATE run_leases SET pid = ? WHERE run = ?', [pid, run]);
                assert.equal(await second.acquireLease(run), undefined);
                // A holder on another host counts until its heartbeat is older than the timeout.
                await engine.exec(where, "UPDATE run_leases SET host = 'elsewhere', token = 'x', heartbeat = ? WHERE run = ?", [
                    Date.now(),
                    run,
                ]);
                assert.equal((await first.acquireLease(run))?.host, 'elsewhere');
                await engine.exec(where, 'UPDATE run_leases SET heartbeat = 0 WHERE run = ?', [run]);
                assert.equal(await first.acquireLease(run), undefined);
            } finally {
                await second.close();
            }
        }));

    test('the run lease: a second store is refused while the first holds it, free once released', () =>
        withStore(async (store, where) => {
            const run = (await store.createRun('/s.probe', 'x', {})).id;
            const other = await engine.open(where);
            try {
                assert.equal(await store.acquireLease(run), undefined);
                assert.equal((await other.acquireLease(run))?.pid, process.pid);
                await store.releaseLease(run);
                assert.equal(await other.acquireLease(run), undefined);
            } finally {
                await other.close();
            }
            // Closing a store gives up its leases.
            assert.equal(await store.acquireLease(run), undefined);
        }));
}

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
    assert.equal(
        h,
        requestHash('http://e/v1', 'm', answerParams({ temperature: 0, stream: true }, 0), msgs),
        'streaming does not change the answer',
    );
});

test('the fast cache key equals the canonical JSON of the whole request', async () => {
    const { createHash } = await import('node:crypto');
    const messages = [
        { role: 'system' as const, content: 'Say "yes"\n' },
        { role: 'user' as const, content: 'Q ü?' },
    ];
    const params = { temperature: 0, max_tokens: 5 };
    const expected = createHash('sha256')
        .update(canonicalJson({ endpoint: 'http://e/v1', model: 'm', params, messages }))
        .digest('hex');
    assert.equal(requestHash('http://e/v1', 'm', params, messages), expected);
});

test('a SQLite store from before the override span (schema 4) gains the columns and keeps its overrides', async () => {
    const file = path.join(tempDir('hp-store-old-'), 'results.db');
    const old = new Database(file);
    old.exec('CREATE TABLE migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied TEXT NOT NULL)');
    for (const m of MIGRATIONS.filter(m => m.version <= 4)) {
        old.exec(m.sql);
        old.prepare('INSERT INTO migrations VALUES (?, ?, ?)').run(m.version, m.name, '2026-11-01');
    }
    old.prepare(
        "INSERT INTO verdict_overrides (run, question, model, sample, correct, rationale, by, at, why) VALUES ('r', 'q0', 'm', 0, 1, NULL, 'ann', '2026-11-01', 'alias')",
    ).run();
    old.close();
    const store = await openStore(file);
    try {
        assert.equal(store.schemaVersion, MIGRATIONS.at(-1)!.version);
        assert.deepEqual(await store.overrides('r'), [
            { run: 'r', questionId: 'q0', model: 'm', sample: 0, correct: true, by: 'ann', at: '2026-11-01', why: 'alias' },
        ]);
    } finally {
        await store.close();
    }
});
