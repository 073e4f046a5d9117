/**
 * A model server that is not there: the error names the URL and what to do, the run stops after the first
 * few connection failures instead of failing every question, and a run with no answer is never "completed".
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as net from 'node:net';
import * as path from 'node:path';
import { main } from '../../../src/cli/main.js';
import { writeSpec } from '../../support/runner-fixtures.js';
import { UNREACHABLE_AFTER } from '../../../src/core/run/runner.js';
import { openStore } from '../../../src/core/store/index.js';

/** A port nothing listens on (bound, then closed). */
async function closedPort(): Promise<number> {
    const srv = net.createServer();
    await new Promise<void>(r => srv.listen(0, '127.0.0.1', r));
    const port = (srv.address() as net.AddressInfo).port;
    await new Promise<void>(r => srv.close(() => r()));
    return port;
}

test('an unreachable server: URL and hint in the error, the run stops early and is not completed', async () => {
    const url = `http://127.0.0.1:${await closedPort()}/v1`;
    const spec = writeSpec(url);
    const lines: string[] = [];
    const log = console.log,
        error = console.error;
    console.log = (...a: unknown[]) => {
        lines.push(a.join(' '));
    };
    console.error = (...a: unknown[]) => {
        lines.push(a.join(' '));
    };
    const key = process.env.OPENAI_API_KEY;
    process.env.OPENAI_API_KEY = 'sk-test-unreachable';
    let code: number;
    try {
        code = await main(['run', spec, '--db', path.join(path.dirname(spec), 'r.db'), '--yes', '--format', 'json']);
    } finally {
        console.log = log;
        console.error = error;
        if (key === undefined) delete process.env.OPENAI_API_KEY;
        else process.env.OPENAI_API_KEY = key;
    }
    const out = lines.join('\n');
    const summary = JSON.parse(lines.find(l => l.startsWith('{'))!) as {
        run: { status: string };
        counts: { questions: number; answered: number; failed: number };
    };
    assert.equal(code, 1);
    assert.equal(summary.run.status, 'failed');
    assert.equal(summary.counts.answered, 0);
    // Four requests in flight (the model's concurrency) when the third failure gives the server up.
    assert.ok(
        summary.counts.failed <= UNREACHABLE_AFTER + 4 && summary.counts.failed < summary.counts.questions,
        JSON.stringify(summary.counts),
    );
    assert.match(out, new RegExp(`cannot reach ${url.replace(/[.]/g, '\\.')}`));
    assert.match(out, /is the server running on that address\?/);
});

/** `run` in this process with a test key and its output silenced; the exit status. */
async function quietRun(spec: string, db: string): Promise<number> {
    const log = console.log,
        error = console.error;
    console.log = () => undefined;
    console.error = () => undefined;
    const key = process.env.OPENAI_API_KEY;
    process.env.OPENAI_API_KEY = 'sk-test-unreachable';
    try {
        return await main(['run', spec, '--db', db, '--yes']);
    } finally {
        console.log = log;
        console.error = error;
        if (key === undefined) delete process.env.OPENAI_API_KEY;
        else process.env.OPENAI_API_KEY = key;
    }
}

test('an unreachable server costs three calls in a row, as the README says, however many workers and retries', async () => {
    const url = `http://127.0.0.1:${await closedPort()}/v1`;
    const spec = writeSpec(url);
    const db = path.join(path.dirname(spec), 'r.db');
    assert.equal(await quietRun(spec, db), 1);
    const store = await openStore(db);
    try {
        const failures = await store.failures((await store.latestRun())!.id);
        const calls = failures.reduce((n, f) => n + f.attempts, 0);
        assert.equal(UNREACHABLE_AFTER, 3, 'the README says three');
        assert.equal(calls, UNREACHABLE_AFTER, `calls made: ${failures.map(f => `${f.question} ×${f.attempts}`).join(', ')}`);
    } finally {
        await store.close();
    }
});

test('a server answering 404 for an unknown model id is given up after three calls too (issue 36 item 10)', async () => {
    const { startOpenAIServer } = await import('../../support/openai-server.js');
    const server = await startOpenAIServer({
        error: () => ({ status: 404, message: 'The model `no-such-model` does not exist' }),
    });
    const spec = writeSpec(server.url);
    const db = path.join(path.dirname(spec), 'r.db');
    try {
        assert.equal(await quietRun(spec, db), 1);
    } finally {
        await server.close();
    }
    assert.equal(server.requests, UNREACHABLE_AFTER, `requests made: ${server.requests}`);
    const store = await openStore(db);
    try {
        assert.equal((await store.latestRun())!.status, 'failed');
    } finally {
        await store.close();
    }
});
