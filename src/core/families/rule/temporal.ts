/**
 * Temporal rule probes (HalluVault's temporal operators, METHODS.md §2): a relation declaring `during (begin,
 * end)` holds each row over the years begin..end (inclusive). A rule with one parameter of such a relation
 * derives interval facts: its other arguments (the temporal fact, e.g. "Ronaldo plays for Real Madrid") hold in
 * every year of some row's interval. `temporal FORMULA` on a rule probe asks about them (MTL over years):
 *
 *   at              in year Y                                      φ(Y)
 *   next            in the year after Y                            φ(Y + 1)
 *   globally [a, b] in every year from Y + a to Y + b              ∀ t ∈ [Y+a, Y+b]: φ(t)
 *   finally [a, b]  in at least one year from Y + a to Y + b       ∃ t ∈ [Y+a, Y+b]: φ(t)
 *   nested          e.g. finally [0, 3] globally [0, 2]: the inner operator read at each year the outer one names
 *   and / or        in Y, φ and / or ψ (ψ another fact of the subject)
 *   until [a, b]    from Y, φ every year until ψ, at a year of [Y+a, Y+b]   ∃ t ∈ [Y+a, Y+b]: ψ(t) ∧ ∀ s ∈ [Y, t): φ(s)
 *   until           the same with no bound on t
 *   before          φ first held in an earlier year than ψ, ψ a fact of another subject (two different events)
 *                   min begin(φ) < min begin(ψ); asked only over a `complete` interval relation (else an unlisted
 *                   interval could begin earlier, and neither first year is determined)
 *
 * Sound: a fact with any interval of unknown begin or end is never asked about (that interval could cover any
 * year). A year no interval covers is false only when the interval relation is declared `complete`; otherwise it
 * is unknown, the formula is valued in Kleene's three-valued logic, and only formulas the data decides (certainly
 * true or certainly false) are asked.
 */
import type { ProbeDecl, SpecModel } from '../../spec/model.js';
import type { Fact, FactBase, Value } from '../../rules/ir.js';
import { KEY_SEPARATOR } from '../../rules/ir.js';
import type { PredicateInfo } from '../../rules/translate.js';
import { attributePredicate } from '../../rules/translate.js';
import { display, fillPhrase, type EntityNamer, type Premise } from './questions.js';
import { TEMPORAL_OPS, RULE_SETTINGS } from './settings.js';

export interface Interval {
    begin: number;
    end: number;
    fact: Fact;
}

/** An interval fact: the rule's arguments without the interval row, and every interval it holds in. */
export interface TemporalFact {
    args: Value[];
    intervals: Interval[];
}

/** A unary operator of a chain: `next`, or `globally` / `finally` over the window [a, b] after the year it is read at. */
type TemporalUnary = { op: 'next' } | { op: 'globally' | 'finally'; window: [number, number] };

/**
 * A temporal formula over the rule's fact φ and, for the binary operators, ψ (another fact of the same subject):
 * a chain of unary operators applied from the outside in to φ (none: φ at the year, `at`), or φ and ψ, φ or ψ,
 * φ until ψ (with a window [a, b]: ψ at some year of [Y + a, Y + b]; without: any later year). `op` names it
 * without its windows ("finally globally").
 */
export type TemporalFormula =
    | { kind: 'chain'; ops: TemporalUnary[]; op: string }
    | { kind: 'and'; op: string }
    | { kind: 'or'; op: string }
    | { kind: 'until'; window?: [number, number]; op: string }
    | { kind: 'before'; op: string };

export interface TemporalSetup {
    /** The formula's operators without their windows ("at", "globally", "finally globally", "until"). */
    op: string;
    /** `within [a, b]`: the window of globally / finally written without one. */
    window: [number, number];
    /** The formula asked; absent: the single operator `op` over `window`. */
    formula?: TemporalFormula;
    /** Which rule parameter ranges over the interval relation. */
    during: number;
    /** The interval relation is `complete`: years it does not cover are certainly false. */
    complete: boolean;
    begin: string;
    end: string;
    relation: string;
    /** Per part of the interval relation's key: false for the begin / end parts (see `rowName`). */
    keep: boolean[];
    /** The key attributes a row's name carries: premises reading them state nothing to know. */
    named: string[];
}

/** The year of a value: a whole number, or the leading year of an ISO date. */
export function yearOf(v: Value | undefined): number | undefined {
    if (typeof v === 'number') return Number.isInteger(v) ? v : undefined;
    const m = typeof v === 'string' ? /^\s*(-?\d{1,4})(?:-\d\d(?:-\d\d)?)?\s*$/.exec(v) : null;
    return m ? Number(m[1]) : undefined;
}

const SYNTAX =
    'one operator (at, next, globally, finally, until, and, or, before) or nested unary ones, each window [a, b] in years after the year it is read at, e.g. temporal "finally [0, 3] globally [0, 2]", temporal "until [0, 4]", temporal and, temporal before';

/**
 * Reads a temporal formula: `at`; a chain of `next`, `globally [a, b]`, `finally [a, b]` (outermost first; a
 * window left out is `within`, else [0, 2]); or one of `and`, `or`, `until [a, b]` alone (until without a window
 * looks at every later year). A string saying what is wrong when it is not one.
 */
export function parseTemporal(text: string, within: [number, number] | undefined): TemporalFormula | string {
    const tokens = text.match(/\[[^\]]*\]?|[^\s[\]]+/g) ?? [];
    if (tokens.length === 0) return `temporal is a formula: ${SYNTAX}.`;
    const ops: { name: string; window?: [number, number] }[] = [];
    for (let i = 0; i < tokens.length; i++) {
        const name = tokens[i]!;
        if (!(TEMPORAL_OPS as readonly string[]).includes(name)) return `'${name}' is not a temporal operator: write ${SYNTAX}.`;
        const next = tokens[i + 1];
        if (next?.startsWith('[')) {
            const m = /^\[\s*(-?\d+)\s*,\s*(-?\d+)\s*\]$/.exec(next);
            if (!m || Number(m[1]) > Number(m[2]) || Number(m[1]) < 0)
                return `${name} ${next}: a window [a, b] needs whole numbers a <= b (years after the year it is read at, from 0): write ${SYNTAX}.`;
            if (name !== 'globally' && name !== 'finally' && name !== 'until') return `${name} takes no window: write ${SYNTAX}.`;
            ops.push({ name, window: [Number(m[1]), Number(m[2])] });
            i++;
        } else ops.push({ name });
    }
    const binary = ops.find(o => o.name === 'and' || o.name === 'or' || o.name === 'until' || o.name === 'before');
    if (binary && ops.length > 1)
        return `'${binary.name}' combines the fact with another fact${binary.name === 'before' ? ' (of another subject)' : ' of the subject'}: write it alone (${SYNTAX}).`;
    if (binary?.name === 'before') return { kind: 'before', op: 'before' };
    if (binary?.name === 'until')
        return { kind: 'until', ...(binary.window ? { window: binary.window } : within ? { window: within } : {}), op: 'until' };
    if (binary?.name === 'and') return { kind: 'and', op: 'and' };
    if (binary?.name === 'or') return { kind: 'or', op: 'or' };
    if (ops.some(o => o.name === 'at')) {
        if (ops.length > 1) return `'at' stands alone (the fact at the year asked about): write ${SYNTAX}.`;
        return { kind: 'chain', ops: [], op: 'at' };
    }
    const chain: TemporalUnary[] = ops.map(o =>
        o.name === 'next' ? { op: 'next' } : { op: o.name as 'globally' | 'finally', window: o.window ?? within ?? [0, 2] },
    );
    return { kind: 'chain', ops: chain, op: ops.map(o => o.name).join(' ') };
}

/** The probe's temporal setting checked against the rule; undefined when the probe is not temporal. */
export function temporalSetup(spec: SpecModel, probe: ProbeDecl, info: PredicateInfo): TemporalSetup | string | undefined {
    const settings = RULE_SETTINGS.read(probe.settings);
    const text = settings.temporal;
    if (text === undefined) return undefined;
    const window = settings.within;
    if (window !== undefined && (window.length !== 2 || window[0]! > window[1]!)) {
        return 'within is the years of globally / finally relative to the anchor year: two whole numbers a <= b, e.g. within [0, 2].';
    }
    const within = window as [number, number] | undefined;
    const formula = parseTemporal(text, within);
    if (typeof formula === 'string') return formula;
    const withDuring = info.params
        .map((p, i) => ({ i, rel: spec.relations.find(r => r.name === p.type) }))
        .filter(x => x.rel?.during);
    if (withDuring.length !== 1) {
        return `temporal needs a rule with exactly one parameter of a relation declaring 'during (begin, end)'; ${info.name} has ${withDuring.length}. Add e.g. 's: Spell' to the rule, where Spell declares during (begin, end).`;
    }
    if (withDuring[0]!.i === 0)
        return `The first parameter of ${info.name} is what the questions are about: put the interval parameter (${info.params[0]!.name}) later.`;
    if (info.phrase === undefined) return `temporal questions read the rule's phrase: add phrase "…" to rule ${info.name}.`;
    const rel = withDuring[0]!.rel!;
    if (formula.kind === 'before' && !rel.complete) {
        return `temporal before compares the first years of two facts, which only a complete ${rel.name} determines (a spell it does not list could begin earlier): declare it 'relation ${rel.name} from … complete' if it lists every row, else ask another operator.`;
    }
    const keep = (rel.keys[0] ?? []).map(a => a !== rel.during!.begin && a !== rel.during!.end);
    const named = (rel.keys[0] ?? []).filter((_, i) => keep[i]);
    return {
        op: formula.op,
        window: within ?? [0, 2],
        formula,
        during: withDuring[0]!.i,
        complete: rel.complete ?? false,
        begin: rel.during!.begin,
        end: rel.during!.end,
        relation: rel.name,
        keep,
        named,
    };
}

/**
 * The derived facts grouped into interval facts (the interval argument dropped), each with its intervals read
 * from the interval row's begin and end. A fact with an interval of unknown begin or end is left out.
 */
export function intervalFacts(facts: readonly Fact[], setup: TemporalSetup, base: FactBase): TemporalFact[] {
    const read = (attribute: string) =>
        new Map((base.get(attributePredicate(setup.relation, attribute)) ?? []).map(([k, v]) => [String(k), yearOf(v)]));
    const begins = read(setup.begin),
        ends = read(setup.end);
    const groups = new Map<string, { args: Value[]; intervals: Interval[]; open: boolean }>();
    for (const f of facts) {
        const args = f.args.filter((_, i) => i !== setup.during);
        const key = args.map(String).join('\u0000');
        let g = groups.get(key);
        if (!g) groups.set(key, (g = { args, intervals: [], open: false }));
        const row = String(f.args[setup.during]);
        const begin = begins.get(row),
            end = ends.get(row);
        if (begin === undefined || end === undefined || end < begin) g.open = true;
        else g.intervals.push({ begin, end, fact: f });
    }
    return [...groups.values()]
        .filter(g => !g.open && g.intervals.length > 0)
        .map(({ args, intervals }) => ({ args, intervals: intervals.sort((a, b) => a.begin - b.begin) }));
}

const holdsAt = (f: TemporalFact, year: number) => f.intervals.some(i => i.begin <= year && year <= i.end);

/** The first year a fact holds: its earliest interval's begin (intervals are sorted by begin). */
const firstYear = (f: TemporalFact) => f.intervals[0]!.begin;

/** The formula of a setup (a setup made before formulas: its single operator, globally / finally over its window, until unbounded). */
function formulaOf(setup: TemporalSetup): TemporalFormula {
    if (setup.formula) return setup.formula;
    const f = parseTemporal(setup.op, setup.op === 'until' ? undefined : setup.window);
    if (typeof f === 'string') throw new Error(f);
    return f;
}

/**
 * The value of the formula at anchor year `y`, three-valued: 1 true, 0 false, 0.5 unknown. A year an interval
 * covers is true; one no interval covers is false only when the interval relation is complete, else unknown
 * (the data may lack a spell). And is the minimum, or the maximum (Kleene's logic), so a value of 0 or 1 holds
 * however the missing spells would fill the gaps.
 */
export function value(setup: TemporalSetup, f: TemporalFact, y: number, other?: TemporalFact): number {
    const formula = formulaOf(setup);
    const atom = (x: TemporalFact, t: number) => (holdsAt(x, t) ? 1 : setup.complete ? 0 : 0.5);
    switch (formula.kind) {
        case 'chain':
            return chainValue(formula.ops, 0, y, t => atom(f, t));
        case 'and':
            return other ? Math.min(atom(f, y), atom(other, y)) : 0;
        case 'or':
            return other ? Math.max(atom(f, y), atom(other, y)) : 0;
        // Only a complete relation gives a fact's first year (temporalSetup refuses `before` on any other).
        case 'before':
            return other ? (setup.complete ? (firstYear(f) < firstYear(other) ? 1 : 0) : 0.5) : 0;
        case 'until': {
            if (!other) return 0;
            // Without a window ψ may come any year; after its last interval every year reads alike, so one more
            // year stands for all the later ones.
            const [a, b] = formula.window ?? [0, Math.max(y, Math.max(...other.intervals.map(i => i.end)) + 1) - y];
            let best = 0,
                before = 1;
            for (let t = y; t <= y + b; t++) {
                if (t >= y + a) best = Math.max(best, Math.min(atom(other, t), before));
                before = Math.min(before, atom(f, t));
                if (best === 1 || before === 0) break;
            }
            return best;
        }
    }
}

function chainValue(ops: readonly TemporalUnary[], i: number, t: number, atom: (t: number) => number): number {
    const op = ops[i];
    if (!op) return atom(t);
    if (op.op === 'next') return chainValue(ops, i + 1, t + 1, atom);
    let out = op.op === 'globally' ? 1 : 0;
    for (let k = op.window[0]; k <= op.window[1]; k++) {
        const v = chainValue(ops, i + 1, t + k, atom);
        out = op.op === 'globally' ? Math.min(out, v) : Math.max(out, v);
    }
    return out;
}

/** The truth of the formula at anchor year `y` (for the binary operators, `other` is ψ): its value is 1. */
export function truth(setup: TemporalSetup, f: TemporalFact, y: number, other?: TemporalFact): boolean {
    return value(setup, f, y, other) === 1;
}

function range(from: number, to: number): number[] {
    return Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => from + i);
}

/** How far after the anchor year the formula reads (a chain's windows and nexts added up; until's window). */
function reach(formula: TemporalFormula): number {
    if (formula.kind === 'chain') return formula.ops.reduce((n, o) => n + (o.op === 'next' ? 1 : o.window[1]), 0);
    return formula.kind === 'until' ? (formula.window?.[1] ?? 0) : 0;
}

/** The years worth asking about: around the fact's intervals (two years either side, more before for a long reach). */
function anchorYears(f: TemporalFact, formula?: TemporalFormula): number[] {
    const first = Math.min(...f.intervals.map(i => i.begin)),
        last = Math.max(...f.intervals.map(i => i.end));
    return range(first - Math.max(2, formula ? reach(formula) : 0), last + 2);
}

export interface TemporalQuestion {
    year: number;
    gold: 'yes' | 'no';
    basic: string;
    negated: string;
    other?: TemporalFact;
    years: [number, number];
    /** The year of ψ whose interval the question rests on (default: the first of `years`). */
    otherYear?: number;
}

/**
 * One question about an interval fact, its anchor year (and for and / or / until, the other fact of the subject)
 * drawn with `random` among the candidates whose value the data decides: on complete data any year near the
 * intervals, else those where the formula is certainly true or false. Undefined when no sound question exists
 * (e.g. until with no later fact of the subject). `before` draws ψ among `otherSubjects` (the facts of every
 * other subject) and reads no anchor year: its question rests on both facts' first years.
 */
export function temporalQuestion(
    setup: TemporalSetup,
    info: PredicateInfo,
    f: TemporalFact,
    subjectFacts: readonly TemporalFact[],
    random: () => number,
    name?: EntityNamer,
    otherSubjects: readonly TemporalFact[] = [],
): TemporalQuestion | undefined {
    const formula = formulaOf(setup);
    // The phrase reads the rule's arguments; the interval argument is put back as any of the fact's rows.
    const sentence = (t: TemporalFact) => fillPhrase(info.phrase!, info, t.intervals[0]!.fact.args, name);
    if (formula.kind === 'before') {
        const others = otherSubjects.filter(o => o.args[0] !== f.args[0]);
        if (others.length === 0 || !setup.complete) return undefined;
        const o = others[Math.floor(random() * others.length)]!;
        const [a, b] = [firstYear(f), firstYear(o)];
        const claim = `the first year in which ${sentence(f)} is earlier than the first year in which ${sentence(o)}`;
        return {
            year: a,
            otherYear: b,
            years: [Math.min(a, b), Math.max(a, b)],
            other: o,
            gold: value(setup, f, a, o) === 1 ? 'yes' : 'no',
            basic: `Is it true that ${claim}?`,
            negated: `It is not true that ${claim}. Please judge the truth of this statement.`,
        };
    }
    const candidates: { year: number; other?: TemporalFact; value: number }[] = [];
    for (const year of anchorYears(f, formula)) {
        if (formula.kind === 'until') {
            // ψ: another fact of the subject that begins after φ's first year (the next spell, a later club …).
            for (const o of subjectFacts)
                if (o !== f && o.intervals[0]!.begin > f.intervals[0]!.begin && holdsAt(f, year))
                    candidates.push({ year, other: o, value: value(setup, f, year, o) });
        } else if (formula.kind === 'and' || formula.kind === 'or') {
            for (const o of subjectFacts) if (o !== f) candidates.push({ year, other: o, value: value(setup, f, year, o) });
        } else candidates.push({ year, value: value(setup, f, year) });
    }
    const sound = candidates.filter(c => c.value !== 0.5);
    if (sound.length === 0) return undefined;
    const c = sound[Math.floor(random() * sound.length)]!;
    const s = sentence(f);
    const { claim, years } = wording(formula, c.year, s, c.other ? sentence(c.other) : '');
    const q: TemporalQuestion = {
        year: c.year,
        gold: c.value === 1 ? 'yes' : 'no',
        years,
        basic: `Is it true that ${claim}?`,
        negated: `It is not true that ${claim}. Please judge the truth of this statement.`,
    };
    if (c.other) q.other = c.other;
    return q;
}

/** "that year", "1 year later", "2 years later": an inner operator's years, counted from the year the outer one reads. */
const later = (k: number) => (k === 0 ? 'that year' : `${k} year${k === 1 ? '' : 's'} later`);

/** The claim a formula makes at year `y` about sentence `s` (and `other`), and the span of years it reads. */
function wording(
    formula: Exclude<TemporalFormula, { kind: 'before' }>,
    y: number,
    s: string,
    other: string,
): { claim: string; years: [number, number] } {
    if (formula.kind === 'and') return { claim: `in ${y}, ${s} and ${other}`, years: [y, y] };
    if (formula.kind === 'or') return { claim: `in ${y}, ${s} or ${other} (or both)`, years: [y, y] };
    if (formula.kind === 'until') {
        const w = formula.window;
        return w
            ? {
                  claim: `from ${y}, ${s} every year until a year from ${y + w[0]} to ${y + w[1]} in which ${other}`,
                  years: [y + w[0], y + w[1]],
              }
            : { claim: `from ${y}, ${s} until ${other}`, years: [y, y] };
    }
    if (formula.ops.length === 0) return { claim: `in ${y}, ${s}`, years: [y, y] };
    let low = y,
        high = y;
    const parts = formula.ops.map((o, i) => {
        const outer = i === 0;
        if (o.op === 'next') {
            low += 1;
            high += 1;
            return outer ? `in the year after ${y}` : 'in the year after that';
        }
        const [a, b] = o.window;
        const from = outer ? String(y + a) : later(a),
            to = outer ? String(y + b) : later(b);
        low += a;
        high += b;
        return `${o.op === 'globally' ? 'in every year' : 'in at least one year'} from ${from} to ${to}`;
    });
    return { claim: `${parts.join(', ')}, ${s}`, years: [low, high] };
}

/** The interval (one of the fact's) the question's year falls in or nearest to: its row's proof is shown. */
export function nearestInterval(f: TemporalFact, year: number): Interval {
    const distance = (i: Interval) => (year < i.begin ? i.begin - year : year > i.end ? year - i.end : 0);
    return f.intervals.reduce((best, i) => (distance(i) < distance(best) ? i : best));
}

/**
 * How an interval row is named in premises: its key without the begin / end parts ("Cristiano Ronaldo (Manchester
 * United)", not "… 2003)"), so a year the rationale states is read as a value, never as part of the name.
 */
export function rowName(setup: TemporalSetup, row: Value): string {
    const parts = String(row).split(KEY_SEPARATOR);
    return display(parts.filter((_, i) => setup.keep[i] ?? true).join(KEY_SEPARATOR));
}

/** The interval row's begin and end as premises the rationale should state (as years). */
export function intervalPremises(
    setup: TemporalSetup,
    i: Interval,
    attributeOf: (pred: string) => { relation: string; attribute: string; label?: string } | undefined,
): Premise[] {
    const row = i.fact.args[setup.during]!;
    return (
        [
            [setup.begin, i.begin],
            [setup.end, i.end],
        ] as const
    ).map(([attribute, year]) => {
        const pred = attributePredicate(setup.relation, attribute);
        const at = attributeOf(pred);
        return {
            pred,
            relation: setup.relation,
            attribute,
            label: at?.label ?? attribute,
            subject: rowName(setup, row),
            value: String(year),
            nodes: [`node:${String(row)}`, `node:${year}`],
            spell: [i.begin, i.end],
        };
    });
}
