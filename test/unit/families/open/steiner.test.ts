import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { pcstObjective, prizeCollectingSteiner, type PcstInput } from '../../../../src/core/families/open/steiner.js';
import { prng } from '../../../../src/core/probes/sampling.js';

/** Minimum spanning tree cost of the subgraph induced by `set`, or Infinity when it is not connected. */
function mstCost(input: PcstInput, set: Set<number>): number {
    const edges = Array.from({ length: input.head.length }, (_, e) => e)
        .filter(e => set.has(input.head[e]!) && set.has(input.tail[e]!))
        .sort((a, b) => input.cost[a]! - input.cost[b]!);
    const parent = new Map([...set].map(v => [v, v]));
    const find = (v: number): number => (parent.get(v) === v ? v : find(parent.get(v)!));
    let cost = 0,
        joined = 1;
    for (const e of edges) {
        const a = find(input.head[e]!),
            b = find(input.tail[e]!);
        if (a === b) continue;
        parent.set(a, b);
        cost += input.cost[e]!;
        joined++;
    }
    return joined === set.size ? cost : Infinity;
}

/** The optimum over every node set containing the root: its MST cost plus the prizes left out. */
function bruteForce(input: PcstInput): number {
    let best = Infinity;
    const others = Array.from({ length: input.n }, (_, v) => v).filter(v => v !== input.root);
    for (let mask = 0; mask < 1 << others.length; mask++) {
        const set = new Set([input.root, ...others.filter((_, i) => mask & (1 << i))]);
        let penalty = 0;
        for (let v = 0; v < input.n; v++) if (!set.has(v)) penalty += input.prize[v]!;
        best = Math.min(best, mstCost(input, set) + penalty);
    }
    return best;
}

function randomInput(seed: number): PcstInput {
    const random = prng(seed);
    const n = 2 + Math.floor(random() * 11); // 2..12 nodes
    const head: number[] = [],
        tail: number[] = [],
        cost: number[] = [];
    for (let v = 1; v < n; v++) {
        head.push(Math.floor(random() * v));
        tail.push(v);
        cost.push(random() * 2);
    } // spanning tree
    const extra = Math.floor(random() * n * 1.5);
    for (let j = 0; j < extra; j++) {
        const a = Math.floor(random() * n),
            b = Math.floor(random() * n);
        if (a !== b) {
            head.push(a);
            tail.push(b);
            cost.push(random() * 2);
        }
    }
    const prize = Array.from({ length: n }, () => (random() < 0.3 ? 0 : random() * 2));
    return { n, head, tail, cost, prize, root: Math.floor(random() * n) };
}

function assertTree(input: PcstInput, nodes: number[], edges: number[]): void {
    assert.ok(nodes.includes(input.root));
    assert.equal(edges.length, nodes.length - 1);
    const set = new Set(nodes);
    for (const e of edges) assert.ok(set.has(input.head[e]!) && set.has(input.tail[e]!));
    assert.ok(mstCost({ ...input, cost: input.cost }, set) < Infinity, 'connected');
}

describe('prizeCollectingSteiner', () => {
    it('stays within twice the brute-force optimum on 300 random graphs of 2–12 nodes', () => {
        let exact = 0;
        for (let seed = 1; seed <= 300; seed++) {
            const input = randomInput(seed);
            const tree = prizeCollectingSteiner(input);
            assertTree(input, tree.nodes, tree.edges);
            const got = pcstObjective(input, tree);
            const opt = bruteForce(input);
            assert.ok(got <= 2 * opt + 1e-9, `seed ${seed}: ${got} > 2 × ${opt}`);
            assert.ok(got >= opt - 1e-9, `seed ${seed}: below the optimum?`);
            if (got <= opt + 1e-9) exact++;
        }
        // A sanity check that the approximation is usually good, not just within its bound.
        assert.ok(exact > 200, `${exact} of 300 optimal`);
    });

    it('takes a costly edge only when the prize behind it pays for it', () => {
        const base = { n: 3, head: [0, 1], tail: [1, 2], cost: [1, 1], root: 0 };
        assert.deepEqual(prizeCollectingSteiner({ ...base, prize: [0, 0.5, 0.4] }).nodes, [0]);
        const all = prizeCollectingSteiner({ ...base, prize: [0, 0.5, 3] });
        assert.deepEqual([...all.nodes].sort(), [0, 1, 2]);
        assert.equal(pcstObjective({ ...base, prize: [0, 0.5, 3] }, all), 2);
    });
});
