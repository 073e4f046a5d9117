import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { perturb, perturbedCount, PERTURBATION_KINDS } from '../../../../src/core/families/open/perturb.js';
import { sc2d, sd2 } from '../../../../src/core/families/open/similarity.js';
import type { EdgeRelation } from '../../../../src/core/kg/data-graph.js';
import type { ContextEdge, ContextGraph, ContextNode } from '../../../../src/core/families/open/types.js';

const node = (id: string, type: string, entity = true): ContextNode => ({
    id,
    label: id,
    type,
    entity,
    ppr: 0.1,
    prize: 0,
    seed: false,
});
const edge = (head: string, relation: string, tail: string): ContextEdge => ({
    head,
    relation,
    label: relation,
    tail,
    prize: 0,
    cost: 0.5,
});
const rel = (name: string, headType: string, tailType: string): EdgeRelation => ({
    name,
    label: name,
    kind: 'attribute',
    headType,
    tailType,
    words: [name],
});

const relations = [
    rel('year', 'Movie', 'Movie.year'),
    rel('star', 'Movie', 'Movie.star'),
    rel('directed_by', 'Movie', 'Director'),
    rel('birth', 'Director', 'Director.birth'),
];

/** Ten movies, each with a year, a star and a director; three directors with a birth year. */
function context(): { ctx: ContextGraph; pool: ContextGraph } {
    const nodes: ContextNode[] = [];
    const edges: ContextEdge[] = [];
    for (let d = 0; d < 3; d++) {
        nodes.push(node(`D${d}`, 'Director'), node(`b${d}`, 'Director.birth', false));
        edges.push(edge(`D${d}`, 'birth', `b${d}`));
    }
    for (let m = 0; m < 10; m++) {
        nodes.push(node(`M${m}`, 'Movie'), node(`y${m}`, 'Movie.year', false), node(`s${m}`, 'Movie.star', false));
        edges.push(edge(`M${m}`, 'year', `y${m}`), edge(`M${m}`, 'star', `s${m}`), edge(`M${m}`, 'directed_by', `D${m % 3}`));
    }
    const pool: ContextGraph = {
        form: 'scored',
        nodes: [...nodes, node('D9', 'Director'), node('y99', 'Movie.year', false)],
        edges: [...edges, edge('M0', 'year', 'y99')],
    };
    return { ctx: { form: 'triplets', nodes, edges }, pool };
}

const changed = (a: ContextGraph, b: ContextGraph) =>
    a.edges.filter((e, j) => e.relation !== b.edges[j]!.relation || e.tail !== b.edges[j]!.tail).length;

describe('perturb', () => {
    const { ctx, pool } = context();
    const m = ctx.edges.length; // 33

    for (const level of [0, 0.1, 0.3, 0.5, 1]) {
        it(`corrupts round(level × edges) edges at level ${level}, as each kind states`, () => {
            const k = perturbedCount(m, level);
            const swap = perturb(ctx, { kind: 'swap', level, seed: 4, relations, pool });
            assert.equal(swap.edges.length, m);
            // Pairs only: an odd edge count leaves one edge unswapped at level 1.
            assert.equal(changed(ctx, swap), Math.min(m - (m % 2), 2 * Math.ceil(k / 2)));
            assert.equal(swap.edges.filter(e => e.perturbed?.kind === 'swap').length, changed(ctx, swap));
            // A swap moves relations around; the multiset stays.
            assert.deepEqual(swap.edges.map(e => e.relation).sort(), ctx.edges.map(e => e.relation).sort());

            const replace = perturb(ctx, { kind: 'replace', level, seed: 4, relations, pool });
            assert.equal(replace.edges.length, m);
            assert.equal(changed(ctx, replace), k);
            for (const [j, e] of replace.edges.entries()) {
                if (!e.perturbed) continue;
                const was = ctx.edges[j]!;
                const r = relations.find(x => x.name === e.relation)!;
                const headType = ctx.nodes.find(n => n.id === e.head)!.type;
                const tailType = ctx.nodes.find(n => n.id === was.tail)!.type;
                assert.notEqual(e.relation, was.relation);
                // Directors have one relation only, so theirs is replaced by any other.
                if (relations.some(x => x.headType === headType && x.name !== was.relation))
                    assert.equal(r.headType, headType, "a relation of the head's type");
                assert.notEqual(r.tailType, tailType, 'the least plausible: tails of another type');
            }

            const rewire = perturb(ctx, { kind: 'rewire', level, seed: 4, relations, pool });
            assert.equal(rewire.edges.length, m);
            assert.equal(changed(ctx, rewire), k);
            const near = (id: string) =>
                new Set(pool.edges.flatMap(e => (e.head === id ? [e.tail] : e.tail === id ? [e.head] : [])));
            for (const e of rewire.edges.filter(x => x.perturbed)) {
                assert.ok(
                    !near(e.head).has(e.tail) && e.tail !== e.head,
                    `${e.head} → ${e.tail} lies outside the 1-hop neighbourhood`,
                );
                assert.ok(rewire.nodes.some(n => n.id === e.tail));
            }

            const del = perturb(ctx, { kind: 'delete', level, seed: 4, relations, pool });
            assert.equal(del.edges.length, m - k);
            assert.equal(del.deleted!.length, k);
            const kept = new Set(del.edges.map(e => `${e.head}|${e.relation}|${e.tail}`));
            for (const e of del.deleted!) assert.ok(!kept.has(`${e.head}|${e.relation}|${e.tail}`));
        });
    }

    it('is reproducible from its seed and differs between seeds', () => {
        for (const kind of PERTURBATION_KINDS) {
            const a = perturb(ctx, { kind, level: 0.4, seed: 11, relations, pool });
            const b = perturb(ctx, { kind, level: 0.4, seed: 11, relations, pool });
            const c = perturb(ctx, { kind, level: 0.4, seed: 12, relations, pool });
            assert.deepEqual(a, b);
            assert.notDeepEqual(a, c, kind);
        }
    });

    it('leaves the retrieved context itself untouched', () => {
        const before = JSON.stringify(ctx);
        for (const kind of PERTURBATION_KINDS) perturb(ctx, { kind, level: 1, seed: 1, relations, pool });
        assert.equal(JSON.stringify(ctx), before);
    });
});

describe('SC2D and SD2', () => {
    const g = (edges: [string, string, string][]): ContextGraph => ({
        form: 'triplets',
        nodes: [],
        edges: edges.map(([h, r, t]) => edge(h, r, t)),
    });
    const triangle = g([
        ['a', 'r', 'b'],
        ['b', 'r', 'c'],
        ['c', 'r', 'a'],
    ]);
    const path = g([
        ['a', 'r', 'b'],
        ['b', 'r', 'c'],
    ]);

    it('are 1 for the same graph', () => {
        assert.equal(sc2d(triangle, triangle), 1);
        assert.equal(sd2(triangle, triangle), 1);
    });

    it('SC2D: a triangle against the path that drops one edge', () => {
        // Clustering per (node, r): triangle (1, 1, 1), path (0, 0, 0): distance √3.
        assert.ok(Math.abs(sc2d(triangle, path) - (1 - Math.sqrt(3) / (Math.sqrt(3) + 1))) < 1e-12);
    });

    it("SD2: degrees averaged over each graph's relations, a renamed relation adds one to |R|", () => {
        // Degrees: triangle (2, 2, 2), path (1, 2, 1): distance √2.
        assert.ok(Math.abs(sd2(triangle, path) - (1 - Math.SQRT2 / (Math.SQRT2 + 1))) < 1e-12);
        // a–b becomes relation s: d^r = (1, 1, 2), d^s = (1, 1, 0), averaged over |R| = 2: (1, 1, 1); the triangle
        // (one relation) stays (2, 2, 2): distance √3.
        const renamed = g([
            ['a', 's', 'b'],
            ['b', 'r', 'c'],
            ['c', 'r', 'a'],
        ]);
        assert.ok(Math.abs(sd2(triangle, renamed) - (1 - Math.sqrt(3) / (Math.sqrt(3) + 1))) < 1e-12);
    });
});
