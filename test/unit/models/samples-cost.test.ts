/** A model with `samples N` asks every question N times: the engine's estimate (the preview's, the editor's) prices all N. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolveModel } from '../../../src/core/models/providers.js';
import { countMessageTokens, forecastCost } from '../../../src/core/models/cost.js';
import * as engine from '../../../src/extension/engine.js';
import type { ModelDecl } from '../../../src/core/spec/model.js';

const loc = { file: 'spec.probe', range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } } };
const decl = (samples: number): ModelDecl => ({ name: 'm', provider: 'openai', settings: { id: 'gpt-4o-mini', samples }, loc });
const messages = [{ role: 'user' as const, content: 'Is Avatar a 2009 movie?' }];

test('forecastCost prices each question once per sample', () => {
    const one = forecastCost(resolveModel(decl(1)).model!, [{ messages }, { messages }]);
    const three = forecastCost(resolveModel(decl(3)).model!, [{ messages }, { messages }]);
    assert.deepEqual(
        [three.requests, three.inputTokens, three.outputTokens],
        [3 * one.requests, 3 * one.inputTokens, 3 * one.outputTokens],
    );
    assert.equal(three.inputTokens, 6 * countMessageTokens(messages));
    assert.ok(Math.abs(three.usd! - 3 * one.usd!) < 1e-12);
});

test("the editor's preview estimate is the engine's, samples included (no second multiplication)", () => {
    const question = { messages } as unknown as Parameters<typeof engine.costForecasts>[0][number];
    const [e] = engine.costForecasts([question, question], [decl(3)]);
    const core = forecastCost(resolveModel(decl(3)).model!, [{ messages }, { messages }]);
    assert.deepEqual(
        [e!.questions, e!.inputTokens, e!.outputTokens, e!.cost],
        [core.requests, core.inputTokens, core.outputTokens, core.usd],
    );
});
