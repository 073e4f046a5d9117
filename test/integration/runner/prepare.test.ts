import { test } from 'node:test';
import assert from 'node:assert/strict';
import { prepareRun, startRun } from '../../../src/core/run/index.js';
import type { ModelDecl } from '../../../src/core/spec/model.js';
import { startOpenAIServer } from '../../support/openai-server.js';
import { movieQuestions } from '../../support/questions.js';
import { tempStore } from '../../support/runner-fixtures.js';

const loc = { file: '', range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } } };
const decl = (name: string, provider: string, settings: ModelDecl['settings']): ModelDecl => ({ name, provider, settings, loc });
const yes = async () => true;

test('prepare: new run, estimate of what is left, automatic and explicit resume', async () => {
    const server = await startOpenAIServer();
    const store = tempStore();
    try {
        const questions = movieQuestions(10, 'prep');
        const models = [decl('local', 'openai', { id: 'gpt-4o-mini', endpoint: server.url }), decl('sim', 'offline', {})];
        const base = {
            store,
            spec: '/x/movie.probe',
            suite: 'movies',
            questions,
            models,
            confirmHost: yes,
            baseDir: '/x',
            env: { OPENAI_API_KEY: 'sk-prep-key-0000' },
        };
        const first = (await prepareRun(base)).prepared!;
        assert.equal(first.resumed, false);
        assert.equal(first.todo, 20);
        assert.equal(first.forecasts[0]!.requests, 10);
        assert.ok(first.forecasts[0]!.usd! > 0, 'gpt-4o-mini has a list price');
        assert.equal(first.forecasts[1]!.requests, 0, 'the simulator costs nothing and is not estimated');
        assert.ok(!JSON.stringify(first.run.settings).includes('sk-prep-key-0000'));

        // Answer 4 questions, then stop: the next prepare continues this run.
        const controller = new AbortController();
        let answeredNow = 0;
        await startRun(
            store,
            { ...first, models: [first.models[0]!] },
            {
                signal: controller.signal,
                onAnswer: e => {
                    if (e.text !== undefined && ++answeredNow >= 4) controller.abort();
                },
            },
        );
        const again = (await prepareRun(base)).prepared!;
        assert.equal(again.run.id, first.run.id);
        assert.equal(again.resumed, true);
        const answered = (await store.answered(first.run.id)).size;
        assert.equal(again.todo, 20 - answered);
        assert.equal(again.forecasts[0]!.requests, 10 - answered, 'answered questions are not estimated again');

        const done = await startRun(store, again);
        assert.equal(done.status, 'completed');
        assert.equal((await store.counts(first.run.id)).answered, 20);
        const fresh = (await prepareRun({ ...base, resume: 'auto' })).prepared!;
        assert.notEqual(fresh.run.id, first.run.id, 'a completed run is not resumed');
        assert.equal(fresh.forecasts[0]!.requests, 0, 'everything is in the cache: nothing to pay');
        const explicit = (await prepareRun({ ...base, resume: first.run.id })).prepared!;
        assert.equal(explicit.run.id, first.run.id);
        assert.equal(explicit.todo, 0);
        assert.match((await prepareRun({ ...base, resume: 'nope' })).problems[0]!.message, /no run nope/);
    } finally {
        await store.close();
        await server.close();
    }
});

test("prepare: resuming with other options keeps the run's own limit and adds the new model to its list", async () => {
    const store = tempStore();
    try {
        const base = { store, spec: '/x/movie.probe', suite: 'movies', confirmHost: yes, baseDir: '/x', env: {} };
        const first = (
            await prepareRun({
                ...base,
                questions: movieQuestions(5, 'res'),
                models: [decl('sim', 'offline', {})],
                settings: { limit: 5 },
            })
        ).prepared!;
        await startRun(store, first);
        const again = (
            await prepareRun({
                ...base,
                resume: first.run.id,
                questions: movieQuestions(50, 'res'),
                models: [decl('sim2', 'offline', { seed: 2 })],
                settings: { limit: 50 },
            })
        ).prepared!;
        assert.equal(again.questionCount, 5);
        assert.equal(again.run.settings.limit, 5);
        assert.deepEqual(
            (again.run.settings.models as { name: string }[]).map(m => m.name),
            ['sim', 'sim2'],
        );
        assert.equal(again.run.settings.slots, 10);
        await startRun(store, again);
        assert.equal((await store.counts(first.run.id)).answered, 10);
    } finally {
        await store.close();
    }
});

test('prepare: model problems and missing keys are reported, nothing is created', async () => {
    const store = tempStore();
    try {
        const r = await prepareRun({
            store,
            spec: '/x.probe',
            suite: '',
            questions: movieQuestions(2),
            baseDir: '/x',
            env: {},
            confirmHost: yes,
            models: [
                decl('a', 'openai', { id: 'gpt-4o' }),
                decl('b', 'replay', {}),
                decl('c', 'replay', { file: 'missing.jsonl' }),
            ],
        });
        assert.equal(r.prepared, undefined);
        assert.equal(r.problems.length, 3);
        assert.match(r.problems[0]!.message, /no API key; set OPENAI_API_KEY/);
        assert.match(r.problems[1]!.message, /needs a file setting/);
        assert.match(r.problems[2]!.message, /missing\.jsonl cannot be read/);
        assert.equal((await store.listRuns()).length, 0);
    } finally {
        await store.close();
    }
});

test('prepare: an openai model at a local endpoint without a key points to the keyless local providers (issue 36 item 10)', async () => {
    const store = tempStore();
    try {
        const r = await prepareRun({
            store,
            spec: '/x.probe',
            suite: '',
            questions: movieQuestions(2),
            baseDir: '/x',
            env: {},
            confirmHost: yes,
            models: [
                decl('mine', 'openai', { id: 'llama', endpoint: 'http://127.0.0.1:8000/v1' }),
                decl('hosted', 'openai', { id: 'gpt-4o' }),
            ],
        });
        assert.equal(r.problems.length, 2);
        assert.match(
            r.problems[0]!.message,
            /no API key; set OPENAI_API_KEY .* http:\/\/127\.0\.0\.1:8000 looks like a local server: declare the model with a keyless local provider \(vllm, ollama, lmstudio, llamacpp\)/,
        );
        // A hosted endpoint is not told to use a local provider.
        assert.doesNotMatch(r.problems[1]!.message, /local/);
    } finally {
        await store.close();
    }
});

test('prepare: a batch run is estimated (and gated) at the batch price, and resumes as a batch run', async () => {
    const store = tempStore();
    try {
        const questions = movieQuestions(10, 'bp');
        const models = [decl('mini', 'openai', { id: 'gpt-4o-mini', endpoint: 'http://127.0.0.1:9/v1' })];
        const base = {
            store,
            spec: '/x/movie.probe',
            suite: 'movies',
            questions,
            models,
            confirmHost: yes,
            baseDir: '/x',
            env: { OPENAI_API_KEY: 'sk-prep-key-0000' },
        };
        const list = (await prepareRun({ ...base, resume: 'new' })).prepared!;
        await store.releaseLease(list.run.id);
        const batch = (await prepareRun({ ...base, resume: 'new', batch: true })).prepared!;
        assert.equal(batch.batch, true);
        assert.equal(batch.forecasts[0]!.batch, true);
        assert.ok(
            Math.abs(batch.forecasts[0]!.usd! - list.forecasts[0]!.usd! / 2) < 1e-12,
            `${batch.forecasts[0]!.usd} is half of ${list.forecasts[0]!.usd}`,
        );
        await store.releaseLease(batch.run.id);
        const resumed = (await prepareRun({ ...base, resume: batch.run.id })).prepared!;
        assert.equal(resumed.batch, true, 'a batch run resumes as one without --batch');
        await store.releaseLease(resumed.run.id);
        const refused = await prepareRun({
            ...base,
            resume: 'new',
            batch: true,
            models: [decl('llama', 'ollama', { id: 'llama3.1' })],
        });
        assert.match(
            refused.problems.map(p => p.message).join('\n'),
            /model llama \(provider ollama\): no Batch API; batch runs work with openai/,
        );
    } finally {
        await store.close();
    }
});
