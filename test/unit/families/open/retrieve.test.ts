import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DataGraphBuilder } from '../../../../src/core/kg/data-graph.js';
import { kHop } from '../../../../src/core/kg/khop.js';
import { retrieve } from '../../../../src/core/families/open/retrieve.js';
import { FACTS_INTRO, openPrompt, renderContext } from '../../../../src/core/families/open/render.js';
import { PERTURBATION_KINDS, perturb } from '../../../../src/core/families/open/perturb.js';
import { simulatedOpenAnswer } from '../../../../src/core/families/open/simulate.js';
import { dataFacts, summariseClaims, verifyOpenAnswer } from '../../../../src/core/families/open/check.js';
import { movieGraph } from './support.js';

// Loaded before the tests are declared: with every unit file in one process (scripts/test.mjs), a suite
// declaring tests after an await would declare them after the run has moved on.
const { graph, node } = await movieGraph();

describe('the data graph', () => {
    it('has a node per keyed row and per distinct attribute value, an edge per value and FK link', () => {
        // 6 movies, 3 directors; values: 5 stars, 5 lengths, 5 plots (one null), 3 birth years.
        assert.equal(graph.nodeCount, 6 + 3 + 5 + 5 + 5 + 3);
        // Movie: star 6 + length 6 + plot 5; Director: birth_year 3; FK directed_by 6.
        assert.equal(graph.edgeCount, 6 + 6 + 5 + 3 + 6);
        assert.deepEqual(
            graph.relations.map(r => r.name),
            ['Movie.star', 'Movie.length', 'Movie.plot', 'Director.birth_year', 'directed_by'],
        );
    });
});

describe('kHop', () => {
    // A hub (degree 5) next to the seed, each of its leaves with one more leaf.
    const b = new DataGraphBuilder();
    const t = b.entityType('T');
    const r = b.relation({ name: 'r', label: 'r', kind: 'fk', headType: 'T', tailType: 'T', words: [] });
    const nodes = Array.from({ length: 12 }, (_, i) => b.entity(t, i));
    b.edge(nodes[0]!, r, nodes[1]!);
    for (let i = 2; i <= 6; i++) b.edge(nodes[1]!, r, nodes[i]!);
    for (let i = 2; i <= 6; i++) b.edge(nodes[i]!, r, nodes[i + 5]!);
    const g = b.build();

    it('collects the nodes within K hops and the edges on such walks', () => {
        const two = kHop(g, [nodes[0]!], { k: 2 });
        assert.deepEqual(
            [...two.nodes].sort((x, y) => x - y),
            [0, 1, 2, 3, 4, 5, 6],
        );
        assert.deepEqual(two.hop, [0, 1, 2, 2, 2, 2, 2]);
        assert.equal(two.edges.length, 6);
        assert.equal(kHop(g, [nodes[0]!], { k: 3 }).nodes.length, 12);
    });

    it('keeps a hub but does not expand it', () => {
        const capped = kHop(g, [nodes[0]!], { k: 3, maxDegree: 3 });
        assert.deepEqual(
            [...capped.nodes].sort((x, y) => x - y),
            [0, 1],
        );
    });
});

const seeds = [node('Movie', 'Titanic, 1997'), node('Director', 'James Cameron')];

describe('retrieve on the movie data', () => {
    it("ranks by personalised PageRank, the question's entities first, and drops what scores below 1e-5", () => {
        const r = retrieve(graph, seeds);
        assert.deepEqual(r.seeds, ['Movie(Titanic, 1997)', 'Director(James Cameron)']);
        assert.ok(r.pprIterations <= 100);
        const [a, b, ...rest] = r.scored.nodes;
        assert.ok(rest.every(n => n.ppr < Math.min(a!.ppr, b!.ppr)));
        assert.ok(Math.abs(r.scored.nodes.reduce((s, n) => s + n.ppr, 0) - 1) < 1e-6, 'nothing pruned on so small a graph');
        const pruned = retrieve(graph, seeds, { minScore: 0.05 });
        assert.ok(pruned.scored.nodes.length < r.scored.nodes.length);
        assert.ok(pruned.scored.nodes.every(n => n.seed || n.ppr >= 0.05));
    });

    it("builds each context form from the scored graph and renders the paper's prompt", () => {
        for (const form of ['triplets', 'paths', 'subgraph'] as const) {
            const r = retrieve(graph, seeds, { form, triplets: 5 });
            assert.equal(r.context.form, form);
            assert.ok(r.context.edges.length > 0);
            const scoredEdges = new Set(r.scored.edges.map(e => `${e.head}|${e.relation}|${e.tail}`));
            assert.ok(r.context.edges.every(e => scoredEdges.has(`${e.head}|${e.relation}|${e.tail}`)));
            const prompt = openPrompt('Explain the relationship between Titanic and James Cameron.', r.context);
            assert.ok(prompt.startsWith(`Explain the relationship between Titanic and James Cameron.\n${FACTS_INTRO}\n`));
            assert.ok(prompt.endsWith('\nAnswer:'));
            assert.match(renderContext(r.context), /Titanic \(1997\).*directed by.*James Cameron/);
        }
        assert.equal(retrieve(graph, seeds, { form: 'triplets', triplets: 5 }).context.edges.length, 5);
        assert.equal(openPrompt('Q?'), 'Q?\nAnswer:');
    });

    it('the Steiner subgraph is a tree joining both entities; the first path joins them', () => {
        const tree = retrieve(graph, seeds, { form: 'subgraph' }).context;
        assert.equal(tree.edges.length, tree.nodes.length - 1);
        assert.ok(tree.edges.some(e => e.head === 'Movie(Titanic, 1997)' && e.tail === 'Director(James Cameron)'));
        const paths = retrieve(graph, seeds, { form: 'paths' }).context;
        assert.ok(paths.paths!.length >= 1);
        assert.equal(renderContext(paths).split('\n')[0], 'Titanic (1997) -> directed by -> James Cameron');
    });

    it('with the simulator following the context fully, the followed-corrupted share tracks the level', () => {
        const movies = [
            'Avatar, 2009',
            'Spectre, 2015',
            'Titanic, 1997',
            'Skyfall, 2012',
            'Inception, 2010',
            'Dunkirk, 2017',
        ].map(m => node('Movie', m));
        for (const kind of PERTURBATION_KINDS) {
            for (const level of [0, 0.25, 0.5, 0.75, 1]) {
                let followed = 0,
                    claims = 0,
                    edges = 0,
                    perturbed = 0;
                for (const m of movies) {
                    const r = retrieve(graph, [m], { triplets: 12 });
                    const ctx = perturb(r.context, { kind, level, seed: 5, relations: graph.relations, pool: r.scored });
                    const answer = simulatedOpenAnswer(ctx, { follows: 1, invents: 0, seed: 1 });
                    const v = verifyOpenAnswer({
                        answer,
                        nodes: [...r.scored.nodes, ...ctx.nodes],
                        relations: graph.relations,
                        data: dataFacts(graph, r.index),
                        context: ctx,
                    });
                    const s = summariseClaims(v);
                    followed += s.followedCorrupted * s.claims;
                    claims += s.claims;
                    edges += r.context.edges.length;
                    perturbed += ctx.edges.filter(e => e.perturbed).length;
                }
                const share = claims ? followed / claims : 0;
                if (kind === 'delete') assert.equal(share, 0, 'deleted edges cannot be followed');
                else
                    assert.ok(
                        Math.abs(share - perturbed / edges) <= 0.1,
                        `${kind} ${level}: followed ${share.toFixed(2)} vs perturbed ${(perturbed / edges).toFixed(2)}`,
                    );
                if (kind !== 'delete' && kind !== 'swap') assert.ok(Math.abs(perturbed / edges - level) < 0.05);
            }
        }
    });
});
