/**
 * Recursion in a program: which rules sit on a dependency cycle (they need a cap) and which cycles pass through
 * `not` (no stratification exists). Language-side checks that give located errors; evaluation orders the strata
 * itself.
 */
import type { Program, Rule } from './ir.js';

export interface RecursionProblem {
    kind: 'negation' | 'unbounded';
    rule: Rule;
    cycle: string[];
}

/** Strongly connected components of the predicate dependency graph (Tarjan), as sets of predicate names. */
function components(program: Program): Map<string, number> {
    const edges = new Map<string, Set<string>>();
    for (const r of program.rules) {
        let out = edges.get(r.head.pred);
        if (!out) edges.set(r.head.pred, (out = new Set()));
        for (const l of r.body) if (l.kind !== 'compare') out.add(l.atom.pred);
    }
    const index = new Map<string, number>(),
        low = new Map<string, number>(),
        comp = new Map<string, number>();
    const stack: string[] = [];
    const on = new Set<string>();
    let next = 0,
        count = 0;
    const visit = (v: string) => {
        index.set(v, next);
        low.set(v, next);
        next++;
        stack.push(v);
        on.add(v);
        for (const w of edges.get(v) ?? []) {
            if (!edges.has(w)) continue;
            if (!index.has(w)) {
                visit(w);
                low.set(v, Math.min(low.get(v)!, low.get(w)!));
            } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
        }
        if (low.get(v) === index.get(v)) {
            for (let w = stack.pop(); w !== undefined; w = stack.pop()) {
                on.delete(w);
                comp.set(w, count);
                if (w === v) break;
            }
            count++;
        }
    };
    for (const v of edges.keys()) if (!index.has(v)) visit(v);
    return comp;
}

/**
 * One problem per recursive rule: through negation (an error in any case) or recursive at all (needs a cap
 * unless its only recursive clauses are `bounded`, e.g. a symmetric closure).
 */
export function checkRecursion(program: Program, bounded: ReadonlySet<Rule>): RecursionProblem[] {
    const comp = components(program);
    const out: RecursionProblem[] = [];
    const reported = new Set<string>();
    const cycleOf = (pred: string) => [...comp.entries()].filter(([, c]) => c === comp.get(pred)).map(([p]) => p);
    for (const r of program.rules) {
        const c = comp.get(r.head.pred);
        const recursive = r.body.filter(l => l.kind !== 'compare' && comp.get(l.atom.pred) === c);
        if (recursive.length === 0) continue;
        if (recursive.some(l => l.kind === 'not')) {
            if (!reported.has(`n:${r.head.pred}`))
                out.push({ kind: 'negation', rule: r, cycle: [...cycleOf(r.head.pred), r.head.pred] });
            reported.add(`n:${r.head.pred}`);
        } else if (!bounded.has(r) && !reported.has(`u:${r.head.pred}`)) {
            reported.add(`u:${r.head.pred}`);
            out.push({ kind: 'unbounded', rule: r, cycle: [...cycleOf(r.head.pred), r.head.pred] });
        }
    }
    return out;
}
