/**
 * Temporal rule probes (HalluVault's temporal operators, METHODS.md §2): a relation declaring `during (begin,
 * end)` holds each row over the years begin..end (inclusive). A rule with one parameter of such a relation
 * derives interval facts: its other arguments (the temporal fact, e.g. "Ronaldo plays for Real Madrid") hold in
 * every year of some row's interval. `temporal OP` on a rule probe asks about them:
 *
 *   at        in year Y                                     holds(Y)
 *   next      in the year after Y                           holds(Y + 1)
 *   globally  in every year from Y + a to Y + b             ∀ t ∈ [Y+a, Y+b]: holds(t)    (`within [a, b]`)
 *   finally   in at least one year from Y + a to Y + b      ∃ t ∈ [Y+a, Y+b]: holds(t)
 *   until     from Y, φ until ψ (ψ another fact of the subject)   ∃ t ≥ Y: ψ(t) ∧ ∀ s ∈ [Y, t): φ(s)
 *
 * Sound: a fact with any interval of unknown begin or end is never asked about (that interval could cover any
 * year), and an answer "no" (a year the intervals do not cover) is only gold when the interval relation is
 * declared `complete` — else the data may lack a spell, and only years the data shows true are asked.
 */
import type { ProbeDecl, SpecModel } from '../../spec/model.js';
import type { Fact, FactBase, Value } from '../../rules/ir.js';
import { KEY_SEPARATOR } from '../../rules/ir.js';
import type { PredicateInfo } from '../../rules/translate.js';
import { attributePredicate } from '../../rules/translate.js';
import { display, fill, type Premise } from './questions.js';

export const TEMPORAL_OPS = ['at', 'next', 'globally', 'finally', 'until'] as const;
export type TemporalOp = typeof TEMPORAL_OPS[number];

export interface Interval { begin: number; end: number; fact: Fact }

/** An interval fact: the rule's arguments without the interval row, and every interval it holds in. */
export interface TemporalFact { args: Value[]; intervals: Interval[] }

export interface TemporalSetup {
    op: TemporalOp;
    /** Which rule parameter ranges over the interval relation. */
    during: number;
    /** `within [a, b]`: the window of globally / finally, relative to the anchor year. */
    window: [number, number];
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

/** The probe's temporal setting checked against the rule; undefined when the probe is not temporal. */
export function temporalSetup(spec: SpecModel, probe: ProbeDecl, info: PredicateInfo): TemporalSetup | string | undefined {
    const op = probe.settings.temporal;
    if (op === undefined) return undefined;
    if (typeof op !== 'string' || !(TEMPORAL_OPS as readonly string[]).includes(op)) return `temporal is one of ${TEMPORAL_OPS.join(', ')}, e.g. temporal at.`;
    const withDuring = info.params.map((p, i) => ({ i, rel: spec.relations.find(r => r.name === p.type) })).filter(x => x.rel?.during);
    if (withDuring.length !== 1) {
        return `temporal needs a rule with exactly one parameter of a relation declaring 'during (begin, end)'; ${info.name} has ${withDuring.length}. Add e.g. 's: Spell' to the rule, where Spell declares during (begin, end).`;
    }
    if (withDuring[0]!.i === 0) return `The first parameter of ${info.name} is what the questions are about: put the interval parameter (${info.params[0]!.name}) later.`;
    const window = probe.settings.within ?? [0, 2];
    if (!Array.isArray(window) || window.length !== 2 || !window.every(n => typeof n === 'number' && Number.isInteger(n)) || (window[0] as number) > (window[1] as number)) {
        return 'within is the years of globally / finally relative to the anchor year: two whole numbers a <= b, e.g. within [0, 2].';
    }
    if (info.phrase === undefined) return `temporal questions read the rule's phrase: add phrase "…" to rule ${info.name}.`;
    const rel = withDuring[0]!.rel!;
    const keep = (rel.keys[0] ?? []).map(a => a !== rel.during!.begin && a !== rel.during!.end);
    const named = (rel.keys[0] ?? []).filter((_, i) => keep[i]);
    return { op: op as TemporalOp, during: withDuring[0]!.i, window: [window[0] as number, window[1] as number], complete: rel.complete ?? false, begin: rel.during!.begin, end: rel.during!.end, relation: rel.name, keep, named };
}

/**
 * The derived facts grouped into interval facts (the interval argument dropped), each with its intervals read
 * from the interval row's begin and end. A fact with an interval of unknown begin or end is left out.
 */
export function intervalFacts(facts: readonly Fact[], setup: TemporalSetup, base: FactBase): TemporalFact[] {
    const read = (attribute: string) => new Map((base.get(attributePredicate(setup.relation, attribute)) ?? []).map(([k, v]) => [String(k), yearOf(v)]));
    const begins = read(setup.begin), ends = read(setup.end);
    const groups = new Map<string, { args: Value[]; intervals: Interval[]; open: boolean }>();
    for (const f of facts) {
        const args = f.args.filter((_, i) => i !== setup.during);
        const key = args.map(String).join('\u0000');
        let g = groups.get(key);
        if (!g) groups.set(key, (g = { args, intervals: [], open: false }));
        const row = String(f.args[setup.during]);
        const begin = begins.get(row), end = ends.get(row);
        if (begin === undefined || end === undefined || end < begin) g.open = true;
        else g.intervals.push({ begin, end, fact: f });
    }
    return [...groups.values()].filter(g => !g.open && g.intervals.length > 0).map(({ args, intervals }) => ({ args, intervals: intervals.sort((a, b) => a.begin - b.begin) }));
}

export const holdsAt = (f: TemporalFact, year: number) => f.intervals.some(i => i.begin <= year && year <= i.end);

/** The truth of an operator at anchor year `y` (for until, `other` is ψ). */
export function truth(setup: TemporalSetup, f: TemporalFact, y: number, other?: TemporalFact): boolean {
    const [a, b] = setup.window;
    switch (setup.op) {
        case 'at': return holdsAt(f, y);
        case 'next': return holdsAt(f, y + 1);
        case 'globally': return range(y + a, y + b).every(t => holdsAt(f, t));
        case 'finally': return range(y + a, y + b).some(t => holdsAt(f, t));
        case 'until': {
            if (!other) return false;
            const last = Math.max(...other.intervals.map(i => i.end));
            for (let t = y; t <= last; t++) {
                if (holdsAt(other, t)) return true;
                if (!holdsAt(f, t)) return false;
            }
            return false;
        }
    }
}

function range(from: number, to: number): number[] {
    return Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => from + i);
}

/** The years worth asking about: around the fact's intervals (two years either side). */
export function anchorYears(f: TemporalFact): number[] {
    const first = Math.min(...f.intervals.map(i => i.begin)), last = Math.max(...f.intervals.map(i => i.end));
    return range(first - 2, last + 2);
}

export interface TemporalQuestion { year: number; gold: 'yes' | 'no'; basic: string; negated: string; other?: TemporalFact; years: [number, number] }

/**
 * One question about an interval fact, its anchor year drawn with `random`: any year near the intervals when the
 * relation is complete (gold from the data either way), else only years the data shows true. Undefined when
 * no sound question exists (e.g. until with no later fact of the subject).
 */
export function temporalQuestion(setup: TemporalSetup, info: PredicateInfo, f: TemporalFact, subjectFacts: readonly TemporalFact[], random: () => number): TemporalQuestion | undefined {
    // The phrase reads the rule's arguments; the interval argument is put back as any of the fact's rows.
    const sentence = (t: TemporalFact) => fill(info.phrase!, info, t.intervals[0]!.fact.args);
    const candidates: { year: number; other?: TemporalFact; gold: boolean }[] = [];
    for (const year of anchorYears(f)) {
        if (setup.op === 'until') {
            // ψ: another fact of the subject that begins after φ's first year (the next spell, a later club …).
            for (const o of subjectFacts) if (o !== f && o.intervals[0]!.begin > f.intervals[0]!.begin && holdsAt(f, year)) candidates.push({ year, other: o, gold: truth(setup, f, year, o) });
        } else candidates.push({ year, gold: truth(setup, f, year) });
    }
    const sound = candidates.filter(c => c.gold || setup.complete);
    if (sound.length === 0) return undefined;
    const c = sound[Math.floor(random() * sound.length)]!;
    const [a, b] = setup.window;
    const s = sentence(f);
    const [when, years]: [string, [number, number]] = setup.op === 'at' ? [`in ${c.year}`, [c.year, c.year]]
        : setup.op === 'next' ? [`in the year after ${c.year}`, [c.year + 1, c.year + 1]]
            : setup.op === 'globally' ? [`in every year from ${c.year + a} to ${c.year + b}`, [c.year + a, c.year + b]]
                : setup.op === 'finally' ? [`in at least one year from ${c.year + a} to ${c.year + b}`, [c.year + a, c.year + b]]
                    : [`from ${c.year}`, [c.year, c.year]];
    const claim = setup.op === 'until' ? `${when}, ${s} until ${sentence(c.other!)}` : `${when}, ${s}`;
    const q: TemporalQuestion = {
        year: c.year, gold: c.gold ? 'yes' : 'no', years,
        basic: `Is it true that ${claim}?`,
        negated: `It is not true that ${claim}. Please judge the truth of this statement.`,
    };
    if (c.other) q.other = c.other;
    return q;
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
export function intervalPremises(setup: TemporalSetup, i: Interval, attributeOf: (pred: string) => { relation: string; attribute: string; label?: string } | undefined): Premise[] {
    const row = i.fact.args[setup.during]!;
    return ([[setup.begin, i.begin], [setup.end, i.end]] as const).map(([attribute, year]) => {
        const pred = attributePredicate(setup.relation, attribute);
        const at = attributeOf(pred);
        return { pred, relation: setup.relation, attribute, label: at?.label ?? attribute, subject: rowName(setup, row), value: String(year), nodes: [`node:${String(row)}`, `node:${year}`] };
    });
}
