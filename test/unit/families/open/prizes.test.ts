// Retrieval that reads the question (issue 24 item 9): node and edge prizes from the question's lexical similarity
// (BM25) to each node's and edge's words, PageRank breaking ties, as G-Retriever ranks by similarity to the question.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { retrieve } from '../../../../src/core/families/open/retrieve.js';
import { movieGraph } from './support.js';

// Loaded before the tests are declared: with every unit file in one process (scripts/test.mjs), a suite
// declaring tests after an await would declare them after the run has moved on.
const { graph, node } = await movieGraph();
const seeds = [node('Movie', 'Titanic, 1997')];

describe('question-aware prizes', () => {
    it('the edges the question asks about get the top prizes and make the triplets', () => {
        const question = 'How long is Titanic, in minutes, and what is its plot?';
        const r = retrieve(graph, seeds, { question, triplets: 2 });
        const top = [...r.scored.edges]
            .sort((a, b) => b.prize - a.prize)
            .slice(0, 2)
            .map(e => e.relation)
            .sort();
        assert.deepEqual(top, ['Movie.length', 'Movie.plot']);
        assert.deepEqual(r.context.edges.map(e => e.relation).sort(), ['Movie.length', 'Movie.plot']);
    });

    it('another question, other prizes: who stars in it', () => {
        const r = retrieve(graph, seeds, { question: 'Which star played in Titanic?', triplets: 1 });
        assert.deepEqual(
            r.context.edges.map(e => e.relation),
            ['Movie.star'],
        );
    });

    it('prizes ppr ranks by PageRank alone, whatever the question', () => {
        const a = retrieve(graph, seeds, { question: 'How long is Titanic in minutes?', prizes: 'ppr', triplets: 3 });
        const b = retrieve(graph, seeds, { question: 'Which star played in Titanic?', prizes: 'ppr', triplets: 3 });
        assert.deepEqual(a.context.edges, b.context.edges);
    });
});
