/**
 * How one clause of a rules program is run (evaluate.ts): its body ordered for a nested-loop join over hash
 * indexes — the delta atom first in a semi-naive round, then whatever binds most — with each test (comparison,
 * negation) placed as soon as its variables are bound.
 */
import type { Comparison, Literal, Rule, Term } from './ir.js';
import type { Interner } from './interned.js';
import type { Index, Relation } from './eval-relation.js';

/** How one argument of an atom is matched: a constant id, a variable already bound, or a variable this atom binds. */
export type Arg =
    { k: 'const'; id: number } | { k: 'bound'; slot: number } | { k: 'free'; slot: number } | { k: 'same'; slot: number };

export type Step =
    | { k: 'atom'; rel: Relation; args: Arg[]; mask: number; range: 'full' | 'old' | 'delta'; prem: number; index?: Index }
    | { k: 'not'; rel: Relation; args: Arg[]; mask: number; sound: 'fd' | 'complete'; prem: number }
    | { k: 'compare'; op: Comparison; left: Arg; right: Arg };

export interface Plan {
    clause: number;
    steps: Step[];
    head: Arg[];
    headRel: Relation;
    slots: number;
    premises: number;
    /** The plan as the join runs it (compilePlan), made on its first run. */
    compiled?: CompiledPlan;
}

/**
 * A plan with every argument read from one slot of the join's environment: constants get slots of their own,
 * filled once (`env`), so the join's loops read typed arrays and never look at an argument's kind. Per atom
 * step, the columns a row binds (`bindCol` → `bindSlot`) and those that must agree with a slot bound earlier in
 * the same atom (`sameCol` → `sameSlot`); `argSlot` gives every argument's slot (the index probe).
 */
export interface CompiledPlan {
    env: Int32Array;
    steps: CompiledStep[];
    head: Int32Array;
}

export type CompiledStep =
    | {
          k: 'atom';
          step: Step & { k: 'atom' };
          argSlot: Int32Array;
          bindCol: Int32Array;
          bindSlot: Int32Array;
          sameCol: Int32Array;
          sameSlot: Int32Array;
          /** The slot of the one bound argument when the index is on one position (else -1). */
          keySlot: number;
      }
    | { k: 'not'; step: Step & { k: 'not' }; argSlot: Int32Array }
    | { k: 'compare'; op: Comparison; left: number; right: number; assign: boolean };

/** The plan with constants in slots of their own (see CompiledPlan). */
export function compilePlan(plan: Plan): CompiledPlan {
    const constants: number[] = [];
    const slotOf = (a: Arg) => (a.k === 'const' ? plan.slots + constants.push(a.id) - 1 : a.slot);
    const slots = (args: Arg[]) => Int32Array.from(args, slotOf);
    const steps = plan.steps.map((s): CompiledStep => {
        if (s.k === 'compare')
            return { k: 'compare', op: s.op, left: slotOf(s.left), right: slotOf(s.right), assign: s.right.k === 'free' };
        if (s.k === 'not') return { k: 'not', step: s, argSlot: slots(s.args) };
        const cols = (kind: Arg['k']) => s.args.flatMap((a, j) => (a.k === kind ? [j] : []));
        const bind = cols('free'),
            same = cols('same');
        const single = (s.mask & (s.mask - 1)) === 0 && s.mask !== 0 ? Math.log2(s.mask) : -1;
        return {
            k: 'atom',
            step: s,
            argSlot: slots(s.args),
            bindCol: Int32Array.from(bind),
            bindSlot: Int32Array.from(bind, j => slotOf(s.args[j]!)),
            sameCol: Int32Array.from(same),
            sameSlot: Int32Array.from(same, j => slotOf(s.args[j]!)),
            keySlot: single >= 0 ? slotOf(s.args[single]!) : -1,
        };
    });
    const head = slots(plan.head);
    const env = new Int32Array(plan.slots + constants.length).fill(-1);
    env.set(constants, plan.slots);
    return { env, steps, head };
}

/** What planning needs from the evaluator: the interned values and the relations by predicate name. */
export interface PlanContext {
    values: Interner;
    relations: Map<string, Relation>;
}

/** Orders a clause's body for a join: the delta atom first, then whatever binds most; tests as soon as they can run. */
export function planClause(ctx: PlanContext, rule: Rule, clause: number, deltaPos: number, inStratum: Set<Relation>): Plan {
    const slotOf = new Map<string, number>();
    const slot = (v: string) => {
        let s = slotOf.get(v);
        if (s === undefined) {
            s = slotOf.size;
            slotOf.set(v, s);
        }
        return s;
    };
    const bound = new Set<string>();
    const premOf = new Map<Literal, number>();
    for (const l of rule.body) if (l.kind === 'atom' || (l.kind === 'not' && l.sound === 'fd')) premOf.set(l, premOf.size);
    const arg = (t: Term, binding: boolean, local?: Set<string>): Arg => {
        if ('const' in t) return { k: 'const', id: ctx.values.id(t.const) };
        const s = slot(t.var);
        if (bound.has(t.var)) return { k: 'bound', slot: s };
        if (local?.has(t.var)) return { k: 'same', slot: s };
        if (binding) local?.add(t.var);
        return { k: binding ? 'free' : 'bound', slot: s };
    };
    const atomStep = (l: Literal & { kind: 'atom' }, pos: number): Step => {
        const rel = ctx.relations.get(l.atom.pred)!;
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
    if (deltaPos >= 0) {
        const i = left.findIndex(x => x.pos === deltaPos);
        const { l, pos } = take(i);
        steps.push(atomStep(l as Literal & { kind: 'atom' }, pos));
    }
    while (left.length > 0) {
        const test = left.findIndex(({ l }) => l.kind !== 'atom' && (ready(l) || isAssignment(l, bound)));
        if (test >= 0) {
            const { l } = take(test);
            if (l.kind === 'compare') {
                if (isAssignment(l, bound)) {
                    const [from, to] = 'var' in l.right && !bound.has(l.right.var) ? [l.left, l.right] : [l.right, l.left];
                    steps.push({
                        k: 'compare',
                        op: '=',
                        left: arg(from, false),
                        right: { k: 'free', slot: slot((to as { var: string }).var) },
                    });
                    bound.add((to as { var: string }).var);
                } else steps.push({ k: 'compare', op: l.op, left: arg(l.left, false), right: arg(l.right, false) });
            } else if (l.kind === 'not') {
                const rel = ctx.relations.get(l.atom.pred)!;
                const args = l.atom.args.map(t => arg(t, false));
                steps.push({
                    k: 'not',
                    rel,
                    args,
                    mask: l.sound === 'fd' ? 1 : maskOf(args),
                    sound: l.sound,
                    prem: premOf.get(l) ?? -1,
                });
            }
            continue;
        }
        let best = -1,
            bestScore = -1;
        left.forEach(({ l }, i) => {
            if (l.kind !== 'atom') return;
            const score = l.atom.args.filter(t => 'const' in t || bound.has(t.var)).length;
            if (score > bestScore) {
                best = i;
                bestScore = score;
            }
        });
        if (best < 0) throw new Error(`rule ${rule.name}: a 'not' or comparison uses a variable no atom binds`);
        const { l, pos } = take(best);
        steps.push(atomStep(l as Literal & { kind: 'atom' }, pos));
    }
    const head = rule.head.args.map(t => {
        if ('var' in t && !bound.has(t.var))
            throw new Error(`rule ${rule.name}: head variable ${t.var} is not bound by the body`);
        return arg(t, false);
    });
    return { clause, steps, head, headRel: ctx.relations.get(rule.head.pred)!, slots: slotOf.size, premises: premOf.size };
}

function maskOf(args: Arg[]): number {
    let mask = 0;
    args.forEach((a, i) => {
        if (a.k === 'const' || a.k === 'bound') mask |= 1 << i;
    });
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

/**
 * Does every run of this plan give a head fact no other run gives? True when the head's variables determine every
 * variable of the body, so that a head fact fixes each premise's tuple (one row: a relation holds a tuple once)
 * and two runs, which differ in some premise row, differ in the head. A variable is determined by the head's,
 * by an assignment from determined ones, or by an atom of a base relation whose first argument is determined and
 * whose facts hold one tuple per first value (checked on its facts, not taken from the declaration). Only for
 * plans that read complete relations (no delta or growing relation of the stratum).
 */
export function distinctHeads(plan: Plan, program: { rules: readonly Rule[] }): boolean {
    const derived = (rel: Relation) => program.rules.some(r => r.head.pred === rel.name);
    if (plan.steps.some(s => s.k === 'atom' && (s.range !== 'full' || s.rel === plan.headRel))) return false;
    const known = new Set<number>();
    for (const a of plan.head) if (a.k !== 'const') known.add(a.slot);
    const slotsOf = (args: Arg[]) => args.flatMap(a => (a.k === 'const' ? [] : [a.slot]));
    for (let changed = true; changed;) {
        changed = false;
        for (const s of plan.steps) {
            if (s.k === 'compare') {
                if (
                    s.op === '=' &&
                    s.right.k === 'free' &&
                    !known.has(s.right.slot) &&
                    (s.left.k === 'const' || known.has(s.left.slot))
                ) {
                    known.add(s.right.slot);
                    changed = true;
                }
                continue;
            }
            if (s.k !== 'atom') continue;
            const slots = slotsOf(s.args);
            if (slots.every(x => known.has(x))) continue;
            const first = s.args[0];
            if (!first || (first.k !== 'const' && !known.has(first.slot)) || derived(s.rel) || s.rel.index(1).largestKey() > 1)
                continue;
            for (const x of slots) known.add(x);
            changed = true;
        }
    }
    return plan.steps.every(s => s.k !== 'atom' || slotsOf(s.args).every(x => known.has(x)));
}
