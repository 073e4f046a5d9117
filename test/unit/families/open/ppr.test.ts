import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { UndirectedGraph } from 'graphology';
import pagerankModule from 'graphology-metrics/centrality/pagerank.js';
import { personalisedPageRank } from '../../../../src/core/families/open/ppr.js';
import { prng } from '../../../../src/core/probes/sampling.js';

// A CommonJS module whose typings declare an ES default export: the function is module.exports itself at run time.
const pagerank = ((pagerankModule as unknown as { default?: typeof pagerankModule.default }).default ??
    pagerankModule) as typeof pagerankModule.default;

/** Reference: solve (I − α·M) p = (1 − α)·s, with a dangling node's column equal to s, by Gaussian elimination. */
function solveLinear(n: number, head: number[], tail: number[], s: number[], alpha: number): number[] {
    const total = s.reduce((a, b) => a + b, 0);
    const t = s.map(x => x / total);
    const deg = new Array<number>(n).fill(0);
    head.forEach((h, j) => {
        deg[h]++;
        deg[tail[j]!]++;
    });
    const M = Array.from({ length: n }, () => new Array<number>(n).fill(0));
    head.forEach((h, j) => {
        const u = tail[j]!;
        M[u]![h]! += 1 / deg[h]!;
        M[h]![u]! += 1 / deg[u]!;
    });
    for (let c = 0; c < n; c++) if (deg[c] === 0) for (let r = 0; r < n; r++) M[r]![c] = t[r]!;
    const A = M.map((row, r) => [...row.map((x, c) => (r === c ? 1 : 0) - alpha * x), (1 - alpha) * t[r]!]);
    for (let c = 0; c < n; c++) {
        const p = A.slice(c).reduce((best, row, i) => (Math.abs(row[c]!) > Math.abs(A[best]![c]!) ? c + i : best), c);
        [A[c], A[p]] = [A[p]!, A[c]!];
        for (let r = 0; r < n; r++) {
            if (r === c) continue;
            const f = A[r]![c]! / A[c]![c]!;
            for (let k = c; k <= n; k++) A[r]![k]! -= f * A[c]![k]!;
        }
    }
    return A.map((row, r) => row[n]! / row[r]!);
}

function randomGraph(seed: number, n: number, m: number): { head: number[]; tail: number[] } {
    const random = prng(seed);
    const head: number[] = [],
        tail: number[] = [];
    for (let j = 0; j < m; j++) {
        const h = Math.floor(random() * n),
            t = Math.floor(random() * n);
        if (h !== t) {
            head.push(h);
            tail.push(t);
        }
    }
    return { head, tail };
}

describe('personalisedPageRank', () => {
    it('matches the hand-computed scores of a path A – B – C personalised on A', () => {
        // p_C = 0.425 p_B, p_B = 0.85 (p_A + p_C), p_A = 0.15 + 0.425 p_B  ⇒  p = (76.65, 102, 43.35) / 222.
        const { scores, converged, iterations } = personalisedPageRank(3, [0, 1], [1, 2], [1, 0, 0], {
            tolerance: 1e-12,
            maxIterations: 1000,
        });
        assert.ok(converged);
        assert.ok(iterations > 10);
        assert.ok(Math.abs(scores[0]! - 76.65 / 222) < 1e-9);
        assert.ok(Math.abs(scores[1]! - 102 / 222) < 1e-9);
        assert.ok(Math.abs(scores[2]! - 43.35 / 222) < 1e-9);
    });

    it('agrees with a direct linear solve on random multigraphs with an isolated node', () => {
        for (let seed = 1; seed <= 20; seed++) {
            const n = 4 + (seed % 9);
            const { head, tail } = randomGraph(seed, n - 1, 2 * n); // node n−1 has no edge
            const s = Array.from({ length: n }, (_, i) => (i === 0 || i === n - 1 || i === seed % n ? 1 : 0));
            const ppr = personalisedPageRank(n, head, tail, s, { tolerance: 1e-13, maxIterations: 10_000 });
            const ref = solveLinear(n, head, tail, s, 0.85);
            ref.forEach((r, i) =>
                assert.ok(Math.abs(r - ppr.scores[i]!) < 1e-9, `seed ${seed} node ${i}: ${r} vs ${ppr.scores[i]}`),
            );
            assert.ok(Math.abs(ppr.scores.reduce((a, b) => a + b, 0) - 1) < 1e-9);
        }
    });

    it('with a uniform teleport vector equals graphology-metrics pagerank', () => {
        const { head, tail } = randomGraph(7, 30, 90);
        const g = new UndirectedGraph();
        for (let v = 0; v < 30; v++) g.addNode(String(v));
        const h: number[] = [],
            t: number[] = [];
        head.forEach((a, j) => {
            const b = tail[j]!;
            if (!g.hasEdge(String(a), String(b))) {
                g.addEdge(String(a), String(b));
                h.push(a);
                t.push(b);
            }
        });
        const ref = pagerank(g, { alpha: 0.85, tolerance: 1e-12, maxIterations: 10_000, getEdgeWeight: null });
        const ours = personalisedPageRank(30, h, t, new Array(30).fill(1), { tolerance: 1e-12, maxIterations: 10_000 });
        for (let v = 0; v < 30; v++) assert.ok(Math.abs(ref[String(v)]! - ours.scores[v]!) < 1e-8, `node ${v}`);
    });

    it('stops at the iteration cap and says it did not converge', () => {
        const { head, tail } = randomGraph(3, 50, 200);
        const s = Array.from({ length: 50 }, (_, i) => (i === 0 ? 1 : 0));
        const r = personalisedPageRank(50, head, tail, s, { maxIterations: 3, tolerance: 0 });
        assert.equal(r.iterations, 3);
        assert.equal(r.converged, false);
        const d = personalisedPageRank(50, head, tail, s);
        assert.ok(d.converged && d.iterations <= 100);
    });
});
