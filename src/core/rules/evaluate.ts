/**
 * Bottom-up evaluation of a rules program (ir.ts): stratified, semi-naive, with hash indexes, per-predicate caps
 * filled by a seeded sample, and for every derived fact the clause and premise facts it came from, so that any
 * fact's proof can be rebuilt on demand.
 *
 * Values are interned to integer ids; a predicate's facts are rows of ids in one growable Int32Array, in the
 * order they were derived (so a "round" of semi-naive evaluation is a range of row numbers). Provenance costs a
 * clause number and an offset into one shared premise pool per fact.
 */
import type {
    Atom, Comparison, Derivation, EvaluateOptions, EvaluateStats, Fact, FactBase, Literal, Program, Proof, Rule, Term, Value,
} from './ir.js';
import { prng } from '../probes/sampling.js';
import { Int32Builder as IntVec } from '../data/table.js';
import { Interner, TupleSet, tupleKey, type TupleKey } from './store.js';
import { stratify } from './strata.js';

/** One predicate's facts, their indexes and provenance. */
class Relation {
    readonly rows = new IntVec();
    readonly set: TupleSet;
    /** Bound-positions mask → key of those positions → row numbers, ascending. */
    readonly indexes = new Map<number, Map<TupleKey, number[]>>();
    /** Clause number per row (-1: a base fact) and where its premises start in the pool. */
    readonly clause = new IntVec();
    readonly premStart = new IntVec();
    count = 0;
    /** Candidates of a capped predicate waiting for the end of the round, and their keys (no candidate twice). */
    pending: Candidate[] = [];
    readonly pendingKeys = new Set<TupleKey>();
    /** Candidates seen this round once the buffer overflowed (0: not overflowed); `pending` is then a uniform sample. */
    sampled = 0;

    constructor(readonly id: number, readonly name: string, readonly arity: number) {
        this.set = new TupleSet(arity, this.rows);
    }

    row(i: number, out: number[]): number[] {
        const base = i * this.arity;
        for (let k = 0; k < this.arity; k++) out[k] = this.rows.at(base + k);
        return out;
    }

    index(mask: number): Map<TupleKey, number[]> {
        let ix = this.indexes.get(mask);
        if (ix) return ix;
        ix = new Map();
        const tuple: number[] = new Array(this.arity);
        for (let i = 0; i < this.count; i++) addToIndex(ix, mask, this.row(i, tuple), i);
        this.indexes.set(mask, ix);
        return ix;
    }
}

interface Candidate { ids: number[]; clause: number; premRel: number[]; premRow: number[] }

const NONE = new Int32Array(0);
const EMPTY: number[] = [];

function maskKey(mask: number, ids: ArrayLike<number>): TupleKey {
    let single = -1, parts: number[] | undefined;
    for (let k = 0; mask >> k; k++) {
        if (!(mask & (1 << k))) continue;
        if (single < 0 && !parts) single = ids[k]!;
        else { parts ??= [single]; parts.push(ids[k]!); }
    }
    return parts ? tupleKey(parts) : single;
}

function addToIndex(ix: Map<TupleKey, number[]>, mask: number, ids: ArrayLike<number>, row: number): void {
    const key = maskKey(mask, ids);
    const list = ix.get(key);
    if (list) list.push(row); else ix.set(key, [row]);
}

/** First position in an ascending list whose value is ≥ lo. */
function lowerBound(list: number[], lo: number): number {
    if (lo <= 0 || list.length === 0 || list[0]! >= lo) return 0;
    let a = 0, b = list.length;
    while (a < b) { const m = (a + b) >> 1; if (list[m]! < lo) a = m + 1; else b = m; }
    return a;
}

/** How one argument of an atom is matched: a constant id, a variable already bound, or a variable this atom binds. */
type Arg = { k: 'const'; id: number } | { k: 'bound'; slot: number } | { k: 'free'; slot: number } | { k: 'same'; slot: number };

type Step =
    | { k: 'atom'; rel: Relation; args: Arg[]; mask: number; range: 'full' | 'old' | 'delta'; prem: number }
    | { k: 'not'; rel: Relation; args: Arg[]; mask: number; sound: 'fd' | 'complete'; prem: number }
    | { k: 'compare'; op: Comparison; left: Arg; right: Arg };

interface Plan { clause: number; steps: Step[]; head: Arg[]; headRel: Relation; slots: number; premises: number }

export function evaluate(program: Program, base: FactBase, options: EvaluateOptions = {}): Derivation {
    return new Evaluator(program, options).run(base);
}

class Evaluator {
    private readonly values = new Interner();
    private readonly relations = new Map<string, Relation>();
    private readonly byId: Relation[] = [];
    /** The premise pool: relation id and row of each premise, in clause body order. */
    private readonly poolRel = new IntVec();
    private readonly poolRow = new IntVec();
    private readonly random: () => number;
    private readonly stats: EvaluateStats = { iterations: 0, derived: {}, truncated: [], millis: 0, loadMillis: 0 };
    private derivedTotal = 0;
    private stopped = false;
    /** Per relation in the current stratum: the rows of the last round (delta) and what came before (old). */
    private deltaStart = new Map<Relation, number>();
    private deltaEnd = new Map<Relation, number>();

    constructor(private readonly program: Program, private readonly options: EvaluateOptions) {
        this.random = prng(options.seed ?? 1);
        for (const d of program.base) this.relation(d.name, d.arity);
        for (const r of program.rules) this.relation(r.head.pred, r.head.args.length);
        for (const r of program.rules) for (const l of r.body) if (l.kind !== 'compare') this.need(l.atom, r);
    }

    private need(atom: Atom, rule: Rule): void {
        if (!this.relations.has(atom.pred)) {
            throw new Error(`rule ${rule.name} uses ${atom.pred}, which is neither a base predicate nor the head of a rule`);
        }
        const rel = this.relations.get(atom.pred)!;
        if (rel.arity !== atom.args.length) {
            throw new Error(`rule ${rule.name} uses ${atom.pred} with ${atom.args.length} arguments; it has ${rel.arity}`);
        }
    }

    private relation(name: string, arity: number): Relation {
        let rel = this.relations.get(name);
        if (!rel) {
            rel = new Relation(this.byId.length, name, arity);
            this.relations.set(name, rel);
            this.byId.push(rel);
        }
        return rel;
    }

    run(base: FactBase): Derivation {
        const started = performance.now();
        for (const [pred, rows] of base) {
            const arity = rows[0]?.length ?? this.relations.get(pred)?.arity ?? 0;
            const rel = this.relation(pred, arity);
            rel.set.reserve(rel.count + rows.length);
            const ids: number[] = new Array(rel.arity);
            for (const row of rows) {
                if (row.length !== rel.arity) throw new Error(`a base fact of ${pred} has ${row.length} values; ${pred} has ${rel.arity}`);
                for (let k = 0; k < rel.arity; k++) ids[k] = this.values.id(row[k]!);
                if (rel.set.find(ids) < 0) this.append(rel, ids, -1, NONE, NONE, 0);
            }
        }
        this.stats.loadMillis = performance.now() - started;
        const derived = new Set(this.program.rules.map(r => r.head.pred));
        for (const stratum of stratify(this.program)) {
            if (this.stopped) break;
            this.evaluateStratum(stratum.filter(p => derived.has(p)));
        }
        for (const pred of derived) this.stats.derived[pred] = this.relations.get(pred)!.count;
        this.stats.millis = performance.now() - started;
        return this.derivation();
    }

    private evaluateStratum(preds: string[]): void {
        const inStratum = new Set(preds.map(p => this.relations.get(p)!));
        const clauses = this.program.rules.map((r, i) => ({ r, i })).filter(({ r }) => preds.includes(r.head.pred));
        const recursive = (r: Rule) => r.body.some(l => l.kind === 'atom' && inStratum.has(this.relations.get(l.atom.pred)!));
        // Round 0: the clauses that read only lower strata, once.
        for (const { r, i } of clauses) if (!recursive(r)) this.fire(this.plan(r, i, -1, inStratum));
        this.endRound(inStratum);
        const deltaPlans = clauses.filter(({ r }) => recursive(r)).flatMap(({ r, i }) =>
            r.body.flatMap((l, pos) => l.kind === 'atom' && inStratum.has(this.relations.get(l.atom.pred)!) ? [this.plan(r, i, pos, inStratum)] : []));
        if (deltaPlans.length === 0) return;
        let starts = new Map([...inStratum].map(rel => [rel, 0]));
        while (!this.stopped) {
            this.deltaStart = starts;
            this.deltaEnd = new Map([...inStratum].map(rel => [rel, rel.count]));
            if ([...inStratum].every(rel => this.deltaStart.get(rel)! >= rel.count)) break;
            this.options.signal?.throwIfAborted();
            for (const plan of deltaPlans) {
                const delta = (plan.steps[0] as Step & { k: 'atom' }).rel;
                if (this.deltaStart.get(delta)! < this.deltaEnd.get(delta)!) this.fire(plan);
            }
            starts = this.deltaEnd;
            this.endRound(inStratum);
        }
    }

    private endRound(rels: Set<Relation>): void {
        this.stats.iterations++;
        for (const rel of rels) this.flushPending(rel);
    }

    /** A capped predicate keeps a seeded sample of the round's candidates that fit under its cap. */
    private flushPending(rel: Relation): void {
        if (rel.pending.length === 0) return;
        const cap = this.program.caps?.[rel.name] ?? Infinity;
        const room = Math.max(0, cap - rel.count);
        const pending = rel.pending;
        rel.pending = [];
        rel.sampled = 0;
        if (pending.length > room) {
            for (let i = pending.length - 1; i > 0; i--) {
                const j = Math.floor(this.random() * (i + 1));
                [pending[i], pending[j]] = [pending[j]!, pending[i]!];
            }
            this.truncate(rel.name);
        }
        rel.pendingKeys.clear();
        for (const c of pending.slice(0, room)) this.append(rel, c.ids, c.clause, c.premRel, c.premRow, c.premRel.length);
    }

    /** Shrinks an overflowing buffer to a uniform sample of `room` candidates; later ones replace them at random. */
    private startSampling(rel: Relation, room: number): void {
        const pending = rel.pending;
        for (let i = 0; i < Math.min(room, pending.length - 1); i++) {
            const j = i + Math.floor(this.random() * (pending.length - i));
            [pending[i], pending[j]] = [pending[j]!, pending[i]!];
        }
        rel.sampled = pending.length;
        pending.length = Math.min(room, pending.length);
        rel.pendingKeys.clear();
        for (const c of pending) rel.pendingKeys.add(tupleKey(c.ids));
        this.truncate(rel.name);
    }

    private truncate(name: string): void {
        if (!this.stats.truncated.includes(name)) this.stats.truncated.push(name);
    }

    /** Orders a clause's body for a join: the delta atom first, then whatever binds most; tests as soon as they can run. */
    private plan(rule: Rule, clause: number, deltaPos: number, inStratum: Set<Relation>): Plan {
        const slotOf = new Map<string, number>();
        const slot = (v: string) => { let s = slotOf.get(v); if (s === undefined) { s = slotOf.size; slotOf.set(v, s); } return s; };
        const bound = new Set<string>();
        const premOf = new Map<Literal, number>();
        for (const l of rule.body) if (l.kind === 'atom' || (l.kind === 'not' && l.sound === 'fd')) premOf.set(l, premOf.size);
        const arg = (t: Term, binding: boolean, local?: Set<string>): Arg => {
            if ('const' in t) return { k: 'const', id: this.values.id(t.const) };
            const s = slot(t.var);
            if (bound.has(t.var)) return { k: 'bound', slot: s };
            if (local?.has(t.var)) return { k: 'same', slot: s };
            if (binding) local?.add(t.var);
            return { k: binding ? 'free' : 'bound', slot: s };
        };
        const atomStep = (l: Literal & { kind: 'atom' }, pos: number): Step => {
            const rel = this.relations.get(l.atom.pred)!;
            const local = new Set<string>();
            const args = l.atom.args.map(t => arg(t, true, local));
            for (const v of local) bound.add(v);
            const range = !inStratum.has(rel) || deltaPos < 0 ? 'full' : pos === deltaPos ? 'delta' : pos < deltaPos ? 'old' : 'full';
            return { k: 'atom', rel, args, mask: maskOf(args), range, prem: premOf.get(l)! };
        };
        const ready = (l: Literal) => termsOf(l).every(t => 'const' in t || bound.has(t.var));
        const steps: Step[] = [];
        const left = rule.body.map((l, pos) => ({ l, pos }));
        const take = (i: number) => left.splice(i, 1)[0]!;
        if (deltaPos >= 0) { const i = left.findIndex(x => x.pos === deltaPos); const { l, pos } = take(i); steps.push(atomStep(l as Literal & { kind: 'atom' }, pos)); }
        while (left.length > 0) {
            const test = left.findIndex(({ l }) => l.kind !== 'atom' && (ready(l) || isAssignment(l, bound)));
            if (test >= 0) {
                const { l } = take(test);
                if (l.kind === 'compare') {
                    if (isAssignment(l, bound)) {
                        const [from, to] = 'var' in l.right && !bound.has(l.right.var) ? [l.left, l.right] : [l.right, l.left];
                        steps.push({ k: 'compare', op: '=', left: arg(from, false), right: { k: 'free', slot: slot((to as { var: string }).var) } });
                        bound.add((to as { var: string }).var);
                    } else steps.push({ k: 'compare', op: l.op, left: arg(l.left, false), right: arg(l.right, false) });
                } else if (l.kind === 'not') {
                    const rel = this.relations.get(l.atom.pred)!;
                    const args = l.atom.args.map(t => arg(t, false));
                    steps.push({ k: 'not', rel, args, mask: l.sound === 'fd' ? 1 : maskOf(args), sound: l.sound, prem: premOf.get(l) ?? -1 });
                }
                continue;
            }
            let best = -1, bestScore = -1;
            left.forEach(({ l }, i) => {
                if (l.kind !== 'atom') return;
                const score = l.atom.args.filter(t => 'const' in t || bound.has(t.var)).length;
                if (score > bestScore) { best = i; bestScore = score; }
            });
            if (best < 0) throw new Error(`rule ${rule.name}: a 'not' or comparison uses a variable no atom binds`);
            const { l, pos } = take(best);
            steps.push(atomStep(l as Literal & { kind: 'atom' }, pos));
        }
        const head = rule.head.args.map(t => {
            if ('var' in t && !bound.has(t.var)) throw new Error(`rule ${rule.name}: head variable ${t.var} is not bound by the body`);
            return arg(t, false);
        });
        return { clause, steps, head, headRel: this.relations.get(rule.head.pred)!, slots: slotOf.size, premises: premOf.size };
    }

    /** Runs one plan: a nested-loop join over indexes, emitting head facts with their premises. */
    private fire(plan: Plan): void {
        const env = new Int32Array(plan.slots).fill(-1);
        const premRel = new Int32Array(plan.premises), premRow = new Int32Array(plan.premises);
        const head: number[] = new Array(plan.head.length);
        const probe: number[] = [];
        const value = (a: Arg) => a.k === 'const' ? a.id : env[a.slot]!;
        const step = (k: number): void => {
            if (this.stopped) return;
            if (k === plan.steps.length) {
                for (let i = 0; i < head.length; i++) head[i] = value(plan.head[i]!);
                this.derive(plan.headRel, head, plan.clause, premRel, premRow);
                return;
            }
            const s = plan.steps[k]!;
            if (s.k === 'compare') {
                if (s.right.k === 'free') { env[s.right.slot] = value(s.left); step(k + 1); env[s.right.slot] = -1; return; }
                if (this.compare(s.op, value(s.left), value(s.right))) step(k + 1);
                return;
            }
            for (let i = 0; i < s.args.length; i++) probe[i] = value(s.args[i]!);
            if (s.k === 'not') {
                const witness = this.negation(s, probe);
                if (witness === undefined) return;
                if (s.prem >= 0) { premRel[s.prem] = s.rel.id; premRow[s.prem] = witness; }
                step(k + 1);
                return;
            }
            const hi = this.deltaEnd.get(s.rel) ?? s.rel.count;
            const lo = s.range === 'delta' ? this.deltaStart.get(s.rel) ?? 0 : 0;
            const top = s.range === 'old' ? this.deltaStart.get(s.rel) ?? 0 : hi;
            const list = s.mask === 0 ? undefined : s.rel.index(s.mask).get(maskKey(s.mask, probe)) ?? EMPTY;
            const { rows, arity } = s.rel;
            const args = s.args;
            for (let i = list ? lowerBound(list, lo) : lo, end = list ? list.length : top; i < end; i++) {
                const row = list ? list[i]! : i;
                if (row >= top) break;
                const base = row * arity;
                let ok = true;
                for (let j = 0; j < args.length; j++) {
                    const a = args[j]!;
                    if (a.k === 'free') env[a.slot] = rows.at(base + j);
                    else if (a.k === 'same' && env[a.slot] !== rows.at(base + j)) { ok = false; break; }
                }
                if (!ok) continue;
                premRel[s.prem] = s.rel.id; premRow[s.prem] = row;
                step(k + 1);
            }
            for (const a of args) if (a.k === 'free') env[a.slot] = -1;
        };
        step(0);
    }

    /**
     * A sound negation: `fd` holds when the key (argument 0) has a fact and none of its facts is this one — the
     * witness is a fact with another value; `complete` holds when no fact matches. Returns the witness row (or
     * -1 for a closed-world absence), undefined when the negation does not hold.
     */
    private negation(s: Step & { k: 'not' }, probe: number[]): number | undefined {
        const list = s.rel.index(s.mask).get(maskKey(s.mask, probe));
        if (s.sound === 'complete') return list && list.length > 0 ? undefined : -1;
        if (!list || list.length === 0) return undefined;
        return s.rel.set.find(probe) >= 0 ? undefined : list[0];
    }

    private compare(op: Comparison, a: number, b: number): boolean {
        if (op === '=') return a === b;
        if (op === '!=') return a !== b;
        const x = this.values.value(a), y = this.values.value(b);
        if (typeof x !== typeof y) return false;
        return op === '<' ? x < y : op === '<=' ? x <= y : op === '>' ? x > y : x >= y;
    }

    /** A head fact found by a clause: new facts are kept (capped predicates: at the end of the round). */
    private derive(rel: Relation, ids: number[], clause: number, premRel: Int32Array, premRow: Int32Array): void {
        if (rel.set.find(ids) >= 0) return;
        if (this.derivedTotal >= (this.options.maxFacts ?? Infinity)) { this.truncate(rel.name); this.stopped = true; return; }
        if (this.program.caps?.[rel.name] !== undefined) {
            const key = tupleKey(ids);
            if (rel.pendingKeys.has(key)) return;
            // Memory stays bounded however many candidates a round finds (a capped 40M-fact join): past a few
            // times the room, the buffer becomes a uniform sample of room's size (reservoir sampling).
            const room = Math.max(0, this.program.caps[rel.name]! - rel.count);
            if (!rel.sampled && rel.pending.length >= Math.max(4 * room, 100_000)) this.startSampling(rel, room);
            if (rel.sampled) {
                const j = Math.floor(this.random() * ++rel.sampled);
                if (j >= room) return;
                rel.pendingKeys.delete(tupleKey(rel.pending[j]!.ids));
                rel.pending[j] = { ids: [...ids], clause, premRel: [...premRel], premRow: [...premRow] };
                rel.pendingKeys.add(key);
                return;
            }
            rel.pendingKeys.add(key);
            rel.pending.push({ ids: [...ids], clause, premRel: [...premRel], premRow: [...premRow] });
            return;
        }
        this.append(rel, ids, clause, premRel, premRow, premRel.length);
    }

    private append(rel: Relation, ids: ArrayLike<number>, clause: number, premRel: ArrayLike<number>, premRow: ArrayLike<number>, premises: number): void {
        const row = rel.count++;
        for (let k = 0; k < rel.arity; k++) rel.rows.push(ids[k]!);
        rel.set.add(row);
        rel.clause.push(clause);
        rel.premStart.push(this.poolRel.length);
        for (let p = 0; p < premises; p++) { this.poolRel.push(premRel[p]!); this.poolRow.push(premRow[p]!); }
        for (const [mask, ix] of rel.indexes) addToIndex(ix, mask, ids, row);
        if (clause >= 0) this.derivedTotal++;
    }

    private derivation(): Derivation {
        const cache = new Map<string, Fact[]>();
        const factAt = (rel: Relation, row: number): Fact => ({ pred: rel.name, args: rel.row(row, new Array(rel.arity)).map(id => this.values.value(id)) });
        const rowOf = (fact: Fact): [Relation, number] | undefined => {
            const rel = this.relations.get(fact.pred);
            if (!rel || fact.args.length !== rel.arity) return undefined;
            const ids: number[] = [];
            for (const v of fact.args) { const id = this.values.lookup(v); if (id === undefined) return undefined; ids.push(id); }
            const row = rel.set.find(ids);
            return row < 0 ? undefined : [rel, row];
        };
        const proofAt = (rel: Relation, row: number, memo: Map<number, Proof>): Proof => {
            const memoKey = rel.id * 2 ** 32 + row;
            const known = memo.get(memoKey);
            if (known) return known;
            const fact = factAt(rel, row);
            const clause = rel.clause.at(row);
            let proof: Proof;
            if (clause < 0) proof = { kind: 'base', fact };
            else {
                const rule = this.program.rules[clause]!;
                const start = rel.premStart.at(row);
                const count = rule.body.filter(l => l.kind === 'atom' || (l.kind === 'not' && l.sound === 'fd')).length;
                const premises: Proof[] = [];
                for (let p = 0; p < count; p++) premises.push(proofAt(this.byId[this.poolRel.at(start + p)]!, this.poolRow.at(start + p), memo));
                proof = { kind: 'rule', fact, rule: rule.name, clause, premises, bindings: bindingsOf(rule, premises.map(q => q.fact), fact) };
            }
            memo.set(memoKey, proof);
            return proof;
        };
        return {
            stats: this.stats,
            facts: pred => {
                let out = cache.get(pred);
                if (!out) {
                    const rel = this.relations.get(pred);
                    out = rel ? Array.from({ length: rel.count }, (_, i) => factAt(rel, i)) : [];
                    cache.set(pred, out);
                }
                return out;
            },
            size: pred => this.relations.get(pred)?.count ?? 0,
            factAt: (pred, index) => {
                const rel = this.relations.get(pred);
                return rel && index >= 0 && index < rel.count ? factAt(rel, index) : undefined;
            },
            has: fact => rowOf(fact) !== undefined,
            proof: fact => {
                const at = rowOf(fact);
                return at ? proofAt(at[0], at[1], new Map()) : undefined;
            },
        };
    }
}

function maskOf(args: Arg[]): number {
    let mask = 0;
    args.forEach((a, i) => { if (a.k === 'const' || a.k === 'bound') mask |= 1 << i; });
    return mask;
}

function termsOf(l: Literal): Term[] {
    return l.kind === 'compare' ? [l.left, l.right] : l.atom.args;
}

/** `x = expr` where one side is an unbound variable and the other is known: it binds, it does not test. */
function isAssignment(l: Literal, bound: Set<string>): boolean {
    if (l.kind !== 'compare' || l.op !== '=') return false;
    const free = (t: Term) => 'var' in t && !bound.has(t.var);
    return free(l.left) !== free(l.right);
}

/** The variable bindings of a clause application, read back from its premises (positive atoms) and its head. */
function bindingsOf(rule: Rule, premises: Fact[], head: Fact): Record<string, Value> {
    const out: Record<string, Value> = {};
    const bind = (args: Term[], values: readonly Value[]) => args.forEach((t, i) => { if ('var' in t) out[t.var] = values[i]!; });
    let p = 0;
    for (const l of rule.body) {
        if (l.kind === 'atom') bind(l.atom.args, premises[p++]!.args);
        else if (l.kind === 'not' && l.sound === 'fd') p++;
    }
    bind(rule.head.args, head.args);
    return out;
}
