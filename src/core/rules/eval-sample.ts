/**
 * Filling a capped predicate (`cap N`, `sample N`) in bounded work. A round's candidates are enumerated while they
 * are few (up to ENUMERATE_BUDGET candidate rows, or 8 × the room left): then every candidate is seen and the
 * kept ones are a uniform sample of them (evaluate.ts keeps a reservoir). Past that budget the enumeration is
 * dropped and the room is filled by random walks over the same join plans instead, so a rule whose join has 40M
 * rows costs about as much as the facts it keeps, not as its join.
 *
 * A walk picks, at each atom of the plan, one of the rows matching what is bound so far, uniformly; a join row
 * is reached with probability 1 / Π deg_k (deg_k: the rows matching at step k). It is kept with probability
 * Π deg_k / M, where M bounds Π deg_k for every walk of every plan (the product of each step's largest index
 * list), so every join row of the round is kept with the same probability 1 / (plans × M): Olken's acceptance,
 * a uniform sample of the join's rows however skewed its groups. (A fact derived by several join rows is that
 * many times as likely; a rule whose head names every body variable, as most do, has one row per fact.) The
 * walks stop when the room is full or after WALKS_PER_FACT × the room; what they found is kept, and the
 * predicate is reported as cut short either way.
 */
import type { Comparison, EvaluateStats } from './ir.js';
import { lowerBound, type Relation } from './eval-relation.js';
import type { Arg, Plan, Step } from './eval-plan.js';

/** Candidate rows a round may enumerate for a capped predicate before it is sampled by walks instead. */
const ENUMERATE_BUDGET = 250_000;
/** Walks per fact of room (at least MIN_WALKS) before the walks give up on a join that rarely yields a new fact. */
const WALKS_PER_FACT = 64;
const MIN_WALKS = 100_000;

/** A budget of candidate rows for one enumeration: `left` below zero means it was used up and the enumeration stopped. */
export interface Budget {
    left: number;
}

/** What sampling needs from the evaluator. */
export interface SampleHost {
    readonly random: () => number;
    readonly stats: EvaluateStats;
    /** The most facts a predicate keeps (Infinity when it has no cap). */
    capOf(rel: Relation): number;
    /** Runs a plan as a nested-loop join, stopping when `budget` is used up; `dry`: only counts its candidate rows. */
    fire(plan: Plan, budget?: Budget, dry?: boolean): void;
    /** The rows an atom step ranges over this round: [lo, top). */
    rangeOf(step: Step & { k: 'atom' }): { lo: number; top: number };
    negation(step: Step & { k: 'not' }, probe: number[]): number | undefined;
    compare(op: Comparison, a: number, b: number): boolean;
    derive(rel: Relation, ids: number[], clause: number, premRow: Int32Array): void;
    truncate(name: string): void;
}

/** Runs a round's plans that derive one capped predicate: enumerated while cheap, else sampled by walks. */
export function fillCapped(host: SampleHost, rel: Relation, plans: Plan[]): void {
    const room = Math.max(0, host.capOf(rel) - rel.count);
    // First only counted (deriving a candidate costs far more than looking at a row).
    const budget: Budget = { left: Math.max(ENUMERATE_BUDGET, 8 * room) };
    for (const plan of plans) {
        host.fire(plan, budget, true);
        if (budget.left < 0) break;
    }
    // Few enough: enumerated whole, and the end of the round keeps a uniform sample of them (saying when it cut).
    if (budget.left >= 0) {
        for (const plan of plans) host.fire(plan);
        return;
    }
    // A predicate already at its cap keeps nothing more: its candidates are not looked for any further.
    if (room > 0) walk(host, rel, plans, room);
    host.truncate(rel.name);
}

/** Fills up to `room` new candidates of `rel` by uniform random walks over `plans` (see the file's comment). */
function walk(host: SampleHost, rel: Relation, plans: Plan[], room: number): void {
    const largest = plans.map(p => p.steps.map(s => (s.k === 'atom' ? largestDegree(host, s) : 1)));
    const bounds = largest.map(degrees => degrees.reduce((a, b) => a * b, 1));
    const M = Math.max(...bounds);
    if (!(M > 0)) return;
    const envs = plans.map(p => new Int32Array(p.slots));
    const prems = plans.map(p => new Int32Array(p.premises));
    const heads = plans.map(p => new Array<number>(p.head.length));
    const probe: number[] = [];
    const limit = Math.max(MIN_WALKS, WALKS_PER_FACT * room);
    let examined = 0;
    for (let walks = 0; walks < limit && rel.pending.length < room; walks++) {
        const i = Math.floor(host.random() * plans.length);
        const plan = plans[i]!,
            env = envs[i]!.fill(-1),
            prem = prems[i]!;
        const value = (a: Arg) => (a.k === 'const' ? a.id : env[a.slot]!);
        let weight = 1,
            ok = true;
        for (const s of plan.steps) {
            if (s.k === 'compare') {
                if (s.right.k === 'free') env[s.right.slot] = value(s.left);
                else ok = host.compare(s.op, value(s.left), value(s.right));
            } else {
                for (let j = 0; j < s.args.length; j++) probe[j] = value(s.args[j]!);
                probe.length = s.args.length;
                if (s.k === 'not') {
                    const witness = host.negation(s, probe);
                    ok = witness !== undefined;
                    if (ok && s.prem >= 0) prem[s.prem] = witness!;
                } else {
                    const row = pick(host, s, probe);
                    examined++;
                    ok = row !== undefined && bind(s, row.row, env);
                    if (ok) {
                        weight *= row!.degree;
                        prem[s.prem] = row!.row;
                    }
                }
            }
            if (!ok) break;
        }
        // Olken's acceptance: kept with probability Π deg / M, so every join row is equally likely.
        if (!ok || host.random() * M >= weight) continue;
        const head = heads[i]!;
        for (let k = 0; k < head.length; k++) head[k] = value(plan.head[k]!);
        host.derive(rel, head, plan.clause, prem);
    }
    host.stats.examined += examined;
}

/** One row matching the bound arguments of an atom step, uniformly among them, and how many there were. */
function pick(host: SampleHost, s: Step & { k: 'atom' }, probe: number[]): { row: number; degree: number } | undefined {
    const { lo, top } = host.rangeOf(s);
    if (s.mask === 0) {
        const degree = top - lo;
        return degree > 0 ? { row: lo + Math.floor(host.random() * degree), degree } : undefined;
    }
    // The key's rows are an index's grouped part, then the rows added since (eval-relation.ts): those in [lo, top).
    const ix = s.rel.index(s.mask);
    ix.seek(probe);
    const a = lowerBound(ix.rowsOf, ix.from, ix.to, lo),
        b = lowerBound(ix.rowsOf, ix.from, ix.to, top);
    const c = lowerBound(ix.more, 0, ix.more.length, lo),
        d = lowerBound(ix.more, 0, ix.more.length, top);
    const degree = b - a + (d - c);
    if (degree <= 0) return undefined;
    const r = Math.floor(host.random() * degree);
    return { row: r < b - a ? ix.rowsOf[a + r]! : ix.more[c + r - (b - a)]!, degree };
}

/** Binds the step's free arguments to the row's values; false when a repeated variable disagrees. */
function bind(s: Step & { k: 'atom' }, row: number, env: Int32Array): boolean {
    const base = row * s.rel.arity;
    for (let j = 0; j < s.args.length; j++) {
        const a = s.args[j]!;
        const value = s.rel.rows.at(base + j);
        if (a.k === 'free') env[a.slot] = value;
        else if (a.k === 'same' && env[a.slot] !== value) return false;
    }
    return true;
}

/** The most rows any walk can meet at this step: its whole range, or its index's longest list. */
function largestDegree(host: SampleHost, s: Step & { k: 'atom' }): number {
    const { lo, top } = host.rangeOf(s);
    if (s.mask === 0) return Math.max(0, top - lo);
    return s.rel.index(s.mask).largestKey();
}

/** Relations whose facts the round's plans derive, with those plans. */
export function byHead(plans: Plan[]): Map<Relation, Plan[]> {
    const out = new Map<Relation, Plan[]>();
    for (const plan of plans) {
        const list = out.get(plan.headRel);
        if (list) list.push(plan);
        else out.set(plan.headRel, [plan]);
    }
    return out;
}
