/**
 * What the faces ask the engine instead of deciding themselves. Which model a run asks (core/run/settings.ts): a
 * spec's declaration shadows the editor's setting of the same name (the extension's model lists and a run's models
 * alike), the preferred model is used only when it can run, and a suite naming its own models keeps them. Money
 * text: the preview panel shows the engine's (core/run/format.ts `usd`), as the CLI does.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import type { ModelDecl, SpecModel, SuiteDecl } from '../../../src/core/spec/model.js';
import { availableModels, defaultModel, resolveRunModels, suiteRunModel } from '../../../src/core/run/index.js';
import { priceText, usd } from '../../../src/core/run/light.js';
import { availableModels as extensionModels, costForecasts } from '../../../src/extension/engine.js';

const loc = { file: 'x.probe', range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } } };
const decl = (name: string, provider: string, id?: string): ModelDecl => ({
    name,
    provider,
    settings: id ? { id } : {},
    loc,
});
const suite = (name: string, models: string[]) => ({ name, models, settings: {}, loc }) as unknown as SuiteDecl;

test("a spec's model shadows a setting's of the same name, in the editor's lists and in a run", () => {
    const own = [decl('local', 'ollama', 'llama3.1')];
    const extra = [decl('local', 'openai', 'gpt-4o-mini'), decl('cloud', 'openai', 'gpt-4o')];
    const listed = availableModels(own, extra);
    assert.deepEqual(
        listed.map(m => `${m.name}:${m.provider}`),
        ['local:ollama', 'cloud:openai'],
    );
    assert.deepEqual(extensionModels({ models: own }, extra), listed);
    const spec = { models: own, suites: [suite('s', ['local', 'cloud'])] } as unknown as SpecModel;
    assert.deepEqual(
        resolveRunModels(spec, undefined, 's', extra).map(m => `${m.name}:${m.provider}`),
        ['local:ollama', 'cloud:openai'],
    );
});

test('the default model: the preferred one when it can run, else the only one, else a choice (or the first)', () => {
    const two = [decl('a', 'offline'), decl('b', 'offline')];
    assert.equal(defaultModel(two, 'b'), 'b');
    assert.equal(defaultModel(two, 'gone'), undefined);
    assert.equal(defaultModel(two, undefined), undefined);
    assert.equal(defaultModel(two, 'gone', true), 'a');
    assert.equal(defaultModel([decl('only', 'offline')], 'gone'), 'only');
    assert.equal(defaultModel([], 'gone', true), undefined);
});

test("a suite's own models win over the preferred model; a suite without models takes it", () => {
    assert.equal(suiteRunModel(suite('s', ['m']), 'pref'), undefined);
    assert.equal(suiteRunModel(suite('s', []), 'pref'), 'pref');
    assert.equal(suiteRunModel(undefined, 'pref'), 'pref');
});

test("the preview panel's cost is the engine's money text: a fraction of a cent as the CLI writes it, no price as such", () => {
    assert.equal(priceText(undefined), 'no price');
    assert.equal(priceText(0.0042), usd(0.0042));
    const priced: ModelDecl = { ...decl('p', 'openai', 'x'), settings: { id: 'x', price_input: 1, price_output: 1 } };
    const [cheap, unpriced] = costForecasts(
        [{ messages: [{ role: 'user', content: 'Who directed Avatar?' }] }] as never,
        [priced, decl('u', 'openai', 'unknown-model-without-a-price')],
        [10],
    );
    assert.equal(cheap!.costText, usd(cheap!.cost!));
    assert.match(cheap!.costText, /^\$0\.00\d\d$/);
    assert.equal(unpriced!.costText, 'no price');
});
