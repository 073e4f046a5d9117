import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { questionGraph } from '../../../src/extension/panels/graph-model.js';
import { question, verdict } from '../../fixtures/extension/model.js';

describe('question view of the graph panel', () => {
    it('carries hop verdicts, the conflict and highlight spans into the full response', () => {
        const q = question('c', 'basic');
        const v = verdict('c', false, 'contradicted');
        v.hops[0]!.keywords[0]!.spans = [{ start: 3, end: 9 }];
        const g = questionGraph(q, v, 'No, Titanic was made by him.');
        assert.equal(g.answer, 'no');
        assert.equal(g.correct, false);
        assert.equal(g.failedHop, 1);
        assert.deepEqual(g.hops, [{ hop: 1, status: 'contradicted', keywords: [{ value: 'Avatar', status: 'contradicted', conflict: 'Titanic' }] }]);
        assert.deepEqual(g.rationale.spans, [{ start: 3, end: 9, status: 'found', keyword: 'Avatar' }, { start: 0, end: 7, status: 'contradicted', keyword: 'Avatar' }]);
    });

    it('shows an unrun question without verdicts, and no spans without the response they index', () => {
        assert.deepEqual(questionGraph(question('a', 'basic')).hops, []);
        assert.equal(questionGraph(question('a', 'basic')).answer, 'not run');
        assert.deepEqual(questionGraph(question('a', 'basic'), verdict('a', true, 'found')).rationale, { text: 'It was directed by James Cameron.', spans: [] });
    });
});
