// Item 10 of issue 11: a big CSV starts asking while its questions are still being generated, holds only a few
// batches of them at once, and a run stopped mid-generation resumes without asking anything twice.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { runSpec, type RunSpecRequest } from '../../src/core/run/spec-run.js';
import { openStore } from '../../src/core/store/index.js';
import { startOpenAIServer, type TestServer } from '../support/openai-server.js';
import { writeSpec } from '../support/runner-fixtures.js';

/** The runner fixture spec (two phrasings per row) over `rows` generated movies, its model at `server`. */
function bigSpec(server: TestServer, rows: number, model = 'test-model'): string {
    const spec = writeSpec(server.url);
    const lines = [',common_entity,entity3,entity2,entity1'];
    for (let i = 0; i < rows; i++) lines.push(`${i},Film Number ${i},${1900 + (i % 120)}.0,Director ${i % 5000},Actor ${i}`);
    writeFileSync(path.join(path.dirname(spec), 'movies.csv'), `${lines.join('\n')}\n`);
    writeFileSync(spec, readFileSync(spec, 'utf8').replace('id "test-model"', `id "${model}"`));
    return spec;
}

const request = (spec: string, over: Partial<RunSpecRequest> = {}): RunSpecRequest => ({
    spec,
    origin: 'test',
    verify: false,
    env: { OPENAI_API_KEY: 'sk-stream-test' },
    confirmHost: async () => true,
    confirmCost: async () => true,
    ...over,
});

test(
    '200,000 rows: the first request goes out while the generator has produced under 10 % of the questions',
    { timeout: 120_000 },
    async () => {
        let generated = 0;
        let generatedAtFirstRequest = -1;
        const server = await startOpenAIServer({
            answer: () => {
                if (generatedAtFirstRequest < 0) generatedAtFirstRequest = generated;
                return 'Yes.';
            },
        });
        try {
            const rows = 200_000;
            const total = 2 * rows;
            const spec = bigSpec(server, rows);
            const stop = new AbortController();
            let sawGenerating = false;
            const result = await runSpec(
                request(spec, {
                    signal: stop.signal,
                    onProgress: p => {
                        generated = p.questions;
                        sawGenerating ||= p.generating;
                    },
                    onAnswer: () => {
                        if (server.completed >= 200) stop.abort();
                    },
                }),
            );
            assert.equal(result.status, 'cancelled');
            assert.ok(
                generatedAtFirstRequest >= 0 && generatedAtFirstRequest < total / 10,
                `generated when the first request arrived: ${generatedAtFirstRequest} of ${total}`,
            );
            assert.ok(sawGenerating, 'progress said the questions were still being generated');
            // Generation ran only a few batches ahead of the asking: the run stored a small share of the questions.
            assert.ok(result.counts.questions < total / 10, `questions stored when stopped: ${result.counts.questions}`);
            assert.equal(result.run.settings.generating, true, 'a resume knows the questions are not all stored yet');
            assert.equal(result.prepared.questionCount, undefined);
        } finally {
            await server.close();
        }
    },
);

test(
    'a run stopped while generating resumes: every question is asked once and all are stored',
    { timeout: 120_000 },
    async () => {
        const server = await startOpenAIServer();
        try {
            const rows = 3_000;
            const spec = bigSpec(server, rows);
            const stop = new AbortController();
            const first = await runSpec(
                request(spec, {
                    signal: stop.signal,
                    onAnswer: () => {
                        if (server.completed >= 300) stop.abort();
                    },
                }),
            );
            assert.equal(first.status, 'cancelled');
            assert.ok(first.counts.questions < 2 * rows, `stored before the resume: ${first.counts.questions}`);
            let last = { total: 0, generating: true };
            const again = await runSpec(
                request(spec, {
                    onProgress: p => {
                        last = { total: p.total, generating: p.generating };
                    },
                }),
            );
            assert.equal(again.run.id, first.run.id);
            assert.equal(again.status, 'completed');
            assert.deepEqual(last, { total: 2 * rows, generating: false }, 'the final total');
            assert.equal(again.counts.questions, 2 * rows);
            assert.equal(again.counts.answered, 2 * rows);
            assert.equal(again.run.settings.slots, 2 * rows);
            assert.equal(again.run.settings.generating, undefined);
            assert.equal(server.byQuestion.size, 2 * rows);
            // Only the calls in flight when it stopped (cancelled, so never recorded) went out again: 4 workers.
            const twice = [...server.byQuestion].filter(([, n]) => n > 1);
            assert.ok(twice.length <= 4, `asked twice: ${twice.length}`);
            assert.equal(again.counts.calls, 2 * rows, 'one recorded call per slot: nothing was paid twice');
            // A resume of the completed questions reads them back from the store instead of generating them.
            const store = await openStore(again.store);
            try {
                let read = 0;
                for await (const page of store.questionPages(again.run.id, 1000)) read += page.length;
                assert.equal(read, 2 * rows);
            } finally {
                await store.close();
            }
        } finally {
            await server.close();
        }
    },
);

test('a run continued after it stopped mid-generation keeps its own limit and selection', { timeout: 120_000 }, async () => {
    const server = await startOpenAIServer();
    try {
        const spec = bigSpec(server, 3_000);
        const stop = new AbortController();
        const first = await runSpec(
            request(spec, {
                limit: 2_000,
                signal: stop.signal,
                onAnswer: () => {
                    if (server.completed >= 100) stop.abort();
                },
            }),
        );
        assert.equal(first.status, 'cancelled');
        const again = await runSpec(request(spec));
        assert.equal(again.run.id, first.run.id);
        assert.equal(again.counts.questions, 2_000, 'the limit of the run, not of the command that continued it');

        const ids = first.results.questions.slice(0, 3).map(q => q.id);
        const selection = new AbortController();
        const picked = await runSpec(
            request(spec, { questionIds: ids, signal: selection.signal, onAnswer: () => selection.abort() }),
        );
        assert.equal(picked.status, 'cancelled');
        const resumed = await runSpec(request(spec, { resume: picked.run.id }));
        assert.deepEqual(resumed.results.questions.map(q => q.id).sort(), [...ids].sort(), 'still only the selected questions');
    } finally {
        await server.close();
    }
});

test(
    'a model with a price: every question is counted and priced before the cost gate, nothing is asked when it says no',
    { timeout: 120_000 },
    async () => {
        const server = await startOpenAIServer();
        try {
            const spec = bigSpec(server, 2_000, 'gpt-4o-mini');
            let counted = 0;
            let asked: number | undefined;
            const result = await runSpec(
                request(spec, {
                    env: { OPENAI_API_KEY: 'sk-stream-test', HALLUPROBE_CONFIRM_USD: '0' },
                    onProgress: p => {
                        counted = p.questions;
                    },
                    confirmCost: async () => {
                        asked = server.requests;
                        return false;
                    },
                }),
            );
            assert.equal(result.status, 'declined');
            assert.equal(asked, 0);
            assert.equal(server.requests, 0);
            assert.equal(counted, 4_000, 'the estimate pass reported its progress');
            assert.equal(result.prepared.questionCount, 4_000);
            assert.equal(result.prepared.forecasts[0]!.requests, 4_000);
        } finally {
            await server.close();
        }
    },
);
