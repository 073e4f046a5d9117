/**
 * How many facts each rule would derive, estimated from the grouped data before anything is derived: a join
 * rule over 20,000 players in 10 clubs (`colleague(p, q) :- p.club = q.club, p != q`) derives 40M facts, which
 * no editor and few machines hold. A rule whose estimate passes RULE_FACT_LIMIT without a `cap` or `sample` is
 * refused with a located problem; with one, evaluation keeps a seeded sample of at most that many, drawn in work
 * bounded by it (eval-sample.ts). The editor never derives more than EDITOR_FACT_LIMIT facts of any rule: its
 * hovers and diagnostics work from these estimates and such samples (`editorProgram`).
 *
 * The estimate of a clause is the size of its body's join: the product of its atoms' sizes times, for each
 * variable shared by atoms, the chance that their tuples agree on it. For atoms over the data that chance is
 * exact from the value counts (Σ_v Π count_i(v) / Π size_i — for two atoms on one variable the join's size
 * itself); a derived atom is taken to hold each value once. Comparisons and negations only filter, so they are
 * left out (the estimate is an upper bound there); `symmetric` doubles a rule, a capped recursive rule counts as its cap.
 */
import type { Atom, FactBase, Program, Rule, RuleLocation, Value } from './ir.js';

/** Facts (join rows) a rule without a cap may derive; past it the rule is refused with a located problem. */
const RULE_FACT_LIMIT = 1_000_000;
/** The most facts of any one rule the editor derives (a seeded sample past it), whatever the rule's own bound. */
export const EDITOR_FACT_LIMIT = 10_000;

/** The program as the editor evaluates it: every derived predicate bounded by EDITOR_FACT_LIMIT (or its own, smaller, bound). */
export function editorProgram(program: Program, limit = EDITOR_FACT_LIMIT): Program {
    const caps: Record<string, number> = { ...program.caps };
    for (const r of program.rules) caps[r.head.pred] = Math.min(caps[r.head.pred] ?? Infinity, limit);
    return { ...program, caps };
}

export interface RuleSize {
    rule: string;
    /** Estimated facts (join rows before duplicates are removed), after the cap when there is one. */
    facts: number;
    /** The estimate before the cap. */
    uncapped: number;
    cap?: number;
    /** The bound was written `sample N` (asked for), not `cap N`. */
    sampled?: boolean;
    loc?: RuleLocation;
}

/** Per base predicate and argument position: how many facts hold each value (built once per predicate). */
class Counts {
    private readonly byPred = new Map<string, Map<Value, number>[]>();
    constructor(private readonly base: FactBase) {}

    size(pred: string): number {
        return this.base.get(pred)?.length ?? 0;
    }

    column(pred: string, arg: number): Map<Value, number> {
        let cols = this.byPred.get(pred);
        if (!cols) this.byPred.set(pred, (cols = []));
        let col = cols[arg];
        if (!col) {
            col = new Map();
            for (const row of this.base.get(pred) ?? []) col.set(row[arg]!, (col.get(row[arg]!) ?? 0) + 1);
            cols[arg] = col;
        }
        return col;
    }
}

/** The estimated size of every derived predicate, in the order the rules can be evaluated. */
export function sizeRules(program: Program, base: FactBase): RuleSize[] {
    const counts = new Counts(base);
    const derived = new Set(program.rules.map(r => r.head.pred));
    const sizes = new Map<string, number>();
    const out = new Map<string, RuleSize>();
    const recursive = recursivePredicates(program);
    // Rules in dependency order (a rule's body predicates first); a cycle counts as its cap (or unknown, 0).
    const order = dependencyOrder(program, derived);
    for (const pred of order) {
        const cap = program.caps?.[pred];
        let uncapped = 0;
        const clauses = program.rules.filter(r => r.head.pred === pred);
        const own = clauses.filter(
            r =>
                !r.body.some(
                    l => l.kind !== 'compare' && (l.atom.pred === pred || (recursive.has(l.atom.pred) && recursive.has(pred))),
                ),
        );
        for (const rule of own) uncapped += clauseEstimate(rule, counts, derived, sizes);
        // A recursive clause: `symmetric` (the only one allowed without a cap) at most doubles the facts; a
        // transitive closure is bounded by its cap.
        // (A body that reads the same with its two head arguments swapped, as a self-join does, already holds both readings.)
        const factor = own.length > 0 && own.every(swapInvariant) ? 1 : 2;
        if (own.length < clauses.length) uncapped = cap !== undefined ? Math.max(factor * uncapped, cap) : factor * uncapped;
        const facts = cap !== undefined ? Math.min(cap, uncapped) : uncapped;
        sizes.set(pred, facts);
        const loc = program.rules.find(r => r.head.pred === pred)?.loc;
        const sampled = program.sampled?.includes(pred) ? { sampled: true } : {};
        out.set(pred, {
            rule: pred,
            facts,
            uncapped,
            ...(cap !== undefined ? { cap, ...sampled } : {}),
            ...(loc ? { loc } : {}),
        });
    }
    return [...out.values()];
}

/** The rules that would derive more than `limit` facts and have no cap to bound them. */
export function oversizedRules(program: Program, base: FactBase, limit = RULE_FACT_LIMIT): RuleSize[] {
    return sizeRules(program, base).filter(e => e.cap === undefined && e.uncapped > limit);
}

/** The located message of an oversized rule: how many facts, why, and what to write. */
export function oversizedMessage(e: RuleSize, limit = RULE_FACT_LIMIT): string {
    return `${e.rule} derives about ${approx(e.uncapped)} facts (estimated from the data's value counts), more than the ${approx(limit)} a rule may derive without a bound. Add 'cap N' to the rule (the most facts it keeps) or 'sample N' (a seeded random sample of N facts), e.g. 'sample 10000': either draws its facts without deriving the rest. Or narrow its body.`;
}

/** 40M, 1.2M, 35k, 999. */
export function approx(n: number): string {
    if (n >= 1e9) return `${+(n / 1e9).toPrecision(2)}G`;
    if (n >= 1e6) return `${+(n / 1e6).toPrecision(2)}M`;
    if (n >= 1e4) return `${Math.round(n / 1e3)}k`;
    return String(Math.round(n));
}

function clauseEstimate(rule: Rule, counts: Counts, derived: Set<string>, sizes: Map<string, number>): number {
    const atoms = rule.body.flatMap(l => (l.kind === 'atom' ? [l.atom] : []));
    let estimate = 1;
    const uses = new Map<string, { atom: Atom; arg: number }[]>();
    const sizeOf = (a: Atom) => (derived.has(a.pred) ? (sizes.get(a.pred) ?? 0) : counts.size(a.pred));
    for (const atom of atoms) {
        estimate *= sizeOf(atom);
        atom.args.forEach((t, arg) => {
            if ('var' in t) {
                const list = uses.get(t.var) ?? [];
                list.push({ atom, arg });
                uses.set(t.var, list);
            } else if (!derived.has(atom.pred))
                estimate *= (counts.column(atom.pred, arg).get(t.const) ?? 0) / Math.max(1, counts.size(atom.pred));
            else estimate /= Math.max(1, sizeOf(atom));
        });
    }
    if (estimate === 0) return 0;
    for (const list of uses.values()) {
        if (list.length < 2) continue;
        const onData = list.filter(u => !derived.has(u.atom.pred));
        const onRules = list.filter(u => derived.has(u.atom.pred));
        let chance = 1;
        if (onData.length >= 2)
            chance = agreement(
                onData.map(u => counts.column(u.atom.pred, u.arg)),
                onData.map(u => counts.size(u.atom.pred)),
            );
        // A derived atom holds each value once: it matches 1 / (distinct values) of the tuples it meets.
        const distinct = onData.length ? Math.max(...onData.map(u => counts.column(u.atom.pred, u.arg).size)) : 0;
        for (const [i, u] of onRules.entries()) if (onData.length || i > 0) chance /= Math.max(1, distinct || sizeOf(u.atom));
        estimate *= chance;
    }
    return estimate;
}

/** Whether a clause's atoms are the same set with its two head variables swapped (p.club = q.club). */
function swapInvariant(rule: Rule): boolean {
    const [a, b] = rule.head.args;
    if (!a || !b || !('var' in a) || !('var' in b) || rule.head.args.length !== 2) return false;
    const swap = (t: Atom['args'][number]) =>
        'var' in t ? (t.var === a.var ? b.var : t.var === b.var ? a.var : t.var) : `=${String(t.const)}`;
    const plain = (t: Atom['args'][number]) => ('var' in t ? t.var : `=${String(t.const)}`);
    const text = (atoms: Atom[], f: (t: Atom['args'][number]) => string) =>
        atoms
            .map(x => `${x.pred}(${x.args.map(f).join(',')})`)
            .sort()
            .join(';');
    const atoms = rule.body.flatMap(l => (l.kind === 'atom' ? [l.atom] : []));
    return text(atoms, plain) === text(atoms, swap);
}

/** The chance that one tuple drawn from each column agrees: Σ_v Π count_i(v) / Π size_i. */
function agreement(columns: Map<Value, number>[], sizes: number[]): number {
    const first = columns.reduce((best, c, i) => (c.size < columns[best]!.size ? i : best), 0);
    let sum = 0;
    for (const [v, n] of columns[first]!) {
        let product = n;
        for (let i = 0; i < columns.length && product > 0; i++) if (i !== first) product *= columns[i]!.get(v) ?? 0;
        sum += product;
    }
    return sum / sizes.reduce((a, b) => a * Math.max(1, b), 1);
}

function dependencyOrder(program: Program, derived: Set<string>): string[] {
    const order: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const visit = (pred: string) => {
        if (state.has(pred)) return;
        state.set(pred, 'open');
        for (const r of program.rules)
            if (r.head.pred === pred)
                for (const l of r.body) if (l.kind !== 'compare' && derived.has(l.atom.pred)) visit(l.atom.pred);
        state.set(pred, 'done');
        order.push(pred);
    };
    for (const pred of derived) visit(pred);
    return order;
}

/** Predicates that depend on themselves (through any path). */
function recursivePredicates(program: Program): Set<string> {
    const edges = new Map<string, Set<string>>();
    for (const r of program.rules)
        for (const l of r.body)
            if (l.kind !== 'compare') {
                const set = edges.get(r.head.pred) ?? new Set<string>();
                set.add(l.atom.pred);
                edges.set(r.head.pred, set);
            }
    const out = new Set<string>();
    for (const start of edges.keys()) {
        const seen = new Set<string>();
        const stack = [...(edges.get(start) ?? [])];
        while (stack.length) {
            const p = stack.pop()!;
            if (p === start) {
                out.add(start);
                break;
            }
            if (seen.has(p)) continue;
            seen.add(p);
            stack.push(...(edges.get(p) ?? []));
        }
    }
    return out;
}
