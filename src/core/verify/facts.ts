/**
 * One fact, every family (docs/facts.md): the verdict per fact and model. Each question records the facts it tests
 * (`Question.facts`); each verdict on it becomes an observation of every such fact — right, wrong (with the value the
 * answer gave, when it gave one) or abstained — read from the fact's role alone (an option, a hop, a shown value, a
 * claim's edge), never from a family's name. Per fact and model the families' verdicts stand side by side and give
 * the fact its class; per model the share of each class with Wilson intervals; per family pair how often they agree.
 * One pass over the verdicts, maps keyed by fact and model: 100,000 answers of 20,000 facts in a fraction of a
 * second (`npm run bench -- facts`).
 */
import type { FactRef, Question } from '../probes/question.js';
import type { Verdict } from './types.js';
import { figure, type Figure } from './figures.js';

/** What a model does with a fact, by the families that asked it (docs/facts.md, "Classes"). */
export type FactClass = 'knows' | 'fragile' | 'believes' | 'yields' | 'abstains' | 'not-enough-forms' | 'does-not-know';

/** In the order reports show them. */
export const FACT_CLASSES: readonly FactClass[] = [
    'knows',
    'fragile',
    'believes',
    'yields',
    'does-not-know',
    'abstains',
    'not-enough-forms',
];

export const FACT_CLASS_TEXT: Record<FactClass, string> = {
    knows: 'right in every family that asked',
    fragile: 'right in some families, wrong or abstaining in others',
    believes: 'the same wrong value in two or more families',
    yields: 'right without a passage, follows a swapped one',
    'does-not-know': 'wrong in every family that answered, no wrong value shared',
    abstains: 'abstained in every family',
    'not-enough-forms': 'asked in fewer than two families',
};

type Outcome = 'right' | 'wrong' | 'abstain';

/** One family's verdict on one fact for one model, over all its answers (phrasings, samples, variants). */
interface FamilyFactVerdict {
    verdict: 'right' | 'wrong' | 'abstained';
    /** The value its answers gave: the data's when right, the wrong value most given when wrong (when one was read). */
    value?: string;
    /** Answers counted (swapped passages apart). */
    answers: number;
    /** Its questions with this fact swapped in the passage: how many, and how many answers followed the swap. */
    swapped?: { answers: number; followed: number };
}

/** The fact (its id, name and the data's value), then one model's verdict on it. */
export interface FactVerdict extends Pick<FactRef, 'id' | 'label' | 'relation' | 'key' | 'attribute' | 'value'> {
    model: string;
    class: FactClass;
    /** By family kind, in the order they were first seen. */
    families: Record<string, FamilyFactVerdict>;
    /** `believes`: the wrong value (as the first of its families, in the order kinds were first seen, wrote it), and the families that gave it. */
    believed?: { value: string; families: string[] };
    /** `fragile`: which families were right and which were not. */
    fragile?: { right: string[]; other: string[] };
}

interface FactSummary {
    model: string;
    facts: number;
    shares: Record<FactClass, Figure>;
}

/** How often two families' verdicts on the same fact agree (both right or both wrong), for one model. */
interface PairAgreement {
    model: string;
    a: string;
    b: string;
    agreement: Figure;
}

/** Per model, the family whose verdicts agree least with the others' (pooled over its pairs). */
interface Disagreeing {
    model: string;
    kind: string;
    agreement: Figure;
}

export interface FactReport {
    facts: FactVerdict[];
    summary: FactSummary[];
    pairs: PairAgreement[];
    disagreesMost: Disagreeing[];
}

const ABSTAINING = new Set(['unsure', 'unparseable', 'dont_know']);

/** The observation of one fact in one verdict: undefined when the answer says nothing about it. */
export interface Observation {
    outcome?: Outcome;
    value?: string;
    followed?: boolean;
}

/** Values compared for "the same wrong value": case, spacing and surrounding punctuation aside. */
const sameValue = (v: string) =>
    v
        .toLowerCase()
        .replace(/\s+/g, ' ')
        .replace(/^[\s"'.,;:]+|[\s"'.,;:]+$/g, '');

/** A value as reports show it: as the answer wrote it, spacing and surrounding punctuation aside. */
const shownValue = (v: string) => v.replace(/\s+/g, ' ').replace(/^[\s"'.,;:]+|[\s"'.,;:]+$/g, '');

/** The other value the answer's rationale states for this fact's attribute (a contradicted keyword), if any. */
function conflictValue(ref: FactRef, v: Verdict): string | undefined {
    for (const h of v.hops ?? [])
        for (const k of h.keywords)
            if (k.status === 'contradicted' && k.relation === ref.relation && k.attribute === ref.attribute && k.conflict)
                return k.conflict.value;
    return undefined;
}

/** What one verdict says about one of its question's facts (docs/facts.md, "Reading an answer per fact"). */
export function observe(ref: FactRef, q: Pick<Question, 'gold'>, v: Verdict): Observation | undefined {
    const correct = v.correct;
    if (ABSTAINING.has(v.answer)) return ref.passage === 'swapped' ? undefined : ABSTAIN;
    // A passage with this fact swapped: following it is what the question asks; it only tells whether the model yields.
    if (ref.passage === 'swapped') return correct ? FOLLOWED : NOT_FOLLOWED;
    if (ref.role === 'claim') {
        // Claims are checked against the data's edges: a supported claim on this fact's edge states it, a contradicted
        // one (its edge is the conflicting fact: this one) states something else; a fact no claim names is not observed.
        let seen: Observation | undefined;
        for (const c of v.claims ?? []) {
            if (c.edge !== ref.edge) continue;
            if (c.status === 'contradicted' || (c.status === 'supported' && c.negated)) return WRONG;
            if (c.status === 'supported') seen = RIGHT;
        }
        return seen;
    }
    if (ref.option !== undefined && (v.answer === 'option' || v.answer === 'none')) {
        const picked = v.answer === 'option' ? v.option : undefined;
        if (ref.role === 'shown') return picked === ref.option ? RIGHT : wrongWith(ref.shown);
        return picked === ref.option ? WRONG : RIGHT;
    }
    if (ref.role === 'hop' || ref.role === 'premise') {
        const at = ref.hop ?? 0;
        const hop = v.hops?.find(h => h.hop === at);
        if (hop?.status === 'contradicted') return wrongWith(conflictValue(ref, v));
        if (ref.role === 'premise') return hop?.status === 'found' ? RIGHT : undefined;
        if (correct) return RIGHT;
        if (v.failedHop === undefined || v.failedHop === at) return wrongWith(conflictValue(ref, v));
        return at < v.failedHop ? RIGHT : undefined;
    }
    if (correct) return RIGHT;
    const short = typeof q.gold === 'object' ? (v.modelRead?.text ?? v.read?.text) : undefined;
    return wrongWith(ref.shown ?? conflictValue(ref, v) ?? short);
}

// The observations without a value are shared (the step reads 100,000s of them).
const RIGHT: Observation = Object.freeze({ outcome: 'right' });
const WRONG: Observation = Object.freeze({ outcome: 'wrong' });
const ABSTAIN: Observation = Object.freeze({ outcome: 'abstain' });
const FOLLOWED: Observation = Object.freeze({ followed: true });
const NOT_FOLLOWED: Observation = Object.freeze({ followed: false });
const wrongWith = (value: string | undefined): Observation =>
    value === undefined || value.trim() === '' ? WRONG : { outcome: 'wrong', value };

/** The tallies of one fact × family (a slot), side by side in one typed array per model: no object per answer. */
const RIGHT_N = 0,
    WRONG_N = 1,
    ABSTAIN_N = 2,
    RIGHT_CLOSED = 3,
    SWAPPED = 4,
    FOLLOWED_N = 5,
    FIELDS = 6;

/** One model's tallies: `FIELDS` counters per fact × kind, and the wrong values read, by slot. */
interface ModelAcc {
    counts: Int32Array;
    values: (ValueCount[] | undefined)[];
}

/** A wrong value read for a slot: normalized (`sameValue`), as first written, and how many answers gave it. */
interface ValueCount {
    norm: string;
    text: string;
    n: number;
}

/**
 * The per-fact step: every verdict of every question that records facts, read per fact; each fact's class per model;
 * the shares per model; the family pairs' agreement. Questions without facts (stored before facts were recorded, or
 * a family that tests none) are passed over. Facts and kinds are numbered once, from the questions; the answers only
 * add to counters (`npm run bench -- facts`).
 */
export function factVerdicts(
    questions: Iterable<Pick<Question, 'id' | 'kind' | 'gold' | 'facts'>>,
    verdicts: Iterable<Verdict>,
): FactReport {
    // A question by its number (`byId`): the question, its family's number, where its facts' numbers start.
    const byId = new Map<string, number>();
    const asked: Pick<Question, 'id' | 'kind' | 'gold' | 'facts'>[] = [],
        kindOf: number[] = [],
        startOf: number[] = [];
    const kinds: string[] = [];
    const kindIndex = new Map<string, number>();
    const factIndex = new Map<string, number>();
    // Per fact, the ref it is reported as: the fact as the data holds it (a falsified option's and a rule premise's
    // refs carry the same id and value; a `shown` one is replaced by any other).
    const refs: FactRef[] = [];
    // Every question's facts' numbers, one after the other (a question's from its `start`).
    const factsOf: number[] = [];
    for (const q of questions) {
        if (!q.facts?.length) continue;
        let k = kindIndex.get(q.kind);
        if (k === undefined) {
            k = kinds.length;
            kinds.push(q.kind);
            kindIndex.set(q.kind, k);
        }
        const start = factsOf.length;
        for (let i = 0; i < q.facts.length; i++) {
            const ref = q.facts[i]!;
            let f = factIndex.get(ref.id);
            if (f === undefined) {
                f = refs.length;
                refs.push(ref);
                factIndex.set(ref.id, f);
            } else if (refs[f]!.role === 'shown' && ref.role !== 'shown') refs[f] = ref;
            factsOf.push(f);
        }
        byId.set(q.id, asked.length);
        asked.push(q);
        kindOf.push(k);
        startOf.push(start);
    }
    const K = kinds.length,
        F = refs.length;
    const models = new Map<string, ModelAcc>();
    let lastModel: string | undefined, acc: ModelAcc | undefined;
    const norms = new Map<string, string>();
    for (const v of verdicts) {
        const n = byId.get(v.questionId);
        if (n === undefined) continue;
        if (v.model !== lastModel) {
            lastModel = v.model;
            acc = models.get(v.model);
            if (!acc) {
                acc = { counts: new Int32Array(F * K * FIELDS), values: new Array<ValueCount[] | undefined>(F * K) };
                models.set(v.model, acc);
            }
        }
        const q = asked[n]!,
            kind = kindOf[n]!,
            start = startOf[n]!;
        const counts = acc!.counts;
        const qFacts = q.facts!;
        for (let i = 0; i < qFacts.length; i++) {
            const ref = qFacts[i]!;
            const o = observe(ref, q, v);
            if (!o) continue;
            const slot = factsOf[start + i]! * K + kind,
                at = slot * FIELDS;
            if (o.followed !== undefined) {
                counts[at + SWAPPED]!++;
                if (o.followed) counts[at + FOLLOWED_N]!++;
                continue;
            }
            if (o.outcome === 'right') {
                counts[at + RIGHT_N]!++;
                if (ref.passage !== 'given') counts[at + RIGHT_CLOSED]!++;
            } else if (o.outcome === 'abstain') counts[at + ABSTAIN_N]!++;
            else {
                counts[at + WRONG_N]!++;
                if (o.value !== undefined) {
                    // Answers repeat their values: each is normalized once.
                    let s = norms.get(o.value);
                    if (s === undefined) norms.set(o.value, (s = sameValue(o.value)));
                    // A slot's wrong values are few: a small list, searched.
                    const values = (acc!.values[slot] ??= []);
                    const e = values.find(x => x.norm === s);
                    if (e) e.n++;
                    else values.push({ norm: s, text: shownValue(o.value), n: 1 });
                }
            }
        }
    }
    // Reports list the facts by model, then label: the labels are sorted once for every model.
    const order = Array.from({ length: F }, (_, i) => i).sort((a, b) =>
        refs[a]!.label < refs[b]!.label ? -1 : refs[a]!.label > refs[b]!.label ? 1 : 0,
    );
    const facts: FactVerdict[] = [];
    const summary: FactSummary[] = [];
    const pairs: PairAgreement[] = [];
    const disagreesMost: Disagreeing[] = [];
    for (const [model, acc] of [...models].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))) {
        const counts = Object.fromEntries(FACT_CLASSES.map(c => [c, 0])) as Record<FactClass, number>;
        // Two families agree on a fact when both were right or both wrong (abstentions say neither).
        const agree = new Int32Array(K * K),
            asked = new Int32Array(K * K);
        const said = new Int8Array(K);
        const made = new Map<number, string[]>();
        const start = facts.length;
        for (const f of order) {
            const fv = classify(refs[f]!, f, model, acc, kinds, said, made);
            if (!fv) continue;
            counts[fv.class]++;
            facts.push(fv);
            for (let a = 0; a < K; a++) {
                if (said[a] === 0) continue;
                for (let b = a + 1; b < K; b++) {
                    if (said[b] === 0) continue;
                    asked[a * K + b]++;
                    if (said[a] === said[b]) agree[a * K + b]++;
                }
            }
        }
        const n = facts.length - start;
        summary.push({
            model,
            facts: n,
            shares: Object.fromEntries(FACT_CLASSES.map(c => [c, figure(counts[c], n)])) as Record<FactClass, Figure>,
        });
        const pooled = kinds.map(() => ({ agree: 0, n: 0 }));
        const modelPairs: PairAgreement[] = [];
        for (let a = 0; a < K; a++)
            for (let b = a + 1; b < K; b++) {
                const m = asked[a * K + b]!;
                if (m === 0) continue;
                const g = agree[a * K + b]!;
                const [x, y] = kinds[a]! < kinds[b]! ? [a, b] : [b, a];
                modelPairs.push({ model, a: kinds[x]!, b: kinds[y]!, agreement: figure(g, m) });
                for (const k of [a, b]) {
                    pooled[k]!.agree += g;
                    pooled[k]!.n += m;
                }
            }
        pairs.push(...modelPairs.sort((p, q) => (p.a + '\u0000' + p.b < q.a + '\u0000' + q.b ? -1 : 1)));
        const worst = pooled
            .map((p, k) => ({ k, ...p }))
            .filter(p => p.n > 0)
            .sort((x, y) => x.agree / x.n - y.agree / y.n || (kinds[x.k]! < kinds[y.k]! ? -1 : 1))[0];
        if (worst) disagreesMost.push({ model, kind: kinds[worst.k]!, agreement: figure(worst.agree, worst.n) });
    }
    return { facts, summary, pairs, disagreesMost };
}

/** The names of the kinds whose bit is set in `mask`, in kind order; one list per mask (`made`), shared by the facts. */
function kindsOf(mask: number, kinds: readonly string[], made: Map<number, string[]>): string[] {
    let out = made.get(mask);
    if (out) return out;
    out = [];
    for (let k = 0; k < kinds.length; k++) if (mask & (1 << k)) out.push(kinds[k]!);
    made.set(mask, out);
    return out;
}

/**
 * Fact `f`'s class for one model (undefined when no answer of the model observed it); `said` gets each kind's
 * verdict (1 right, 2 wrong, 0 neither) for the pair tallies.
 */
function classify(
    ref: FactRef,
    f: number,
    model: string,
    acc: ModelAcc,
    kinds: readonly string[],
    said: Int8Array,
    made: Map<number, string[]>,
): FactVerdict | undefined {
    const K = kinds.length,
        c = acc.counts;
    let any = false;
    for (let k = 0, at = f * K * FIELDS; k < K; k++, at += FIELDS)
        if (c[at + RIGHT_N]! + c[at + WRONG_N]! + c[at + ABSTAIN_N]! + c[at + SWAPPED]! > 0) {
            any = true;
            break;
        }
    if (!any) return undefined;
    said.fill(0);
    const families: Record<string, FamilyFactVerdict> = {};
    // Bit k: kind k was right, wrong, or not right (wrong or abstaining); kinds are few (at most 31).
    let right = 0,
        other = 0,
        wrong = 0,
        nRight = 0,
        nOther = 0;
    // The wrong values given, in the order first given (few: a linear search), and the families that gave each.
    let wrongValues: { norm: string; text: string; families: string[] }[] | undefined;
    let rightClosed = false,
        followed = false;
    for (let k = 0; k < K; k++) {
        const at = (f * K + k) * FIELDS;
        const r = c[at + RIGHT_N]!,
            w = c[at + WRONG_N]!,
            ab = c[at + ABSTAIN_N]!,
            swapped = c[at + SWAPPED]!;
        const answers = r + w + ab;
        if (answers === 0 && swapped === 0) continue;
        const kind = kinds[k]!;
        if (c[at + FOLLOWED_N]! > 0) followed = true;
        if (c[at + RIGHT_CLOSED]! > 0) rightClosed = true;
        let fv: FamilyFactVerdict;
        if (answers === 0) {
            fv = { verdict: 'abstained', answers: 0 };
        } else if (w > 0) {
            fv = { verdict: 'wrong', answers };
            const values = acc.values[f * K + k];
            if (values) {
                let top: ValueCount | undefined;
                for (const e of values) {
                    const norm = e.norm;
                    if (!top || e.n > top.n || (e.n === top.n && norm < top.norm)) top = e;
                    wrongValues ??= [];
                    const wv = wrongValues.find(x => x.norm === norm);
                    if (wv) wv.families.push(kind);
                    else wrongValues.push({ norm, text: e.text, families: [kind] });
                }
                fv.value = top!.text;
            }
            wrong |= 1 << k;
            other |= 1 << k;
            nOther++;
            said[k] = 2;
        } else if (r > 0) {
            fv = { verdict: 'right', value: ref.value, answers };
            right |= 1 << k;
            nRight++;
            said[k] = 1;
        } else {
            fv = { verdict: 'abstained', answers };
            other |= 1 << k;
            nOther++;
        }
        if (swapped) fv.swapped = { answers: swapped, followed: c[at + FOLLOWED_N]! };
        // A family that only swapped the passage did not ask the fact itself.
        families[kind] = fv;
    }
    const asked = nRight + nOther;
    let believed: { text: string; families: string[] } | undefined;
    if (wrongValues)
        for (const w of wrongValues)
            if (
                w.families.length >= 2 &&
                (!believed ||
                    w.families.length > believed.families.length ||
                    (w.families.length === believed.families.length && w.text < believed.text))
            )
                believed = w;
    let cls: FactClass;
    if (asked < 2) cls = 'not-enough-forms';
    else if (nRight === 0 && wrong === 0) cls = 'abstains';
    else if (believed) cls = 'believes';
    else if (rightClosed && followed) cls = 'yields';
    else if (nOther === 0) cls = 'knows';
    else if (nRight === 0) cls = 'does-not-know';
    else cls = 'fragile';
    const { id, label, relation, key, attribute, value } = ref;
    const out: FactVerdict = { id, label, relation, key, attribute, value, model, class: cls, families };
    if (cls === 'believes') out.believed = { value: believed!.text, families: believed!.families };
    if (cls === 'fragile') out.fragile = { right: kindsOf(right, kinds, made), other: kindsOf(other, kinds, made) };
    return out;
}
