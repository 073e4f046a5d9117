import { test } from 'node:test';
import assert from 'node:assert/strict';
import { modelFromFlag, resolveModel } from '../../../src/core/models/providers.js';
import { problemWords } from '../../../src/core/errors.js';
import { costOf, countMessageTokens, forecastCost, priceOf } from '../../../src/core/models/cost.js';
import type { ModelDecl } from '../../../src/core/spec/model.js';

const loc = { file: 'x.probe', range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } } };
const decl = (provider: string, settings: ModelDecl['settings'], name = 'm'): ModelDecl => ({ name, provider, settings, loc });

test('defaults: temperature 0, preset base URL, one sample, no SDK-visible seed for local models', () => {
    const m = resolveModel(decl('ollama', { id: 'llama3.1' })).model!;
    assert.equal(m.endpoint, 'http://localhost:11434/v1');
    assert.deepEqual(m.params, { temperature: 0 });
    assert.equal(m.samples, 1);
    const o = resolveModel(
        decl('openai', {
            id: 'gpt-4o-mini',
            temperature: 0.7,
            max_tokens: 50,
            seed: 4,
            samples: 3,
            stream: true,
            endpoint: 'http://h/v1/',
        }),
    ).model!;
    assert.deepEqual(o.params, { temperature: 0.7, maxTokens: 50, seed: 4, stream: true });
    assert.equal(o.endpoint, 'http://h/v1');
    assert.equal(o.samples, 3);
});

test('problems name the setting to add', () => {
    assert.match(problemWords(resolveModel(decl('openai', {})).problems[0]!), /add an id setting/);
    assert.match(problemWords(resolveModel(decl('azure', { id: 'x' })).problems[0]!), /needs an endpoint/);
    assert.match(problemWords(resolveModel(decl('replay', {})).problems[0]!), /needs a file setting/);
    assert.match(problemWords(resolveModel(decl('gemini', {})).problems[0]!), /unknown provider "gemini"/);
});

test('--model text: spec names, provider:id, replay:file, offline', () => {
    const declared = [decl('offline', {}, 'sim')];
    assert.equal(modelFromFlag('sim', declared), declared[0]);
    assert.deepEqual(modelFromFlag('openai:gpt-4o-mini', declared)?.settings, { id: 'gpt-4o-mini' });
    assert.deepEqual(modelFromFlag('replay:answers.jsonl', declared)?.settings, { file: 'answers.jsonl' });
    assert.equal(modelFromFlag('offline', declared)?.provider, 'offline');
    assert.equal(modelFromFlag('nope:x', declared), undefined);
    assert.equal(modelFromFlag('unknown', declared), undefined);
});

test('--model text: several transcripts of one replay model with +, and NAME= to name it', () => {
    assert.deepEqual(modelFromFlag('replay:answers.log+validate.log', [])?.settings, { file: ['answers.log', 'validate.log'] });
    const named = modelFromFlag('gpt35=replay:answers.log+validate.log', []);
    assert.equal(named?.name, 'gpt35');
    assert.equal(named?.provider, 'replay');
    assert.deepEqual(named?.settings, { file: ['answers.log', 'validate.log'] });
    assert.equal(modelFromFlag('mini=openai:gpt-4o-mini', [])?.name, 'mini');
    assert.equal(modelFromFlag('x=nope:y', []), undefined);
});

test('prices: longest prefix of the id, OpenRouter prefixes, settings override, local models free', () => {
    const price = (p: string, s: ModelDecl['settings']) => priceOf(resolveModel(decl(p, s)).model!);
    assert.deepEqual(price('openai', { id: 'gpt-4o-mini-2024-07-18' }), { input: 0.15, output: 0.6 });
    assert.deepEqual(price('openai', { id: 'gpt-4o' }), { input: 2.5, output: 10 });
    assert.deepEqual(price('openrouter', { id: 'openai/gpt-4o-mini' }), { input: 0.15, output: 0.6 });
    assert.deepEqual(price('openai', { id: 'gpt-4o', price_output: 1 }), { input: 2.5, output: 1 });
    assert.equal(price('openai', { id: 'mystery-model' }), undefined);
    assert.deepEqual(price('ollama', { id: 'llama3' }), { input: 0, output: 0 });
    assert.equal(costOf({ input: 1, output: 2 }, { input: 1_000_000, output: 500_000 }), 2);
});

test('estimates count input tokens with the tokenizer and take output from the cache average', () => {
    const m = resolveModel(decl('openai', { id: 'gpt-4o-mini' })).model!;
    const messages = [{ role: 'user' as const, content: 'Is there a movie, released in 2009, starring CCH Pounder?' }];
    const tokens = countMessageTokens(messages);
    assert.ok(tokens > 10 && tokens < 30, String(tokens));
    const e = forecastCost(m, [{ messages }, { messages }], 40);
    assert.deepEqual([e.requests, e.inputTokens, e.outputTokens, e.outputFrom], [2, 2 * tokens, 80, 'cache']);
    assert.ok(Math.abs(e.usd! - (2 * tokens * 0.15 + 80 * 0.6) / 1e6) < 1e-12);
    assert.equal(forecastCost(m, [{ messages }]).outputFrom, 'default');
});

test('the settings schema lists exactly the providers of the one provider table', async () => {
    const { PROVIDER_NAMES } = await import('../../../src/core/models/providers.js');
    const pkg = JSON.parse((await import('node:fs')).readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
        contributes: {
            configuration:
                | { properties: Record<string, { items?: { properties?: { provider?: { enum?: string[] } } } }> }
                | { properties: Record<string, unknown> }[];
        };
    };
    const configs = (
        [] as { properties: Record<string, { items?: { properties?: { provider?: { enum?: string[] } } } }> }[]
    ).concat(pkg.contributes.configuration as never);
    const enums = configs
        .flatMap(c => Object.values(c.properties))
        .map(p => p.items?.properties?.provider?.enum)
        .filter(Boolean);
    assert.equal(enums.length, 1);
    assert.deepEqual([...enums[0]!].sort(), [...PROVIDER_NAMES].sort());
});
