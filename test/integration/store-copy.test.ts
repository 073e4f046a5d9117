/**
 * Copying runs between a SQLite results file and a real PostgreSQL server (started by the test): everything a run
 * holds arrives, a second copy skips it, and the way back gives the same results. The password comes from
 * PGPASSWORD, never the URL.
 */
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { copyStore } from '../../src/core/store/copy.js';
import { openStore, type Store } from '../../src/core/store/index.js';
import { startPostgres, type PostgresServer } from '../support/postgres.js';
import { movieQuestions } from '../support/questions.js';
import { newRun, tempDir } from '../support/runner-fixtures.js';
import { cli } from '../support/cli-process.js';

let pg: PostgresServer | undefined;
before(async () => {
    pg = await startPostgres();
    if (!pg) return;
    pg.createDatabase('team');
    process.env.PGPASSWORD = pg.password;
});
after(() => {
    pg?.stop();
    delete process.env.PGPASSWORD;
});

/** A run with answers (one from the cache), a failure, verdicts, an override, review labels, a group verdict and a batch. */
async function fill(store: Store): Promise<string> {
    const questions = movieQuestions(4, 'c');
    const runId = await newRun(store, questions);
    const answer = (i: number, cached: boolean) => ({
        run: runId,
        question: questions[i]!.id,
        model: 'mini',
        sample: 0,
        hash: `h${i}`,
        params: { temperature: 0 },
        text: `Yes ${i}.`,
        tokensIn: 10 + i,
        tokensOut: 2,
        latencyMs: 5,
        cost: 0.001 * i,
        attempts: 1,
        finishReason: 'stop',
        cached,
        cacheable: !cached,
    });
    await store.recordAnswer(answer(0, false));
    await store.recordAnswer(answer(1, false));
    await store.recordAnswer(answer(2, true));
    await store.recordFailure({
        run: runId,
        question: questions[3]!.id,
        model: 'mini',
        sample: 0,
        hash: 'h3',
        params: {},
        attempts: 2,
        error: 'server: HTTP 500',
        latencyMs: 3,
    });
    await store.saveVerdicts(
        runId,
        [0, 1, 2].map(
            i =>
                ({
                    questionId: questions[i]!.id,
                    model: 'mini',
                    sample: 0,
                    answer: 'yes',
                    correct: i !== 1,
                    rationale: true,
                }) as never,
        ),
    );
    await store.recordOverride({
        run: runId,
        questionId: questions[1]!.id,
        model: 'mini',
        sample: 0,
        correct: true,
        by: 'ann',
        why: 'gold was wrong',
        at: '2026-11-25T10:00:00.000Z',
        read: { text: 'Yes', span: [0, 3], by: 'patterns' },
    });
    // Two reviewers' labels of one answer, one with what the reader had read and a claim's status.
    await store.recordLabel({
        run: runId,
        questionId: questions[1]!.id,
        model: 'mini',
        sample: 0,
        reviewer: 'ann',
        label: 'pass',
        rationale: true,
        at: '2026-11-25T10:01:00.000Z',
        read: { answer: 'yes', correct: false, text: 'Yes', span: [0, 3], why: 'opens with "Yes"', by: 'patterns' },
        claims: [{ index: 0, status: 'supported' }],
    });
    await store.recordLabel({
        run: runId,
        questionId: questions[1]!.id,
        model: 'mini',
        sample: 0,
        reviewer: 'bob',
        label: 'unreadable',
        at: '2026-11-25T10:02:00.000Z',
    });
    await store.saveGroupVerdicts(runId, [
        {
            group: 'g1',
            model: 'mini',
            sample: 0,
            relation: 'twins',
            probe: 'movie_binary',
            outcome: 'consistent',
            ok: true,
        } as never,
    ]);
    await store.batches.addBatch(
        { local: 'hp-1', run: runId, model: 'mini', inputFile: 'file-1', endpoint: 'https://api.openai.com/v1' },
        [{ customId: '1-0', question: questions[0]!.id, sample: 0, hash: 'h0', attempt: 1 }],
    );
    await store.batches.updateBatch('hp-1', { id: 'batch_1', status: 'completed', done: 1 });
    return runId;
}

async function snapshot(store: Store, runId: string) {
    const results = (await store.loadRunResults(runId))!;
    return {
        results,
        counts: await store.counts(runId),
        failures: await store.failures(runId),
        overrides: await store.overrides(runId),
        labels: await store.labels(runId),
        batches: (await store.batches.batches(runId)).map(({ updated: _u, ...b }) => b),
        slots: await store.batches.batchSlots('hp-1'),
        cache: await store.cached('h0'),
    };
}

test('store copy: SQLite → PostgreSQL → SQLite keeps every table of a run; copying again skips it', async t => {
    if (!pg) return t.skip('PostgreSQL is not installed here');
    const dir = tempDir('hp-copy-');
    const first = await openStore(path.join(dir, 'a.db'));
    const runId = await fill(first);
    const want = await snapshot(first, runId);
    await first.close();
    const url = pg.url('team');
    assert.deepEqual(await copyStore(path.join(dir, 'a.db'), url), { copied: [runId], skipped: [] });
    assert.deepEqual(
        await copyStore(path.join(dir, 'a.db'), url),
        { copied: [], skipped: [runId] },
        'a repeated copy adds nothing',
    );
    assert.equal(pg.sql('team', 'select count(*) from calls').trim().split('\n').at(-1)?.trim(), '4');
    assert.deepEqual(await copyStore(url, path.join(dir, 'b.db')), { copied: [runId], skipped: [] });
    const back = await openStore(path.join(dir, 'b.db'));
    try {
        assert.deepEqual(await snapshot(back, runId), want);
    } finally {
        await back.close();
    }
});

test('CLI: halluprobe store copy names the stores without a password and refuses one in the URL', async t => {
    if (!pg) return t.skip('PostgreSQL is not installed here');
    const dir = tempDir('hp-copy-cli-');
    const s = await openStore(path.join(dir, 'x.db'));
    const runId = await fill(s);
    await s.close();
    const ok = await cli(['store', 'copy', path.join(dir, 'x.db'), pg.url('team').replace('/team', '/postgres')], pg.env);
    assert.equal(ok.code, 0, ok.stderr);
    assert.match(
        ok.stdout,
        new RegExp(`Copied 1 run from .*x\\.db to postgres://${pg.user}@127\\.0\\.0\\.1:${pg.port}/postgres`),
    );
    const bad = await cli(
        ['store', 'copy', path.join(dir, 'x.db'), `postgres://${pg.user}:${pg.password}@127.0.0.1:${pg.port}/postgres`],
        {},
    );
    assert.notEqual(bad.code, 0);
    assert.match(bad.stderr, /password in its URL/);
    assert.doesNotMatch(bad.stderr + bad.stdout, new RegExp(pg.password));
    assert.ok(runId);
});

test('store copy run three times at once inserts each run once, on PostgreSQL and on SQLite (issue 40, item 6)', async t => {
    if (!pg) return t.skip('PostgreSQL is not installed here');
    const dir = tempDir('hp-copy-race-');
    const source = await openStore(path.join(dir, 'src.db'));
    const runIds: string[] = [];
    for (let r = 0; r < 3; r++) {
        const questions = movieQuestions(200, `r${r}-`);
        const runId = await newRun(source, questions);
        await source.recordAnswers(
            questions.map((q, i) => ({
                run: runId,
                question: q.id,
                model: 'mini',
                sample: 0,
                hash: `race-${r}-${i}`,
                params: {},
                text: 'Yes.',
                tokensIn: 10,
                tokensOut: 2,
                latencyMs: 1,
                cost: 0.001,
                attempts: 1,
                finishReason: 'stop',
                cached: false,
                cacheable: true,
            })),
        );
        runIds.push(runId);
    }
    await source.close();
    pg.createDatabase('race');
    for (const target of [pg.url('race'), path.join(dir, 'target.db')]) {
        const outcomes = await Promise.all([0, 1, 2].map(() => copyStore(path.join(dir, 'src.db'), target)));
        assert.deepEqual(
            outcomes.flatMap(o => o.copied).sort(),
            [...runIds].sort(),
            `${target}: each run copied by one copy only`,
        );
        const store = await openStore(target);
        try {
            for (const runId of runIds) {
                const counts = await store.counts(runId);
                assert.equal(counts.answered, 200, `${target} ${runId}`);
                assert.ok(Math.abs(counts.cost - 0.2) < 1e-9, `${target} ${runId}: cost ${counts.cost}, not once`);
            }
        } finally {
            await store.close();
        }
    }
});
