// Issue 40, item 9: an endpoint's pacing headers are taken at their word only up to MAX_PACING_WAIT_MS (60 s, the
// openai SDK's own bound for Retry-After): a Retry-After of years or `retry-after-ms: 1e15` on a 429, and
// `x-ratelimit-reset-*` values like `6h20m` or a unit-less `9999999`, neither hold the workers longer nor stall a run
// without a word — the progress line says the run waits on the endpoint, and until when.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { executeRun } from '../../../src/core/run/runner.js';
import { progressLine } from '../../../src/core/run/format.js';
import { startOpenAIServer } from '../../support/openai-server.js';
import { movieQuestions } from '../../support/questions.js';
import { newRun, serverModel, tempStore } from '../../support/runner-fixtures.js';

test(
    'a 429 asking to wait years (Retry-After, retry-after-ms 1e15) holds the workers at most 60 s, and the progress line says until when',
    { timeout: 240_000 },
    async () => {
        const server = await startOpenAIServer({
            retryAfterSeconds: 3e9, // about 95 years
            headers: () => ({ 'retry-after-ms': '1e15' }),
            fault: info => (info.attempt === 1 ? 'rate_limit' : undefined),
        });
        const store = tempStore();
        const stop = new AbortController();
        try {
            const questions = movieQuestions(3, 'w');
            const runId = await newRun(store, questions);
            let said: { line: string; at: number } | undefined;
            const out = await executeRun({
                store,
                runId,
                questions,
                models: [serverModel(server.url, { retries: 1, concurrency: 1 })],
                signal: stop.signal,
                onProgress: p => {
                    const line = progressLine(p);
                    if (!said && /waiting on/.test(line)) {
                        said = { line, at: Date.now() };
                        stop.abort();
                    }
                },
            });
            assert.ok(said, `the progress line never said the run waits (${out.status}, ${JSON.stringify(out.progress.pacing)})`);
            assert.match(said.line, /waiting on the Retry-After of a 429 from local until \d\d:\d\d:\d\d UTC/);
            const [hh, mm, ss] = /until (\d\d):(\d\d):(\d\d) UTC/.exec(said.line)!.slice(1).map(Number) as [
                number,
                number,
                number,
            ];
            const now = new Date(said.at);
            const until = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), hh, mm, ss);
            const ahead = (((until - said.at) % 86_400_000) + 86_400_000) % 86_400_000;
            assert.ok(ahead <= 61_000, `waits ${ahead} ms: no more than the 60 s maximum`);
            assert.ok(ahead >= 58_000, `waits ${ahead} ms: the header asked for far more than 60 s`);
        } finally {
            stop.abort();
            await store.close();
            await server.close();
        }
    },
);

test(
    'x-ratelimit-reset-* of 6h20m or a unit-less 9999999 do not stall a run: the learned window is at most a minute',
    { timeout: 120_000 },
    async () => {
        const server = await startOpenAIServer({
            headers: () => ({
                'x-ratelimit-limit-tokens': '10000',
                'x-ratelimit-remaining-tokens': '5000',
                'x-ratelimit-reset-tokens': '6h20m',
                'x-ratelimit-limit-requests': '100',
                'x-ratelimit-remaining-requests': '50',
                'x-ratelimit-reset-requests': '9999999',
            }),
        });
        const store = tempStore();
        try {
            const questions = movieQuestions(12, 'r');
            const runId = await newRun(store, questions);
            const out = await executeRun({ store, runId, questions, models: [serverModel(server.url, { concurrency: 4 })] });
            assert.equal(out.status, 'completed');
            assert.equal((await store.counts(runId)).answered, 12);
            const pacing = out.progress.pacing!.local!;
            // Per minute at least the limit itself: a window of at most a minute (6h20m would make it 13 tokens a minute).
            assert.ok(pacing.limitTokensPerMinute! >= 10000 && pacing.limitRequestsPerMinute! >= 100, JSON.stringify(pacing));
        } finally {
            await store.close();
            await server.close();
        }
    },
);
