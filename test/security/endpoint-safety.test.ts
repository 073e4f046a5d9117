// Issue 29, item 8: an endpoint with `user:pass@` in it is refused with a located error (it was printed, stored and
// retried), and a redirect to another origin is not followed (a 307 moved questions to another server and stored
// its answers under the declared endpoint).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as http from 'node:http';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { AddressInfo } from 'node:net';
import { executeRun } from '../../src/core/run/index.js';
import { startOpenAIServer } from '../support/openai-server.js';
import { movieQuestions } from '../support/questions.js';
import { newRun, serverModel, tempStore, writeSpec } from '../support/runner-fixtures.js';
import { cli } from '../support/cli-process.js';

test('an endpoint with user:pass@ is refused by check and run, located, and never contacted', { timeout: 60_000 }, async () => {
    const server = await startOpenAIServer();
    try {
        const withCredentials = server.url.replace('http://', 'http://probe-user:hunter2-secret@');
        const spec = writeSpec(withCredentials);
        const line =
            fs
                .readFileSync(spec, 'utf8')
                .split('\n')
                .findIndex(l => l.includes('endpoint "')) + 1;
        const checked = await cli(['check', spec], {});
        assert.equal(checked.code, 1, checked.stdout + checked.stderr);
        assert.match(
            checked.stdout + checked.stderr,
            new RegExp(`movie\\.probe:${line}:\\d+ error \\[secret-in-spec\\] The endpoint holds a user name or password`),
        );
        const r = await cli(['run', spec, '--db', path.join(path.dirname(spec), 'r.db'), '--yes'], { OPENAI_API_KEY: 'sk-x' });
        assert.equal(r.code, 1, r.stdout + r.stderr);
        assert.equal(server.requests, 0, 'nothing was sent');
        assert.ok(
            !(checked.stdout + checked.stderr + r.stdout + r.stderr).includes('hunter2-secret'),
            'the password is not printed',
        );
    } finally {
        await server.close();
    }
});

test('a redirect to another origin is not followed, not retried, and says why', { timeout: 60_000 }, async () => {
    const elsewhere = await startOpenAIServer({ answer: () => 'Yes, from elsewhere.' });
    let redirected = 0;
    const declared = http.createServer((req, res) => {
        req.resume();
        redirected++;
        res.writeHead(307, { location: `${elsewhere.url}/chat/completions` });
        res.end();
    });
    await new Promise<void>(resolve => declared.listen(0, '127.0.0.1', resolve));
    const store = tempStore();
    try {
        const url = `http://127.0.0.1:${(declared.address() as AddressInfo).port}/v1`;
        const questions = movieQuestions(2, 'r');
        const runId = await newRun(store, questions);
        await executeRun({
            store,
            runId,
            questions,
            models: [serverModel(url, { retries: 2 })],
            retry: { baseMs: 5, maxMs: 20 },
        });
        const errors = store.db.prepare("SELECT error FROM calls WHERE status = 'error'").all() as { error: string }[];
        assert.equal(elsewhere.requests, 0, 'the other origin got no question');
        assert.equal((await store.counts(runId)).answered, 0);
        assert.equal(redirected, 2, `each question asked once: a redirect is not retried (${JSON.stringify(errors)})`);
        assert.equal(errors.length, 2);
        assert.match(errors[0]!.error, /redirected to another origin \(http:\/\/127\.0\.0\.1:\d+\)/);
    } finally {
        await store.close();
        declared.close();
        await elsewhere.close();
    }
});
