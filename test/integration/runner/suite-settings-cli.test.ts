/**
 * A suite's settings take effect (issue 33): `limit` caps each probe's rows, and the model settings a suite may set
 * (`concurrency`, `rpm`, `timeout_ms`, `temperature`, `max_tokens`) reach the models it runs unless a model sets its
 * own — through the real CLI, against the local OpenAI-compatible server, which counts what it receives.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { startOpenAIServer, type ServerOptions, type TestServer } from '../../support/openai-server.js';
import { writeSpec } from '../../support/runner-fixtures.js';
import { cli } from '../../support/cli-process.js';

const ENV = { OPENAI_API_KEY: 'sk-test-suite-settings' };

/** The runner fixture (40 movies, two phrasings each) with the model and the suite given these settings. */
function specWith(url: string, model: string, suite: string, probe = ''): { spec: string; db: string } {
    const spec = writeSpec(url);
    const text = readFileSync(spec, 'utf8')
        .replace('probe movie_binary binary using movie_title {', `$&\n    ${probe}`)
        .replace(
            /model local openai \{[^}]*\}/,
            `model local openai {\n    id "test-model"\n    endpoint "${url}"\n    ${model}\n}`,
        )
        .replace(/suite movies \{[^}]*\}/, `suite movies {\n    probes movie_binary\n    models local\n    ${suite}\n}`);
    writeFileSync(spec, text);
    return { spec, db: path.join(path.dirname(spec), 'results.db') };
}

interface Counts {
    questions: number;
    answered: number;
    failed: number;
}

/** `halluprobe run --format json`: its counts; it exits 1 when a question failed. */
async function run(spec: string, db: string, code = 0): Promise<Counts> {
    const out = await cli(['run', spec, '--db', db, '--yes', '--format', 'json'], ENV);
    assert.equal(out.code, code, out.stderr);
    return (JSON.parse(out.stdout) as { counts: Counts }).counts;
}

/** A server that records the most requests it held at once (received, not yet answered). */
async function countingServer(options: ServerOptions = {}): Promise<{ server: TestServer; most: () => number }> {
    let most = 0;
    let server: TestServer | undefined;
    const latency = options.latencyMs ?? 30;
    server = await startOpenAIServer({
        ...options,
        latencyMs: info => {
            most = Math.max(most, server!.requests - server!.completed);
            return typeof latency === 'function' ? latency(info) : latency;
        },
    });
    return { server, most: () => most };
}

test("a suite's limit caps the rows of each probe, and its temperature and max_tokens reach the model", async () => {
    const seen: { temperature?: number; max_tokens?: number }[] = [];
    const server = await startOpenAIServer({
        answer: info => {
            seen.push({ temperature: info.body.temperature, max_tokens: info.body.max_tokens });
            return 'Yes.';
        },
    });
    try {
        const { spec, db } = specWith(server.url, '', 'limit 3\n    temperature 0.7\n    max_tokens 64');
        const counts = await run(spec, db);
        // Three rows, two phrasings each: six questions asked, not the 80 of every row.
        assert.deepEqual([counts.questions, counts.answered], [6, 6]);
        assert.equal(server.requests, 6);
        assert.ok(
            seen.every(s => s.temperature === 0.7 && s.max_tokens === 64),
            JSON.stringify(seen),
        );
    } finally {
        await server.close();
    }
});

test("a suite's concurrency is what the server sees in flight; a model's own concurrency wins over it", async () => {
    for (const [model, expected] of [
        ['', 2],
        ['concurrency 3', 3],
    ] as const) {
        const { server, most } = await countingServer({ latencyMs: 40 });
        try {
            const { spec, db } = specWith(server.url, model, 'concurrency 2', 'limit 12');
            const counts = await run(spec, db);
            assert.equal(counts.answered, 24);
            assert.equal(most(), expected, `model "${model}": the most requests in flight at the server`);
        } finally {
            await server.close();
        }
    }
});

test("a suite's rpm holds the model to that many requests in the first minute", async () => {
    const server = await startOpenAIServer({ latencyMs: 5 });
    try {
        const { spec, db } = specWith(server.url, '', 'rpm 2');
        let sentWhenTwoAnswered = -1;
        const out = await cli(['run', spec, '--db', db, '--yes'], ENV, stop => {
            const poll = setInterval(() => {
                if (server.completed < 2) return;
                clearInterval(poll);
                sentWhenTwoAnswered = server.requests;
                stop();
            }, 2);
        });
        assert.equal(out.signal, 'SIGKILL', out.stderr);
        // Without the cap the run sends the next requests as soon as the first answer is in (8 in flight).
        assert.equal(sentWhenTwoAnswered, 2);
        assert.equal(server.requests, 2);
    } finally {
        await server.close();
    }
});

test("a suite's timeout_ms gives up on a silent endpoint: every attempt is sent and fails", async () => {
    // The endpoint says nothing for 1.5 s; the suite allows 200 ms of silence; the model's own retries 1 (two attempts).
    const server = await startOpenAIServer({ latencyMs: 1500 });
    try {
        const { spec, db } = specWith(server.url, 'retries 1', 'timeout_ms 200', 'limit 1');
        const counts = await run(spec, db, 1);
        assert.deepEqual([counts.questions, counts.answered, counts.failed], [2, 0, 2]);
        assert.equal(server.requests, 4, 'two questions, two attempts each');
        assert.equal(server.completed, 0);
    } finally {
        await server.close();
    }
});
