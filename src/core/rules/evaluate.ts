/**
 * Bottom-up evaluation of a rules program (ir.ts): stratified, semi-naive, with hash indexes, per-predicate caps
 * filled by a seeded sample in bounded work (eval-sample.ts), and for every derived fact the clause and premise facts it came from, so that any
 * fact's proof can be rebuilt on demand.
 *
 * Values are interned to integer ids; a predicate's facts are rows of ids in one growable Int32Array, in the
 * order they were derived (so a "round" of semi-naive evaluation is a range of row numbers). Provenance costs a
 * clause number and an offset into one shared premise pool per fact.
 */
import type { Atom, Comparison, Derivation, EvaluateOptions, EvaluateStats, FactBase, Program, Rule } from './ir.js';
import { prng } from '../probes/sampling.js';
import { Interner, IntVec, tupleKey } from './interned.js';
import { stratify } from './strata.js';
import { lowerBound, NONE, Relation } from './eval-relation.js';
import { compilePlan, distinctHeads, planClause, type CompiledStep, type Plan, type Step } from './eval-plan.js';
import { derivationOf } from './eval-proofs.js';
import { byHead, fillCapped, type Budget, type SampleHost } from './eval-sample.js';

export function evaluate(program: Program, base: FactBase, options: EvaluateOptions = {}): Derivation {
    return new Evaluator(program, options).run(base);
}

class Evaluator implements SampleHost {
    readonly values = new Interner();
    readonly relations = new Map<string, Relation>();
    readonly byId: Relation[] = [];
    /**
     * The premise pool: the row of each premise, in clause body order. Its relation is the literal's (premise p of
     * a clause is the p-th atom or FD negation of its body), so only the row is stored.
     */
    readonly poolRow = new IntVec();
    readonly random: () => number;
    readonly stats: EvaluateStats = { iterations: 0, derived: {}, truncated: [], millis: 0, loadMillis: 0, examined: 0 };
    private derivedTotal = 0;
    /** `maxFacts` and each relation's cap (by relation id), read once: derive runs for every candidate. */
    private readonly maxFacts: number;
    private readonly caps: (number | undefined)[] = [];
    private stopped = false;
    /** The head relation of the plan fireDistinct runs: its facts are known new and distinct. */
    private unchecked: Relation | undefined;
    /** Per relation in the current stratum: the rows of the last round (delta) and what came before (old). */
    private deltaStart = new Map<Relation, number>();
    private deltaEnd = new Map<Relation, number>();
    /** The same by relation id, for the join's inner loop (undefined: not in this round, read up to its count). */
    private readonly startOf: (number | undefined)[] = [];
    private readonly endOf: (number | undefined)[] = [];

    constructor(
        readonly program: Program,
        private readonly options: EvaluateOptions,
    ) {
        this.random = prng(options.seed ?? 1);
        this.maxFacts = options.maxFacts ?? Infinity;
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
            this.caps.push(this.program.caps?.[name]);
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
                if (row.length !== rel.arity)
                    throw new Error(`a base fact of ${pred} has ${row.length} values; ${pred} has ${rel.arity}`);
                for (let k = 0; k < rel.arity; k++) ids[k] = this.values.id(row[k]!);
                if (rel.set.insert(ids, rel.count) < 0) this.append(rel, ids, -1, NONE, 0);
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
        return derivationOf(this);
    }

    private evaluateStratum(preds: string[]): void {
        const inStratum = new Set(preds.map(p => this.relations.get(p)!));
        const clauses = this.program.rules.map((r, i) => ({ r, i })).filter(({ r }) => preds.includes(r.head.pred));
        const recursive = (r: Rule) => r.body.some(l => l.kind === 'atom' && inStratum.has(this.relations.get(l.atom.pred)!));
        // Round 0: the clauses that read only lower strata, once.
        this.fireRound(clauses.filter(({ r }) => !recursive(r)).map(({ r, i }) => this.plan(r, i, -1, inStratum)));
        this.endRound(inStratum);
        const deltaPlans = clauses
            .filter(({ r }) => recursive(r))
            .flatMap(({ r, i }) =>
                r.body.flatMap((l, pos) =>
                    l.kind === 'atom' && inStratum.has(this.relations.get(l.atom.pred)!) ? [this.plan(r, i, pos, inStratum)] : [],
                ),
            );
        if (deltaPlans.length === 0) return;
        let starts = new Map([...inStratum].map(rel => [rel, 0]));
        while (!this.stopped) {
            this.deltaStart = starts;
            this.deltaEnd = new Map([...inStratum].map(rel => [rel, rel.count]));
            for (const rel of inStratum) {
                this.startOf[rel.id] = starts.get(rel);
                this.endOf[rel.id] = rel.count;
            }
            if ([...inStratum].every(rel => this.deltaStart.get(rel)! >= rel.count)) break;
            this.options.signal?.throwIfAborted();
            this.fireRound(
                deltaPlans.filter(plan => {
                    const delta = (plan.steps[0] as Step & { k: 'atom' }).rel;
                    return this.deltaStart.get(delta)! < this.deltaEnd.get(delta)!;
                }),
            );
            starts = this.deltaEnd;
            this.endRound(inStratum);
        }
    }

    /** Runs a round's plans; those of a capped predicate are filled in bounded work (eval-sample.ts). */
    private fireRound(plans: Plan[]): void {
        for (const [rel, ofRel] of byHead(plans)) {
            if (this.capOf(rel) !== Infinity) fillCapped(this, rel, ofRel);
            else if (ofRel.length === 1 && rel.count === 0 && distinctHeads(ofRel[0]!, this.program))
                this.fireDistinct(ofRel[0]!);
            else for (const plan of ofRel) this.fire(plan);
        }
    }

    /**
     * Runs a plan whose head facts are all new and distinct (distinctHeads): its facts are appended without asking
     * the relation's set of tuples, which records them once, at its final size, when it is next asked (TupleSet
     * defer) instead of being probed and regrown with every fact (the shared-object join: two million facts, each
     * a random probe into a table that doubled eleven times).
     */
    private fireDistinct(plan: Plan): void {
        const rel = plan.headRel;
        this.unchecked = rel;
        try {
            this.fire(plan);
        } finally {
            this.unchecked = undefined;
            rel.set.defer(0, rel.count);
        }
    }

    capOf(rel: Relation): number {
        return this.caps[rel.id] ?? Infinity;
    }

    rangeOf(s: Step & { k: 'atom' }): { lo: number; top: number } {
        const id = s.rel.id;
        const hi = this.endOf[id] ?? s.rel.count;
        return { lo: s.range === 'delta' ? (this.startOf[id] ?? 0) : 0, top: s.range === 'old' ? (this.startOf[id] ?? 0) : hi };
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
        for (const c of pending.slice(0, room)) {
            rel.set.insert(c.ids, rel.count);
            this.append(rel, c.ids, c.clause, c.premRow, c.premRow.length);
        }
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

    truncate(name: string): void {
        if (!this.stats.truncated.includes(name)) this.stats.truncated.push(name);
    }

    private plan(rule: Rule, clause: number, deltaPos: number, inStratum: Set<Relation>): Plan {
        return planClause(this, rule, clause, deltaPos, inStratum);
    }

    /**
     * Runs one plan: a nested-loop join over indexes, emitting head facts with their premises. A budget of
     * candidate rows stops it; `dry` only counts them (is the join small enough to enumerate?). The plan runs in
     * its compiled form (compilePlan): every argument a slot of one Int32Array environment, so the loops below
     * read typed arrays, with no argument kinds to look at and no closure per run.
     */
    fire(plan: Plan, budget?: Budget, dry = false): void {
        const compiled = (plan.compiled ??= compilePlan(plan));
        const run: JoinRun = {
            plan,
            steps: compiled.steps,
            headSlots: compiled.head,
            env: compiled.env.slice(),
            premRow: new Int32Array(plan.premises),
            head: new Array<number>(compiled.head.length).fill(0),
            probe: [],
            left: budget?.left ?? Infinity,
            examined: 0,
            dry,
        };
        this.join(run, 0);
        this.stats.examined += run.examined;
        if (budget) budget.left = run.left;
    }

    /** Step k of a run: tests, or the rows of an atom (all of its range, or its index's rows for the bound key). */
    private join(r: JoinRun, k: number): void {
        if (this.stopped || r.left < 0) return;
        const steps = r.steps,
            env = r.env;
        if (k === steps.length) {
            if (r.dry) return;
            const head = r.head,
                slots = r.headSlots;
            for (let i = 0; i < head.length; i++) head[i] = env[slots[i]!]!;
            this.derive(r.plan.headRel, head, r.plan.clause, r.premRow);
            return;
        }
        const s = steps[k]!;
        if (s.k === 'compare') {
            if (s.assign) {
                env[s.right] = env[s.left]!;
                this.join(r, k + 1);
                env[s.right] = -1;
            } else if (this.compare(s.op, env[s.left]!, env[s.right]!)) this.join(r, k + 1);
            return;
        }
        if (s.k === 'not') {
            const witness = this.negation(s.step, probeOf(r, s.argSlot));
            if (witness === undefined) return;
            if (s.step.prem >= 0) r.premRow[s.step.prem] = witness;
            this.join(r, k + 1);
            return;
        }
        const step = s.step,
            id = step.rel.id;
        const hi = this.endOf[id] ?? step.rel.count;
        const lo = step.range === 'delta' ? (this.startOf[id] ?? 0) : 0;
        const top = step.range === 'old' ? (this.startOf[id] ?? 0) : hi;
        if (step.mask === 0) {
            for (let row = lo; row < top && --r.left >= 0; row++) {
                r.examined++;
                this.visit(r, s, k, row);
            }
        } else {
            // The index's rows for the key, ascending: its grouped part, then the rows added since (the copies
            // are read before going deeper, where the same index may be sought again).
            const ix = (step.index ??= step.rel.index(step.mask));
            if (s.keySlot >= 0) ix.seekKey(env[s.keySlot]!);
            else ix.seek(probeOf(r, s.argSlot));
            const rows = ix.rowsOf,
                to = ix.to,
                more = ix.more;
            let done = false;
            for (let i = lowerBound(rows, ix.from, to, lo); i < to; i++) {
                const row = rows[i]!;
                if (row >= top || --r.left < 0) {
                    done = true;
                    break;
                }
                r.examined++;
                this.visit(r, s, k, row);
            }
            if (!done) {
                for (let i = lowerBound(more, 0, more.length, lo); i < more.length; i++) {
                    const row = more[i]!;
                    if (row >= top || --r.left < 0) break;
                    r.examined++;
                    this.visit(r, s, k, row);
                }
            }
        }
        const bound = s.bindSlot;
        for (let j = 0; j < bound.length; j++) env[bound[j]!] = -1;
    }

    /** Binds an atom's free arguments to row `row` and goes on to step k + 1 when its repeated ones agree. */
    private visit(r: JoinRun, s: CompiledStep & { k: 'atom' }, k: number, row: number): void {
        const rel = s.step.rel,
            data = rel.rows.data,
            base = row * rel.arity,
            env = r.env,
            bindCol = s.bindCol,
            bindSlot = s.bindSlot,
            sameCol = s.sameCol;
        for (let j = 0; j < bindCol.length; j++) env[bindSlot[j]!] = data[base + bindCol[j]!]!;
        for (let j = 0; j < sameCol.length; j++) if (env[s.sameSlot[j]!] !== data[base + sameCol[j]!]) return;
        r.premRow[s.step.prem] = row;
        this.join(r, k + 1);
    }

    /**
     * A sound negation: `fd` holds when the key (argument 0) has a fact and none of its facts is this one — the
     * witness is a fact with another value; `complete` holds when no fact matches. Returns the witness row (or
     * -1 for a closed-world absence), undefined when the negation does not hold.
     */
    negation(s: Step & { k: 'not' }, probe: number[]): number | undefined {
        const first = s.rel.index(s.mask).first(probe);
        if (s.sound === 'complete') return first >= 0 ? undefined : -1;
        if (first < 0) return undefined;
        return s.rel.set.find(probe) >= 0 ? undefined : first;
    }

    compare(op: Comparison, a: number, b: number): boolean {
        if (op === '=') return a === b;
        if (op === '!=') return a !== b;
        const x = this.values.value(a),
            y = this.values.value(b);
        if (typeof x !== typeof y) return false;
        return op === '<' ? x < y : op === '<=' ? x <= y : op === '>' ? x > y : x >= y;
    }

    /** A head fact found by a clause: new facts are kept (capped predicates: at the end of the round). */
    derive(rel: Relation, ids: number[], clause: number, premRow: Int32Array): void {
        const cap = this.caps[rel.id];
        const capped = cap !== undefined;
        if (this.derivedTotal >= this.maxFacts) {
            if (rel.set.find(ids) < 0) {
                this.truncate(rel.name);
                this.stopped = true;
            }
            return;
        }
        // One probe both tells a known fact and records a new one (uncapped: it is appended right away); a plan
        // whose facts are all distinct and new asks no set (fireDistinct).
        if (rel === this.unchecked) {
            this.append(rel, ids, clause, premRow, premRow.length);
            return;
        }
        if (capped ? rel.set.find(ids) >= 0 : rel.set.insert(ids, rel.count) >= 0) return;
        if (capped) {
            const key = tupleKey(ids);
            if (rel.pendingKeys.has(key)) return;
            // Memory stays bounded however many candidates a round finds (a capped 40M-fact join): past a few
            // times the room, the buffer becomes a uniform sample of room's size (reservoir sampling).
            const room = Math.max(0, cap - rel.count);
            if (!rel.sampled && rel.pending.length >= Math.max(4 * room, 100_000)) this.startSampling(rel, room);
            if (rel.sampled) {
                const j = Math.floor(this.random() * ++rel.sampled);
                if (j >= room) return;
                rel.pendingKeys.delete(tupleKey(rel.pending[j]!.ids));
                rel.pending[j] = { ids: [...ids], clause, premRow: [...premRow] };
                rel.pendingKeys.add(key);
                return;
            }
            rel.pendingKeys.add(key);
            rel.pending.push({ ids: [...ids], clause, premRow: [...premRow] });
            return;
        }
        this.append(rel, ids, clause, premRow, premRow.length);
    }

    /** Stores a fact the relation's set has just recorded (TupleSet.insert) as row `rel.count`. */
    private append(rel: Relation, ids: ArrayLike<number>, clause: number, premRow: ArrayLike<number>, premises: number): void {
        const row = rel.count++;
        for (let k = 0; k < rel.arity; k++) rel.rows.push(ids[k]!);
        rel.clause.push(clause);
        rel.premStart.push(this.poolRow.length);
        for (let p = 0; p < premises; p++) this.poolRow.push(premRow[p]!);
        const indexes = rel.indexList;
        for (let i = 0; i < indexes.length; i++) indexes[i]!.add(ids, row);
        if (clause >= 0) this.derivedTotal++;
    }
}

/** The state of one run of a plan (Evaluator.fire). */
interface JoinRun {
    plan: Plan;
    steps: CompiledStep[];
    headSlots: Int32Array;
    env: Int32Array;
    premRow: Int32Array;
    head: number[];
    /** The values of a step's arguments, for an index on several positions or a negation (read at once). */
    probe: number[];
    /** Candidate rows left in the budget, and rows examined. */
    left: number;
    examined: number;
    dry: boolean;
}

function probeOf(r: JoinRun, slots: Int32Array): number[] {
    const probe = r.probe;
    for (let i = 0; i < slots.length; i++) probe[i] = r.env[slots[i]!]!;
    probe.length = slots.length;
    return probe;
}
