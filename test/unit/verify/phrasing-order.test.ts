/** Report rows keep the spec's phrasing order (an open probe's none → clean → perturbed levels), never alphabetical. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { computeMetrics } from '../../../src/core/verify/metrics.js';
import { question, verdict } from '../../fixtures/extension/model.js';

test('metrics come in the order the questions declare their phrasings', () => {
    const phrasings = ['none', 'clean', 'rewire-50', 'basic', 'negated', 'is_there'];
    const qs = phrasings.map((p, i) => question(`q${i}`, p));
    const vs = qs.map(q => verdict(q.id, true, 'found'));
    const order = computeMetrics(qs, vs)
        .filter(g => g.mode === 'all')
        .map(g => g.phrasing);
    assert.deepEqual(order, phrasings);
});
