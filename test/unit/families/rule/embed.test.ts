// The embeddings oracle's matching (embed-run.ts): Jaccard over one-to-one pairs whose cosine reaches the
// threshold, on the local server's deterministic bag-of-words vectors.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { similarJaccard } from '../../../../src/core/families/rule/embed-run.js';
import { cosine } from '../../../../src/core/models/openai-embeddings.js';
import { bagOfWords } from '../../../support/openai-server.js';

describe('similarity Jaccard', () => {
    const proof = ['L. Messi', 'FC Barcelona', 'M. ter Stegen'].map(bagOfWords);
    const said = ['L. Messi', 'Barcelona', 'M. ter Stegen'].map(bagOfWords);
    it('matches near texts at or above the threshold, exact ones always', () => {
        assert.ok(Math.abs(cosine(bagOfWords('FC Barcelona'), bagOfWords('Barcelona')) - Math.SQRT1_2) < 1e-9);
        assert.equal(similarJaccard(proof, said, 0.7), 1);
        assert.equal(similarJaccard(proof, said, 0.8), 2 / 4);
        assert.equal(similarJaccard([], [], 0.8), 1);
        assert.equal(similarJaccard(proof, [], 0.8), 0);
    });
    it('matches one to one: two stated copies do not both count for one proof element', () => {
        const one = [bagOfWords('FC Barcelona')];
        assert.equal(similarJaccard(one, [bagOfWords('Barcelona'), bagOfWords('FC Barcelona')], 0.7), 1 / 2);
    });
});
