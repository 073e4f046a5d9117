/**
 * Strata of a rules program: the derived predicates grouped into mutually recursive components (Tarjan), in an
 * order where every component comes after everything it reads. A `not` inside a component has no single
 * answer (a fact would decide its own absence), so it is refused with the cycle named.
 */
import type { Program } from './ir.js';

export class NegationCycleError extends Error {
    constructor(readonly cycle: string[]) {
        super(`recursion through negation: ${cycle.join(' → ')}`);
    }
}

/** Components of derived predicates, dependencies first. Base predicates are not listed. */
export function stratify(program: Program): string[][] {
    const derived = new Set(program.rules.map(r => r.head.pred));
    const edges = new Map<string, { to: string; negative: boolean }[]>();
    for (const p of derived) edges.set(p, []);
    for (const r of program.rules) {
        for (const l of r.body) {
            if (l.kind === 'compare' || !derived.has(l.atom.pred)) continue;
            edges.get(r.head.pred)!.push({ to: l.atom.pred, negative: l.kind === 'not' });
        }
    }
    const components = tarjan([...derived], p => edges.get(p)!.map(e => e.to));
    const componentOf = new Map<string, number>();
    components.forEach((c, i) => c.forEach(p => componentOf.set(p, i)));
    for (const [from, out] of edges) {
        for (const e of out) {
            if (e.negative && componentOf.get(from) === componentOf.get(e.to))
                throw new NegationCycleError(cycleThrough(from, e.to, edges, componentOf));
        }
    }
    return components;
}

/** Strongly connected components, each emitted after every component it reaches (so: dependencies first). */
function tarjan(nodes: string[], next: (n: string) => string[]): string[][] {
    const index = new Map<string, number>(),
        low = new Map<string, number>();
    const stack: string[] = [],
        onStack = new Set<string>(),
        out: string[][] = [];
    let counter = 0;
    // Iterative, so a long chain of rules cannot exhaust the call stack.
    for (const root of nodes) {
        if (index.has(root)) continue;
        const work: { node: string; edges: string[]; i: number }[] = [];
        const enter = (n: string) => {
            index.set(n, counter);
            low.set(n, counter);
            counter++;
            stack.push(n);
            onStack.add(n);
            work.push({ node: n, edges: next(n), i: 0 });
        };
        enter(root);
        while (work.length > 0) {
            const top = work[work.length - 1]!;
            if (top.i < top.edges.length) {
                const to = top.edges[top.i++]!;
                if (!index.has(to)) enter(to);
                else if (onStack.has(to)) low.set(top.node, Math.min(low.get(top.node)!, index.get(to)!));
                continue;
            }
            work.pop();
            if (work.length > 0) {
                const parent = work[work.length - 1]!.node;
                low.set(parent, Math.min(low.get(parent)!, low.get(top.node)!));
            }
            if (low.get(top.node) === index.get(top.node)) {
                const component: string[] = [];
                let n: string;
                do {
                    n = stack.pop()!;
                    onStack.delete(n);
                    component.push(n);
                } while (n !== top.node);
                out.push(component.reverse());
            }
        }
    }
    return out;
}

/** A path from `to` back to `from` inside their component, to name the cycle in the error. */
function cycleThrough(
    from: string,
    to: string,
    edges: Map<string, { to: string }[]>,
    componentOf: Map<string, number>,
): string[] {
    const c = componentOf.get(from);
    const previous = new Map<string, string>([[to, to]]);
    const queue = [to];
    while (queue.length > 0) {
        const n = queue.shift()!;
        if (n === from) break;
        for (const e of edges.get(n) ?? []) {
            if (componentOf.get(e.to) !== c || previous.has(e.to)) continue;
            previous.set(e.to, n);
            queue.push(e.to);
        }
    }
    const path = [from];
    for (let n = from; n !== to && previous.has(n); n = previous.get(n)!) path.push(previous.get(n)!);
    // path runs from `from` back to `to`; the cycle is from --not--> to → … → from.
    return [from, ...path.reverse()];
}
