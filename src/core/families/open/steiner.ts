/**
 * Prize-collecting Steiner tree, rooted at the question's entity: choose a tree T containing the root that
 * minimises Σ_{e∈T} c(e) + Σ_{v∉T} π(v) (equivalently, maximises prizes kept minus costs paid).
 * Goemans–Williamson primal-dual growth: every component with prize left grows its dual uniformly; an edge
 * whose duals reach its cost joins two components (the root's component never grows); a component whose
 * dual reaches its prize stops. The root's tree of the chosen edges is then pruned optimally ("strong
 * pruning": keep a child subtree only when its net worth exceeds the edge's cost), which is never worse than
 * GW's own pruning, so the result stays within 2 × the optimum.
 */

export interface PcstInput {
    n: number;
    head: ArrayLike<number>;
    tail: ArrayLike<number>;
    cost: ArrayLike<number>;
    prize: ArrayLike<number>;
    root: number;
}

export interface PcstResult {
    nodes: number[];
    edges: number[];
}

/** The GW objective of a tree: its edge costs plus the prizes left out. */
export function pcstObjective(input: PcstInput, tree: PcstResult): number {
    const inTree = new Set(tree.nodes);
    let total = 0;
    for (const e of tree.edges) total += input.cost[e]!;
    for (let v = 0; v < input.n; v++) if (!inTree.has(v)) total += input.prize[v]!;
    return total;
}

export function prizeCollectingSteiner(input: PcstInput): PcstResult {
    const forest = growForest(input);
    return strongPrune(input, forest);
}

/** GW growth: the edges that went tight, in order. */
function growForest(input: PcstInput): number[] {
    const { n, head, tail, cost, prize, root } = input;
    const comp = Array.from({ length: n }, (_, v) => v);
    const find = (v: number): number => {
        while (comp[v] !== v) {
            comp[v] = comp[comp[v]!]!;
            v = comp[v]!;
        }
        return v;
    };
    const members = new Map<number, number[]>(Array.from({ length: n }, (_, v) => [v, [v]]));
    const active = new Map<number, boolean>(Array.from({ length: n }, (_, v) => [v, v !== root && prize[v]! > 0]));
    const budget = new Map<number, number>(Array.from({ length: n }, (_, v) => [v, prize[v]!]));
    const load = new Float64Array(n);
    const chosen: number[] = [];
    for (;;) {
        let delta = Infinity,
            event: { edge: number } | { comp: number } | undefined;
        for (let e = 0; e < head.length; e++) {
            const a = find(head[e]!),
                b = find(tail[e]!);
            if (a === b) continue;
            const rate = (active.get(a) ? 1 : 0) + (active.get(b) ? 1 : 0);
            if (rate === 0) continue;
            const t = Math.max(0, cost[e]! - load[head[e]!]! - load[tail[e]!]!) / rate;
            if (t < delta) {
                delta = t;
                event = { edge: e };
            }
        }
        for (const [c, on] of active)
            if (on && budget.get(c)! < delta) {
                delta = Math.max(0, budget.get(c)!);
                event = { comp: c };
            }
        if (!event) break;
        for (const [c, on] of active) {
            if (!on) continue;
            budget.set(c, budget.get(c)! - delta);
            for (const v of members.get(c)!) load[v] = load[v]! + delta;
        }
        if ('comp' in event) {
            active.set(event.comp, false);
            continue;
        }
        const a = find(head[event.edge]!),
            b = find(tail[event.edge]!);
        chosen.push(event.edge);
        comp[b] = a;
        members.get(a)!.push(...members.get(b)!);
        members.delete(b);
        budget.set(a, budget.get(a)! + budget.get(b)!);
        active.delete(b);
        active.set(a, find(root) !== a);
    }
    return chosen;
}

/** The root's tree of the forest, keeping exactly the subtrees that pay for their edge. */
function strongPrune(input: PcstInput, forest: number[]): PcstResult {
    const adj = new Map<number, { to: number; edge: number }[]>();
    const link = (v: number, to: number, edge: number) => {
        if (!adj.has(v)) adj.set(v, []);
        adj.get(v)!.push({ to, edge });
    };
    for (const e of forest) {
        link(input.head[e]!, input.tail[e]!, e);
        link(input.tail[e]!, input.head[e]!, e);
    }
    // Iterative DFS order from the root (children after parents), then net worth bottom-up.
    const order: { v: number; parent: number; edge: number }[] = [];
    const stack = [{ v: input.root, parent: -1, edge: -1 }];
    while (stack.length) {
        const item = stack.pop()!;
        order.push(item);
        for (const { to, edge } of adj.get(item.v) ?? []) if (to !== item.parent) stack.push({ v: to, parent: item.v, edge });
    }
    const worth = new Map<number, number>();
    for (let i = order.length - 1; i >= 0; i--) {
        const { v, parent } = order[i]!;
        let w = input.prize[v]!;
        for (const { to, edge } of adj.get(v) ?? []) if (to !== parent) w += Math.max(0, worth.get(to)! - input.cost[edge]!);
        worth.set(v, w);
    }
    const nodes: number[] = [],
        edges: number[] = [];
    const kept = new Set<number>([input.root]);
    for (const { v, parent, edge } of order) {
        if (parent >= 0 && (!kept.has(parent) || worth.get(v)! - input.cost[edge]! <= 0)) continue;
        kept.add(v);
        nodes.push(v);
        if (edge >= 0) edges.push(edge);
    }
    return { nodes, edges };
}
