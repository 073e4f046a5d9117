import { test } from 'node:test';
import assert from 'node:assert/strict';
import { executeRun } from '../../../src/core/run/index.js';
import { FAULTS, firstAttemptFaults, startOpenAIServer } from '../../support/openai-server.js';
import { movieQuestions } from '../../support/questions.js';
import { newRun, serverModel, tempStore } from '../../support/runner-fixtures.js';

const fast = { baseMs: 5, maxMs: 50 };

for (const stream of [false, true]) {
    test(`every fault kind on a first attempt is retried and answered (${stream ? 'streaming' : 'plain JSON'})`, async () => {
        const server = await startOpenAIServer({
            fault: firstAttemptFaults(FAULTS),
            answer: i => `Yes. Answer to ${i.question.slice(-6)}`,
        });
        const store = tempStore();
        try {
            const questions = movieQuestions(3 * FAULTS.length, stream ? 's' : 'p');
            const runId = await newRun(store, questions);
            const model = serverModel(server.url, { timeout_ms: 2000, stream, concurrency: 6 });
            const out = await executeRun({ store, runId, questions, models: [model], retry: fast });
            assert.equal(out.status, 'completed');
            const counts = await store.counts(runId);
            assert.deepEqual([counts.answered, counts.failed], [questions.length, 0]);
            // Each question: one faulty attempt, one good one.
            assert.equal(server.requests, 2 * questions.length);
            assert.ok([...server.byQuestion.values()].every(n => n === 2));
            const faults = new Set(server.log.map(r => r.fault).filter(Boolean));
            assert.deepEqual([...faults].sort(), [...FAULTS].sort());
            const attempts = store.db
                .prepare("SELECT attempts, COUNT(*) AS n FROM calls WHERE status = 'ok' GROUP BY attempts")
                .all();
            assert.deepEqual(attempts, [{ attempts: 2, n: questions.length }], 'the call records both attempts');
            const texts = (await store.loadRunResults(runId))!.answers.map(a => a.text);
            assert.ok(
                texts.every(t => t.startsWith('Yes. Answer to')),
                'answers are complete, never a truncated stream',
            );
        } finally {
            await store.close();
            await server.close();
        }
    });
}

test('a fault that never clears is recorded as an error after the retries; the run completes', async () => {
    const questions = movieQuestions(8, 'perm');
    const bad = new Set([questions[1]!.question, questions[5]!.question]);
    const server = await startOpenAIServer({ fault: i => (bad.has(i.question) ? 'server_error' : undefined) });
    const store = tempStore();
    try {
        const runId = await newRun(store, questions);
        const out = await executeRun({ store, runId, questions, models: [serverModel(server.url, { retries: 2 })], retry: fast });
        assert.equal(out.status, 'completed');
        const c = await store.counts(runId);
        assert.equal(c.answered + c.failed, questions.length, 'answers + errors = questions');
        assert.equal(c.failed, 2);
        for (const q of bad) assert.equal(server.byQuestion.get(q), 3, 'first attempt + 2 retries');
        const failures = await store.failures(runId);
        assert.ok(
            failures.every(f => f.attempts === 3 && /^server: HTTP 500/.test(f.error)),
            JSON.stringify(failures),
        );
    } finally {
        await store.close();
        await server.close();
    }
});

test('errors that retrying cannot fix (401) are recorded at once, without retries', async () => {
    const server = await startOpenAIServer({ apiKey: 'sk-the-right-key' });
    const store = tempStore();
    try {
        const questions = movieQuestions(3, 'auth');
        const runId = await newRun(store, questions);
        await executeRun({
            store,
            runId,
            questions,
            models: [serverModel(server.url, {}, 'local', 'sk-a-wrong-key-123')],
            retry: fast,
        });
        assert.equal(server.requests, 3);
        const failures = await store.failures(runId);
        assert.equal(failures.length, 3);
        assert.ok(failures.every(f => f.error.startsWith('auth: HTTP 401') && !f.error.includes('sk-a-wrong-key-123')));
    } finally {
        await store.close();
        await server.close();
    }
});

test('a 429 with Retry-After holds back the whole model and then succeeds', async () => {
    let limited = 0;
    const server = await startOpenAIServer({
        retryAfterSeconds: 0.2,
        fault: i => (i.n <= 2 ? (limited++, 'rate_limit') : undefined),
    });
    const store = tempStore();
    try {
        const questions = movieQuestions(6, 'rl');
        const runId = await newRun(store, questions);
        await executeRun({ store, runId, questions, models: [serverModel(server.url, { concurrency: 2 })], retry: fast });
        assert.equal(limited, 2);
        assert.equal((await store.counts(runId)).answered, 6);
        const first = server.log[0]!.at;
        const afterLimit = server.log.slice(2);
        assert.ok(
            afterLimit.every(r => r.at - first >= 150),
            'no request was sent while the endpoint asked to wait',
        );
    } finally {
        await store.close();
        await server.close();
    }
});

test('requests-per-minute pacing spaces requests out', async () => {
    const server = await startOpenAIServer();
    const store = tempStore();
    try {
        const questions = movieQuestions(4, 'rpm');
        const runId = await newRun(store, questions);
        // A budget of 2 per minute: the third request may start only after 30 s, so the run is cancelled first.
        await executeRun({
            store,
            runId,
            questions,
            models: [serverModel(server.url, { rpm: 2, concurrency: 4 })],
            retry: fast,
            signal: AbortSignal.timeout(1500),
        });
        assert.equal(server.requests, 2, 'a budget of 2 per minute lets 2 through, the rest wait (and are cancelled here)');
        assert.equal((await store.counts(runId)).answered, 2);
    } finally {
        await store.close();
        await server.close();
    }
});
