import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { retrieve } from '../../../../src/core/families/open/retrieve.js';
import { dataFacts, summariseClaims, verifyOpenAnswer } from '../../../../src/core/families/open/check.js';
import { splitClaims } from '../../../../src/core/families/open/claims.js';
import { perturb } from '../../../../src/core/families/open/perturb.js';
import type { ContextGraph } from '../../../../src/core/families/open/types.js';
import { movieGraph } from './support.js';

describe('splitClaims', () => {
    it('cuts sentences and clauses, keeps lists of names whole, drops list markers', () => {
        const claims = splitClaims(
            '- Titanic was directed by James Cameron and it was released in 1997. It starred Leonardo DiCaprio and Kate Winslet!\n2. A ship sinks',
        );
        assert.deepEqual(
            claims.map(c => c.text),
            [
                'Titanic was directed by James Cameron',
                'it was released in 1997',
                'It starred Leonardo DiCaprio and Kate Winslet',
                'A ship sinks',
            ],
        );
        assert.deepEqual(
            claims.map(c => c.sentence),
            [0, 0, 1, 2],
        );
    });

    it("never cuts inside a known name or after an initial; a label's closing stop still ends its sentence", () => {
        const names = ['Oz the Great and Powerful', 'J.K. Simmons', 'A ship sinks.'];
        const text =
            'Oz the Great and Powerful star J.K. Simmons. Titanic plot A ship sinks. Oz the Great and Powerful directed by Sam Raimi and it was released in 2013.';
        assert.deepEqual(
            splitClaims(text, names).map(c => c.text),
            [
                'Oz the Great and Powerful star J.K. Simmons',
                'Titanic plot A ship sinks',
                'Oz the Great and Powerful directed by Sam Raimi',
                'it was released in 2013',
            ],
        );
    });
});

// Loaded before the tests are declared: with every unit file in one process (scripts/test.mjs), a suite
// declaring tests after an await would declare them after the run has moved on.
const { graph, node } = await movieGraph();
const titanic = node('Movie', 'Titanic, 1997');
const cameron = node('Director', 'James Cameron');
const r = retrieve(graph, [titanic, cameron], { form: 'triplets', triplets: 10 });
const data = dataFacts(graph, r.index);
const check = (answer: string, context?: ContextGraph, aliases?: Parameters<typeof verifyOpenAnswer>[0]['aliases']) =>
    verifyOpenAnswer({
        answer,
        nodes: [...r.scored.nodes, ...(context?.nodes ?? [])],
        relations: graph.relations,
        data,
        context: context ?? r.context,
        aliases,
    });

describe('verifyOpenAnswer on the movie data', () => {
    it('supports a stated fact, naming the edge, against the data and the context', () => {
        const [v] = check('Titanic was directed by James Cameron.');
        assert.equal(v!.data.label, 'supported');
        assert.deepEqual(v!.data.edge, {
            head: 'Movie(Titanic, 1997)',
            relation: 'directed_by',
            tail: 'Director(James Cameron)',
        });
        assert.equal(v!.context.label, 'supported');
        assert.equal(v!.cause, 'grounded');
    });

    it('contradicts a wrong director and a wrong length with the conflicting fact', () => {
        const [director, length] = check('Titanic was directed by Sam Mendes. Titanic runs 150 minutes.');
        assert.equal(director!.data.label, 'contradicted');
        assert.equal(director!.data.edge!.tail, 'Director(James Cameron)');
        assert.equal(director!.cause, 'invented');
        assert.equal(length!.data.label, 'contradicted');
        assert.deepEqual(length!.data.edge, { head: 'Movie(Titanic, 1997)', relation: 'Movie.length', tail: 'Movie.length=194' });
    });

    it('contradicts a claim that links two things by another relation than theirs', () => {
        const [v] = check('Titanic star James Cameron.');
        assert.equal(v!.data.label, 'contradicted');
        assert.equal(v!.data.edge!.relation, 'directed_by');
    });

    it('leaves unverifiable what the data does not speak about', () => {
        const verdicts = check('Titanic won eleven Academy Awards. The film is widely admired.');
        assert.deepEqual(
            verdicts.map(v => v.data.label),
            ['unverifiable', 'unverifiable'],
        );
        assert.deepEqual(
            verdicts.map(v => v.cause),
            ['unverifiable', 'unverifiable'],
        );
    });

    it('carries the subject into a clause that names none', () => {
        const [, star] = check('Titanic was directed by James Cameron and starred Leonardo DiCaprio.');
        assert.equal(star!.text, 'starred Leonardo DiCaprio');
        assert.equal(star!.data.label, 'supported');
        assert.equal(star!.data.edge!.relation, 'Movie.star');
    });

    it('tells a claim that followed a corrupted context edge from an invented one', () => {
        // Rewire every edge: the director edge now points elsewhere in the neighbourhood.
        const corrupted = perturb(r.context, { kind: 'rewire', level: 1, seed: 3, relations: graph.relations, pool: r.scored });
        const e = corrupted.edges.find(x => x.perturbed && x.head === 'Movie(Titanic, 1997)' && x.relation === 'Movie.star')!;
        const wrongStar = corrupted.nodes.find(n => n.id === e.tail)!.label;
        const [followed, invented] = check(`Titanic star ${wrongStar}. Titanic was directed by Christopher Nolan.`, corrupted);
        assert.equal(followed!.context.label, 'supported');
        assert.equal(followed!.context.edge!.perturbed, true);
        assert.equal(followed!.data.label, 'contradicted');
        assert.equal(followed!.cause, 'followed-corrupted');
        assert.equal(invented!.context.label, 'contradicted');
        assert.equal(invented!.cause, 'invented');
        const s = summariseClaims([followed!, invented!]);
        assert.deepEqual(s, { claims: 2, supported: 0, contradicted: 1, followedCorrupted: 0.5, invented: 0.5 });
    });

    it('matches aliases supplied for a node', () => {
        const plain = check('Titanic was directed by Jim Cameron.');
        assert.equal(plain[0]!.data.label, 'contradicted', 'an unknown spelling states no director');
        const aliased = check('Titanic was directed by Jim Cameron.', undefined, n =>
            n.id === 'Director(James Cameron)' ? ['Jim Cameron'] : [],
        );
        assert.equal(aliased[0]!.data.label, 'supported');
    });

    it('labels every context check unverifiable for the zero-context baseline', () => {
        const v = verifyOpenAnswer({
            answer: 'Titanic was directed by James Cameron.',
            nodes: r.scored.nodes,
            relations: graph.relations,
            data,
        });
        assert.equal(v[0]!.data.label, 'supported');
        assert.equal(v[0]!.context.label, 'unverifiable');
    });
});
