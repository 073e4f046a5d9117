// Issue 29, item 5: `timeout_ms` bounds the wait for the answer to start and each silence in it, not the whole
// call: through the runner, an answer sent in 30 pieces 100 ms apart (3 s in all) with `timeout_ms 1000
// retries 2` is received on the first attempt, asked and paid once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { executeRun } from '../../src/core/run/index.js';
import { startOpenAIServer } from '../support/openai-server.js';
import { movieQuestions } from '../support/questions.js';
import { newRun, serverModel, tempStore } from '../support/runner-fixtures.js';

for (const stream of [false, true]) {
    test(
        `an answer slower than timeout_ms in total but never silent that long is asked once (${stream ? 'streamed' : 'JSON'})`,
        { timeout: 60_000 },
        async () => {
            const server = await startOpenAIServer({ dribble: { pieces: 30, gapMs: 100 }, answer: () => 'Yes. It is.' });
            const store = tempStore();
            try {
                const questions = movieQuestions(2, stream ? 's' : 'j');
                const runId = await newRun(store, questions);
                const model = serverModel(server.url, { timeout_ms: 1000, retries: 2, stream, input_price: 1, output_price: 1 });
                const out = await executeRun({ store, runId, questions, models: [model], retry: { baseMs: 5, maxMs: 50 } });
                const counts = await store.counts(runId);
                assert.deepEqual([out.status, counts.answered, counts.failed], ['completed', 2, 0]);
                assert.equal(server.requests, 2, 'each question asked once');
                const calls = store.db.prepare("SELECT attempts, tokens_in AS tokensIn FROM calls WHERE status = 'ok'").all() as {
                    attempts: number;
                    tokensIn: number;
                }[];
                assert.deepEqual(
                    calls.map(c => c.attempts),
                    [1, 1],
                    'one attempt each',
                );
                assert.ok(
                    calls.every(c => c.tokensIn > 0),
                    'paid once: the tokens of one call',
                );
                assert.ok((await store.loadRunResults(runId))!.answers.every(a => a.text === 'Yes. It is.'));
            } finally {
                await store.close();
                await server.close();
            }
        },
    );
}
