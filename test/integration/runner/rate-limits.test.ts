/**
 * Pacing from the endpoint's rate-limit headers, against the local server enforcing a tokens limit. The server's
 * "minute" is a 2 s window here (OpenAI's is 60 s) so the test runs in seconds: the limit per window and the
 * window are both learned from the headers, so nothing in the runner knows it is short. The limit (600 tokens per
 * window, ~24 requests) is low enough that the endpoint, not this machine, is what holds the run back.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { executeRun } from '../../../src/core/run/index.js';
import { maxInWindow, startOpenAIServer } from '../../support/openai-server.js';
import { movieQuestions } from '../../support/questions.js';
import { newRun, serverModel, tempStore } from '../../support/runner-fixtures.js';

const WINDOW = 2000;
const LIMIT = 600;

test('a run paced from x-ratelimit-* headers never exceeds the tokens limit by more than one request in any window', async () => {
    const server = await startOpenAIServer({ latencyMs: 10, rateLimit: { tokens: LIMIT, requests: 10_000, windowMs: WINDOW } });
    const store = tempStore();
    try {
        const questions = movieQuestions(100, 'rl');
        const runId = await newRun(store, questions);
        const out = await executeRun({
            store,
            runId,
            questions,
            models: [serverModel(server.url, { concurrency: 16 })],
            retry: { baseMs: 5, maxMs: 50 },
        });
        assert.equal(out.status, 'completed');
        assert.equal((await store.counts(runId)).answered, questions.length);
        const biggest = Math.max(...server.charges.map(c => c.tokens));
        const most = maxInWindow(server.charges, WINDOW);
        assert.ok(most <= LIMIT + biggest, `at most ${LIMIT} + ${biggest} tokens in any ${WINDOW} ms window, saw ${most}`);
        const pacing = out.progress.pacing?.local;
        assert.ok(pacing, 'the run reports how the model was paced');
        assert.equal(pacing.mode, 'endpoint');
        assert.equal(pacing.rateLimited, server.rateLimited, 'every 429 is counted');
        assert.ok(server.rateLimited <= 2, `hardly any 429s once the limits are known (saw ${server.rateLimited})`);
        assert.equal(pacing.requests, server.requests);
        const perMinute = (LIMIT * 60_000) / WINDOW;
        assert.ok(
            Math.abs(pacing.limitTokensPerMinute! - perMinute) / perMinute < 0.05,
            `learned ${pacing.limitTokensPerMinute} tokens/min of ${perMinute}`,
        );
        assert.equal(
            pacing.tokens,
            server.charges.reduce((n, c) => n + c.tokens, 0),
            'tokens as the endpoint counted them',
        );
    } finally {
        await store.close();
        await server.close();
    }
});

test('an endpoint that sends no rate-limit headers is paced by AIMD on its 429s', async () => {
    const server = await startOpenAIServer({
        latencyMs: 10,
        rateLimit: { tokens: LIMIT / 2, windowMs: WINDOW / 2, headers: false },
    });
    const store = tempStore();
    try {
        const questions = movieQuestions(40, 'aimd');
        const runId = await newRun(store, questions);
        const out = await executeRun({
            store,
            runId,
            questions,
            models: [serverModel(server.url, { concurrency: 16, retries: 20 })],
            retry: { baseMs: 20, maxMs: 400 },
        });
        assert.equal(out.status, 'completed');
        assert.equal((await store.counts(runId)).answered, questions.length);
        const pacing = out.progress.pacing!.local!;
        assert.equal(pacing.mode, 'aimd');
        assert.equal(pacing.rateLimited, server.rateLimited);
        assert.ok(server.rateLimited > 0, 'the endpoint did refuse some');
    } finally {
        await store.close();
        await server.close();
    }
});

test('pacing "fixed" ignores the headers and paces from tpm only (as before)', async () => {
    const server = await startOpenAIServer({ rateLimit: { tokens: LIMIT, windowMs: WINDOW } });
    const store = tempStore();
    try {
        const questions = movieQuestions(20, 'fix');
        const runId = await newRun(store, questions);
        const out = await executeRun({
            store,
            runId,
            questions,
            models: [serverModel(server.url, { pacing: 'fixed', tpm: 1_000_000 })],
        });
        assert.equal(out.progress.pacing!.local!.mode, 'fixed');
        assert.equal(out.progress.pacing!.local!.limitTokensPerMinute, undefined);
    } finally {
        await store.close();
        await server.close();
    }
});
