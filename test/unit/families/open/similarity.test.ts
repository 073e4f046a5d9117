// SC2D / SD2 as OKGQA defines them (METHODS.md §5, corrected): per-relation clustering / degree vectors over the
// nodes, averaged over the graph's relations into one |V|-vector; similarity = 1 − d / (d + 1).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { clusteringVector, degreeVector, sc2d, sd2 } from '../../../../src/core/families/open/similarity.js';
import type { ContextGraph } from '../../../../src/core/families/open/types.js';

const g = (edges: [string, string, string][]): ContextGraph => ({
    form: 'triplets',
    nodes: [],
    edges: edges.map(([head, relation, tail]) => ({ head, relation, label: relation, tail, prize: 0, cost: 0.5 })),
});

describe('SC2D and SD2 on a 4-edge hand example', () => {
    // Original: triangle a–b–c in relation r, and c–d in relation s.
    // Perturbed (relation swapping of a–b and c–d): a–b in s; b–c, c–a, c–d in r.
    const original = g([
        ['a', 'r', 'b'],
        ['b', 'r', 'c'],
        ['c', 'r', 'a'],
        ['c', 's', 'd'],
    ]);
    const perturbed = g([
        ['a', 's', 'b'],
        ['b', 'r', 'c'],
        ['c', 'r', 'a'],
        ['c', 'r', 'd'],
    ]);

    it('averages the per-relation degree vectors over the relations (SD2 = 1: a swap keeps every degree)', () => {
        // d^r_o = (a 2, b 2, c 2, d 0), d^s_o = (0, 0, 1, 1) → d_o = ½·(2, 2, 3, 1) = (1, 1, 1.5, 0.5).
        // d^r_p = (1, 1, 3, 1),          d^s_p = (1, 1, 0, 0) → d_p = ½·(2, 2, 3, 1) = (1, 1, 1.5, 0.5).
        // ‖d_o − d_p‖ = 0 → SD2 = 1 − 0/1 = 1.0000 (the concatenated vectors gave √8 → 0.2612).
        assert.deepEqual(Object.fromEntries(degreeVector(original)), { a: 1, b: 1, c: 1.5, d: 0.5 });
        assert.deepEqual(Object.fromEntries(degreeVector(perturbed)), { a: 1, b: 1, c: 1.5, d: 0.5 });
        assert.equal(sd2(original, perturbed), 1);
    });

    it('averages the per-relation clustering vectors over the relations (SC2D = 0.5359)', () => {
        // c^r_o = (1, 1, 1, 0) (the triangle), c^s_o = 0 → c_o = (0.5, 0.5, 0.5, 0).
        // c^r_p: a {c}, b {c}, d {c} have one neighbour (0); c has {a, b, d} with no r-link among them (0); c^s_p = 0 → c_p = 0.
        // ‖c_o − c_p‖ = √(3 · 0.25) = √3/2 = 0.8660 → SC2D = 1 − 0.8660 / 1.8660 = 0.5359 (concatenated: √3 → 0.3660).
        assert.deepEqual(Object.fromEntries(clusteringVector(original)), { a: 0.5, b: 0.5, c: 0.5, d: 0 });
        const expected = 1 - Math.sqrt(3) / 2 / (Math.sqrt(3) / 2 + 1);
        assert.ok(Math.abs(sc2d(original, perturbed) - expected) < 1e-12, String(sc2d(original, perturbed)));
        assert.equal(sc2d(original, perturbed).toFixed(4), '0.5359');
    });

    it("divides by each graph's own relation count; a node missing on one side counts 0", () => {
        // Deleting c–d removes relation s: d_o = (1, 1, 1.5, 0.5), d_p = (2, 2, 2, 0) over |R_p| = 1.
        const deleted = g([
            ['a', 'r', 'b'],
            ['b', 'r', 'c'],
            ['c', 'r', 'a'],
        ]);
        const d = Math.sqrt(1 + 1 + 0.25 + 0.25);
        assert.ok(Math.abs(sd2(original, deleted) - (1 - d / (d + 1))) < 1e-12);
        assert.equal(sd2(g([]), g([])), 1);
    });
});
