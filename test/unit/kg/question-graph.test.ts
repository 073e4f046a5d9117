import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { questionGraph } from '../../../src/core/kg/question-graph.js';
import * as path from 'node:path';
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
        assert.deepEqual(g.hops, [
            { hop: 1, status: 'contradicted', keywords: [{ value: 'Avatar', status: 'contradicted', conflict: 'Titanic' }] },
        ]);
        assert.deepEqual(g.rationale.spans, [
            { start: 3, end: 9, status: 'found', keyword: 'Avatar' },
            { start: 0, end: 7, status: 'contradicted', keyword: 'Avatar' },
        ]);
    });

    it('shows an unrun question without verdicts, and no spans without the response they index', () => {
        assert.deepEqual(questionGraph(question('a', 'basic')).hops, []);
        assert.equal(questionGraph(question('a', 'basic')).answer, 'not run');
        assert.deepEqual(questionGraph(question('a', 'basic'), verdict('a', true, 'found')).rationale, {
            text: 'It was directed by James Cameron.',
            spans: [],
        });
    });
});

// Loaded before the tests are declared: with every unit file in one process (scripts/test.mjs), a suite
// declaring tests after an await would declare them after the run has moved on.
const { loadSpec } = await import('../../../src/core/spec/load.js');
const { loadData } = await import('../../../src/core/data/index.js');
const { generateQuestions } = await import('../../../src/core/probes/generate.js');
const { model: spec } = await loadSpec(path.resolve('test/fixtures/open/open.probe'));
const data = await loadData(spec);
const rewired = [...generateQuestions(spec, data, { probe: 'pair' }).questions].find(
    q => q.entity.key[0] === 'Titanic' && q.phrasing === 'rewire-100',
)!;
const moved = rewired.open!.context!.edges.find(e => e.relation === 'directed_by')!;
const wrongDirector = rewired.open!.context!.nodes.find(n => n.id === moved.tail)!.label;

describe('question view of an open question', () => {
    it("lists the answer's claims with their labels and the context edges they rest on", () => {
        const g = questionGraph(rewired, undefined, `Titanic directed by ${wrongDirector}. Titanic was released in 1997.`);
        assert.equal(g.claims!.length, 2);
        // The rewired edge names a year as the director: "2009" is no director, so the data cannot read the claim as
        // one (unverifiable, issue 41's rule of what the data can judge); that the answer followed the corrupted
        // context edge is what its cause says.
        assert.deepEqual(
            [g.claims![0]!.data, g.claims![0]!.context, g.claims![0]!.cause],
            ['unverifiable', 'supported', 'followed-corrupted'],
        );
        assert.deepEqual(g.claims![0]!.contextEdge, { head: 'Movie(Titanic)', tail: moved.tail });
        assert.deepEqual([g.claims![1]!.data, g.claims![1]!.dataEdge!.tail], ['supported', 'Movie.year=1997']);
        // Another director than the data's one value: contradicted, with the data's edge.
        const wrong = questionGraph(rewired, undefined, 'Titanic directed by Sam Mendes.');
        assert.deepEqual([wrong.claims![0]!.data, wrong.claims![0]!.dataEdge!.tail], ['contradicted', 'Director(James Cameron)']);
        // Without the response there is nothing to read claims from.
        assert.equal(questionGraph(rewired).claims, undefined);
    });
});
