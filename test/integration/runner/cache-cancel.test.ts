import { test } from 'node:test';
import assert from 'node:assert/strict';
import { executeRun } from '../../../src/core/run/index.js';
import { startOpenAIServer } from '../../support/openai-server.js';
import { movieQuestions } from '../../support/questions.js';
import { newRun, serverModel, tempStore } from '../../support/runner-fixtures.js';

test('an identical request is answered from the cache, across runs, with zero requests', async () => {
    const server = await startOpenAIServer({ answer: i => `Yes (${i.n}).` });
    const store = tempStore();
    try {
        const questions = movieQuestions(20, 'c');
        const first = await newRun(store, questions);
        await executeRun({ store, runId: first, questions, models: [serverModel(server.url)] });
        assert.equal(server.requests, 20);
        const second = await newRun(store, questions);
        const out = await executeRun({
            store,
            runId: second,
            questions,
            models: [serverModel(server.url, {}, 'same-model-other-name')],
        });
        assert.equal(server.requests, 20, 'no request for the second run');
        assert.equal(out.progress.cached, 20);
        const a = (await store.loadRunResults(first))!.answers.map(x => x.text);
        const b = (await store.loadRunResults(second))!.answers.map(x => x.text);
        assert.deepEqual(b, a, 'the cached answers are the ones received');
        // A changed parameter misses the cache.
        const third = await newRun(store, questions);
        await executeRun({ store, runId: third, questions, models: [serverModel(server.url, { max_tokens: 64 })] });
        assert.equal(server.requests, 40);
    } finally {
        await store.close();
        await server.close();
    }
});

test('k samples: each sample is its own request; sample 0 reuses the single-sample answer', async () => {
    const server = await startOpenAIServer();
    const store = tempStore();
    try {
        const questions = movieQuestions(5, 'k');
        await executeRun({ store, runId: await newRun(store, questions), questions, models: [serverModel(server.url)] });
        const runId = await newRun(store, questions);
        await executeRun({ store, runId, questions, models: [serverModel(server.url, { samples: 3, temperature: 0.7 })] });
        assert.equal(server.requests, 5 + 15, 'temperature changed: all 3 samples asked');
        const again = await newRun(store, questions);
        await executeRun({ store, runId: again, questions, models: [serverModel(server.url, { samples: 4, temperature: 0.7 })] });
        assert.equal(server.requests, 20 + 5, 'only the new fourth sample is asked');
        assert.equal((await store.counts(again)).answered, 20);
    } finally {
        await store.close();
        await server.close();
    }
});

test('cancelling stops new calls at once, aborts the ones in flight, and leaves the run resumable', async () => {
    // Answers take 30 s, far beyond the test's own timeout: the run can only end because in-flight calls are aborted.
    const server = await startOpenAIServer({ latencyMs: i => (i.n <= 8 ? 5 : 30_000) });
    const store = tempStore();
    try {
        const questions = movieQuestions(40, 'x');
        const runId = await newRun(store, questions);
        const controller = new AbortController();
        let receivedAtAbort = -1;
        // Answer events come once each answer is committed: their count is the store's.
        let answered = 0;
        const out = await executeRun({
            store,
            runId,
            questions,
            models: [serverModel(server.url, { concurrency: 4 })],
            signal: controller.signal,
            onAnswer: e => {
                if (e.text !== undefined) answered++;
                if (answered === 8 && !controller.signal.aborted) {
                    // Abort once requests 9..12 (concurrency 4) have reached the server; none may start after.
                    const poll = setInterval(() => {
                        if (server.requests < 12) return;
                        clearInterval(poll);
                        receivedAtAbort = server.requests;
                        controller.abort();
                    }, 5);
                }
            },
        });
        assert.equal(out.status, 'cancelled');
        assert.equal(receivedAtAbort, 12);
        await new Promise(r => setTimeout(r, 200));
        assert.equal(server.requests, receivedAtAbort, 'no request started after the abort');
        assert.equal((await store.getRun(runId))!.status, 'cancelled');
        const c = await store.counts(runId);
        assert.deepEqual([c.answered, c.failed], [8, 0], 'aborted calls are not recorded as failures');

        // Resume against a fast server: only the 32 unanswered questions are asked.
        const fast = await startOpenAIServer();
        try {
            const shown: number[] = [];
            const resumed = await executeRun({
                store,
                runId,
                questions: await store.questions(runId),
                models: [serverModel(fast.url, { concurrency: 4 })],
                onProgress: p => shown.push(p.done),
            });
            assert.equal(resumed.progress.resumed, 8);
            // Its progress starts from the 8 answers kept (issue 36 item 3: not "0/40" until the first batch is read).
            assert.equal(shown[0], 8, `the resumed run's progress: ${shown.slice(0, 5).join(', ')}…`);
            assert.ok(shown.every(d => d >= 8));
            assert.equal(fast.requests, 32);
            assert.equal((await store.counts(runId)).answered, 40);
        } finally {
            await fast.close();
        }
    } finally {
        await store.close();
        await server.close();
    }
});

test('the test server: a seeded latency distribution, /v1/models, and counts over HTTP', async () => {
    const { latencyDistribution } = await import('../../support/openai-server.js');
    const a = latencyDistribution({ meanMs: 100, jitterMs: 20, slowShare: 0.1, slowMs: 900, seed: 5 });
    const b = latencyDistribution({ meanMs: 100, jitterMs: 20, slowShare: 0.1, slowMs: 900, seed: 5 });
    const draws = Array.from({ length: 500 }, () => a({} as never));
    assert.deepEqual(
        draws,
        Array.from({ length: 500 }, () => b({} as never)),
    );
    assert.ok(draws.every(d => (d >= 80 && d <= 120) || d === 900));
    const slow = draws.filter(d => d === 900).length;
    assert.ok(slow > 20 && slow < 90, `slow outliers: ${slow}`);
    const server = await startOpenAIServer();
    try {
        const models = (await (await fetch(`${server.url}/models`)).json()) as { data: { id: string }[] };
        assert.equal(models.data[0]!.id, 'test-model');
        assert.equal(server.requests, 0, '/v1/models is not a chat request');
        const stats = (await (await fetch(server.url.replace(/\/v1$/, '/_stats'))).json()) as { requests: number };
        assert.equal(stats.requests, 0);
    } finally {
        await server.close();
    }
});

test('a large run from the cache: every slot answered in batches, each reported, no request', async () => {
    const server = await startOpenAIServer();
    const store = tempStore();
    try {
        const questions = movieQuestions(1200, 'big');
        await executeRun({
            store,
            runId: await newRun(store, questions),
            questions,
            models: [serverModel(server.url, { concurrency: 32 })],
        });
        assert.equal(server.requests, 1200);
        const runId = await newRun(store, questions);
        let reported = 0;
        const out = await executeRun({
            store,
            runId,
            questions,
            models: [serverModel(server.url)],
            onAnswer: e => {
                if (e.cached) reported++;
            },
        });
        assert.equal(server.requests, 1200);
        assert.deepEqual(
            [out.progress.cached, reported, (await store.counts(runId)).answered, (await store.counts(runId)).calls],
            [1200, 1200, 1200, 0],
        );
    } finally {
        await store.close();
        await server.close();
    }
});
