/** Issue 36 item 12: a statement score's interval never has zero width, however few and alike the triples. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { score } from '../../../../src/core/families/statement/metrics.js';

test('two triples with the same score: the interval has width and holds the value', () => {
    const s = score([0.75, 0.75]);
    assert.equal(s.value, 0.75);
    assert.ok(s.ci![1] - s.ci![0] > 0.1, `0.750 [${s.ci!.join(', ')}]`);
    assert.ok(s.ci![0] <= 0.75 && 0.75 <= s.ci![1]);
});

// A point only at 0: the score is max(0, mean), and when every triple scored well below 0 the whole interval is clipped there.
test('any scores: the interval holds the clipped mean, stays in [0, 1], and is a point only where clipped at 0', () => {
    fc.assert(
        fc.property(fc.array(fc.constantFrom(-1, -0.5, 0, 0.5, 0.75, 1), { minLength: 1, maxLength: 40 }), diffs => {
            const s = score(diffs);
            const [lo, hi] = s.ci!;
            return lo >= 0 && hi <= 1 && lo <= s.value! && s.value! <= hi && (hi - lo > 0 || hi === 0);
        }),
    );
});
