/**
 * Batch runs against a local OpenAI Batch API (files, batches, status transitions, output and error files),
 * through the real `openai` SDK: resubmitting failed and expired requests once, finding a batch created by a
 * run killed before it stored the batch id, the batch price, and (through the CLI) a SIGKILL between submit and
 * collect, and a provider without a Batch API.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import Database from 'better-sqlite3';
import { executeBatchRun } from '../../../src/core/run/batch.js';
import { batchApiFor } from '../../../src/core/models/openai-batch.js';
import { startBatchServer, type BatchServer, type BatchServerOptions } from '../../support/openai-batch-server.js';
import type { SqliteStore } from '../../../src/core/store/index.js';
import type { RunOutcome } from '../../../src/core/run/runner.js';
import type { Question } from '../../../src/core/probes/question.js';
import { movieQuestions } from '../../support/questions.js';
import { newRun, serverModel, tempStore, writeSpec } from '../../support/runner-fixtures.js';
import { cli } from '../../support/cli-process.js';

const batch = { pollMs: 1 };

test('a request that fails in a completed batch is sent once more; one that fails twice is reported', async () => {
    const questions = movieQuestions(12, 'b');
    const once = questions[2]!.question,
        always = questions[5]!.question;
    const server = await startBatchServer({
        lineError: (q, attempt) => (q === always || (q === once && attempt === 1) ? 'invalid max_tokens' : undefined),
    });
    const store = tempStore();
    try {
        const runId = await newRun(store, questions);
        const model = serverModel(server.url, { price_input: 1, price_output: 2 });
        const out = await executeBatchRun({ store, runId, questions, models: [model], batch });
        assert.equal(out.status, 'completed');
        const counts = await store.counts(runId);
        assert.deepEqual([counts.answered, counts.failed], [11, 1]);
        assert.equal(server.created.length, 2, 'the first batch, then one with the two failed requests');
        assert.deepEqual(server.created[1]!.questions.sort(), [once, always].sort());
        for (const q of questions)
            assert.equal(server.asked.get(q.question), q.question === once || q.question === always ? 2 : 1, q.question);
        const failure = await store.failures(runId);
        assert.equal(failure.length, 1);
        assert.match(failure[0]!.error, /invalid max_tokens/);
        assert.equal(failure[0]!.question, questions[5]!.id);
        // Half the list price: $1 / $2 per 1M tokens.
        const row = store.db
            .prepare(
                "SELECT SUM(tokens_in) AS tin, SUM(tokens_out) AS tout, SUM(cost) AS cost FROM calls WHERE run = ? AND status = 'ok'",
            )
            .get(runId) as { tin: number; tout: number; cost: number };
        assert.ok(Math.abs(row.cost - (0.5 * (row.tin * 1 + row.tout * 2)) / 1e6) < 1e-12, `batch price: ${row.cost}`);
        assert.deepEqual(
            out.progress.batches!.map(b => b.status),
            ['completed', 'completed'],
        );
    } finally {
        await store.close();
        await server.close();
    }
});

test("an expired batch's unanswered requests go in a new batch; when that one fails they are reported, each asked twice", async () => {
    const questions = movieQuestions(10, 'x');
    const server = await startBatchServer({ outcome: n => (n === 1 ? 'expired' : 'failed') });
    const store = tempStore();
    try {
        const runId = await newRun(store, questions);
        const out = await executeBatchRun({ store, runId, questions, models: [serverModel(server.url)], batch });
        const counts = await store.counts(runId);
        assert.deepEqual([counts.answered, counts.failed], [5, 5]);
        assert.equal(out.status, 'completed');
        assert.equal(server.created.length, 2);
        assert.deepEqual(
            server.created[1]!.questions,
            questions.slice(5).map(q => q.question),
        );
        assert.ok((await store.failures(runId)).every(f => /the batch failed/.test(f.error)));
        assert.ok([...server.asked.values()].every(n => n <= 2));
    } finally {
        await store.close();
        await server.close();
    }
});

test('a batch created by a run killed before it stored the batch id is found by its metadata, not created again', async () => {
    const questions = movieQuestions(6, 'k');
    const server = await startBatchServer();
    const store = tempStore();
    try {
        const runId = await newRun(store, questions);
        const model = serverModel(server.url);
        // What the killed run did: upload, store the batch and its slots, create it — and die before recording the id.
        const api = batchApiFor(model.model, 'sk-test-key')!;
        const lines = questions.map((q, i) =>
            api.line(`1-${i}`, { messages: q.messages, params: model.model.params, question: q, sample: 0 }),
        );
        const file = await api.upload(`${lines.join('\n')}\n`, 'killed.jsonl');
        await store.batches.addBatch(
            { local: 'hp-killed', run: runId, model: model.model.name, inputFile: file, endpoint: model.model.endpoint },
            questions.map((q, i) => ({ customId: `1-${i}`, question: q.id, sample: 0, hash: `h${i}`, attempt: 1 })),
        );
        await api.create(file, 'hp-killed');
        assert.equal(server.created.length, 1);

        const out = await executeBatchRun({ store, runId, questions, models: [model], batch });
        assert.equal(out.status, 'completed');
        assert.equal((await store.counts(runId)).answered, questions.length);
        assert.equal(server.created.length, 1, 'no second batch');
        assert.ok([...server.asked.values()].every(n => n === 1));
    } finally {
        await store.close();
        await server.close();
    }
});

test('CLI: a batch run SIGKILLed between submit and collect resumes and collects, no slot asked twice', async () => {
    const server = await startBatchServer();
    try {
        const spec = writeSpec(server.url);
        const db = path.join(path.dirname(spec), 'results.db');
        const env = { OPENAI_API_KEY: 'sk-test-batch-key', HALLUPROBE_BATCH_POLL_MS: '20' };
        server.hold = true;
        const killed = await cli(['run', spec, '--db', db, '--yes', '--batch'], env, stop => {
            const poll = setInterval(() => {
                if (server.created.length >= 1) {
                    clearInterval(poll);
                    stop();
                }
            }, 5);
        });
        assert.equal(killed.signal, 'SIGKILL', killed.stderr);
        server.hold = false;
        const resumed = await cli(['run', spec, '--db', db, '--yes', '--format', 'json'], env);
        assert.equal(resumed.code, 0, resumed.stderr);
        const summary = JSON.parse(resumed.stdout) as { counts: { answered: number; failed: number; questions: number } };
        assert.deepEqual([summary.counts.answered, summary.counts.failed, summary.counts.questions], [80, 0, 80]);
        assert.equal(server.created.length, 1, 'the batch of the killed run was collected, none sent again');
        assert.equal(server.asked.size, 80);
        assert.ok(
            [...server.asked.values()].every(n => n === 1),
            'zero slots asked twice',
        );
        const conn = new Database(db, { readonly: true });
        assert.equal((conn.prepare('SELECT COUNT(*) AS n FROM runs').get() as { n: number }).n, 1);
        conn.close();
    } finally {
        await server.close();
    }
});

test('CLI: --batch with a provider that has no Batch API is a clear error naming the providers that have one', async () => {
    const server = await startBatchServer();
    try {
        const spec = writeSpec(server.url);
        const out = await cli(
            ['run', spec, '--db', path.join(path.dirname(spec), 'r.db'), '--yes', '--batch', '--model', 'offline'],
            {},
        );
        assert.notEqual(out.code, 0);
        assert.match(out.stderr, /model offline \(provider offline\): no Batch API; batch runs work with openai/);
        assert.equal(server.created.length, 0);
    } finally {
        await server.close();
    }
});

/** A batch run of `questions` against a local batch server with `options`; `check` sees it before both are closed. */
async function batchRun(
    questions: Question[],
    options: BatchServerOptions,
    check: (r: { server: BatchServer; store: SqliteStore; runId: string; out: RunOutcome }) => Promise<void>,
): Promise<void> {
    const server = await startBatchServer(options);
    const store = tempStore();
    try {
        const runId = await newRun(store, questions);
        const out = await executeBatchRun({ store, runId, questions, models: [serverModel(server.url)], batch });
        await check({ server, store, runId, out });
    } finally {
        await store.close();
        await server.close();
    }
}

test('a truncated or garbled line in a batch output file loses only its own request, sent again; every valid answer is kept (issue 40, item 3)', async () => {
    const questions = movieQuestions(8, 't');
    // The first batch's output: line 3 cut short (its custom_id still readable), line 6 garbage with no custom_id.
    await batchRun(
        questions,
        { outputLine: (line, i, n) => (n === 1 && i === 2 ? line.slice(0, 60) : n === 1 && i === 5 ? '\u0000{not json' : line) },
        async ({ server, store, runId, out }) => {
            assert.equal(out.status, 'completed');
            const counts = await store.counts(runId);
            assert.deepEqual([counts.answered, counts.failed], [8, 0]);
            assert.equal(server.created.length, 2, 'one more batch for the two unreadable lines');
            assert.deepEqual(server.created[1]!.questions.sort(), [questions[2]!.question, questions[5]!.question].sort());
            for (const [i, q] of questions.entries())
                assert.equal(server.asked.get(q.question), i === 2 || i === 5 ? 2 : 1, q.question);
        },
    );
});

test('a request whose output line is unreadable in every batch is recorded as failed, naming the line', async () => {
    await batchRun(movieQuestions(4, 'u'), { outputLine: line => line.slice(0, 50) }, async ({ server, store, runId }) => {
        const counts = await store.counts(runId);
        assert.deepEqual([counts.answered, counts.failed], [0, 4]);
        assert.equal(server.created.length, 2, 'sent twice, as any failed request');
        const failures = await store.failures(runId);
        assert.ok(
            failures.every(f => /unreadable line [1-4] of the output file file-\d+/.test(f.error)),
            JSON.stringify(failures),
        );
    });
});

test('a batch the provider no longer knows (404 on collect) is a failed batch: its requests are sent again, nothing is lost (issue 40, item 8)', async () => {
    const questions = movieQuestions(6, 'f');
    await batchRun(questions, { forgotten: n => n === 1 }, async ({ server, store, runId, out }) => {
        assert.equal(out.status, 'completed');
        const counts = await store.counts(runId);
        assert.deepEqual([counts.answered, counts.failed], [6, 0]);
        assert.equal(server.created.length, 2, "the forgotten batch's requests went in a new one");
        assert.ok(questions.every(q => server.asked.get(q.question) === 2));
        assert.match(JSON.stringify(await store.batches.batches(runId)), /"status":"failed"/);
    });
});

test('a batch file download redirected to another origin is refused, never followed (issue 40, item 8)', async () => {
    const questions = movieQuestions(3, 'o');
    // Another origin: a plain server that counts what reaches it.
    let reached = 0;
    const elsewhere = http.createServer((_req, res) => {
        reached++;
        res.end('{}');
    });
    await new Promise<void>(resolve => elsewhere.listen(0, '127.0.0.1', resolve));
    const server = await startBatchServer({
        contentRedirect: `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}/v1`,
    });
    const store = tempStore();
    try {
        const runId = await newRun(store, questions);
        const failed = await executeBatchRun({ store, runId, questions, models: [serverModel(server.url)], batch }).then(
            () => undefined,
            (e: Error) => e,
        );
        assert.ok(failed, "the run stops rather than read another origin's file");
        assert.match(failed.message, /another origin/);
        assert.equal(reached, 0, 'the other origin was never asked');
        assert.equal((await store.counts(runId)).answered, 0);
    } finally {
        await store.close();
        await server.close();
        await new Promise(resolve => elsewhere.close(resolve));
    }
});

test('a batch is polled only at the endpoint it was submitted to: moved to another endpoint, its requests are sent again there (issue 40, item 8)', async () => {
    const questions = movieQuestions(5, 'e');
    const first = await startBatchServer();
    const second = await startBatchServer();
    const store = tempStore();
    try {
        const runId = await newRun(store, questions);
        // Submitted to the first endpoint, and the run stopped before it ended (the server holds it in progress).
        first.hold = true;
        const stop = new AbortController();
        const out = await executeBatchRun({
            store,
            runId,
            questions,
            models: [serverModel(first.url)],
            batch,
            signal: stop.signal,
            onProgress: p => {
                if (p.batches?.some(b => b.status === 'in_progress')) stop.abort();
            },
        });
        assert.equal(out.status, 'cancelled');
        assert.equal(first.created.length, 1);
        assert.equal((await store.batches.batches(runId))[0]!.endpoint, first.url, 'the endpoint stored with the batch');
        // The spec's model now points at the second endpoint: the first batch is never asked about there.
        const resumed = await executeBatchRun({ store, runId, questions, models: [serverModel(second.url)], batch });
        assert.equal(resumed.status, 'completed');
        assert.deepEqual(second.unknownPolls, [], 'no batch of the first endpoint was asked about at the second');
        assert.equal((await store.counts(runId)).answered, questions.length);
        assert.equal(second.created.length, 1, 'its requests sent again where the model is now');
        const [moved] = await store.batches.batches(runId);
        assert.equal(moved!.collected, true);
    } finally {
        await store.close();
        await first.close();
        await second.close();
    }
});
