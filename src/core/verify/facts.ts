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
export const FACT_CLASSES: readonly FactClass[] = ['knows', 'fragile', 'believes', 'yields', 'does-not-know', 'abstains', 'not-enough-forms'];

export const FACT_CLASS_TEXT: Record<FactClass, string> = {
    'knows': 'right in every family that asked',
    'fragile': 'right in some families, wrong or abstaining in others',
    'believes': 'the same wrong value in two or more families',
    'yields': 'right without a passage, follows a swapped one',
    'does-not-know': 'wrong in every family that answered, no wrong value shared',
    'abstains': 'abstained in every family',
    'not-enough-forms': 'asked in fewer than two families',
};

export type Outcome = 'right' | 'wrong' | 'abstain';

/** One family's verdict on one fact for one model, over all its answers (phrasings, samples, variants). */
export interface FamilyFactVerdict {
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

export interface FactSummary {
    model: string;
    facts: number;
    shares: Record<FactClass, Figure>;
}

/** How often two families' verdicts on the same fact agree (both right or both wrong), for one model. */
export interface PairAgreement { model: string; a: string; b: string; agreement: Figure }

/** Per model, the family whose verdicts agree least with the others' (pooled over its pairs). */
export interface Disagreeing { model: string; kind: string; agreement: Figure }

export interface FactReport {
    facts: FactVerdict[];
    summary: FactSummary[];
    pairs: PairAgreement[];
    disagreesMost: Disagreeing[];
}

const ABSTAINING = new Set(['unsure', 'unparseable', 'dont_know']);

/** The observation of one fact in one verdict: undefined when the answer says nothing about it. */
export interface Observation { outcome?: Outcome; value?: string; followed?: boolean }

/** Values compared for "the same wrong value": case, spacing and surrounding punctuation aside. */
export const sameValue = (v: string) => v.toLowerCase().replace(/\s+/g, ' ').replace(/^[\s"'.,;:]+|[\s"'.,;:]+$/g, '');

/** A value as reports show it: as the answer wrote it, spacing and surrounding punctuation aside. */
const shownValue = (v: string) => v.replace(/\s+/g, ' ').replace(/^[\s"'.,;:]+|[\s"'.,;:]+$/g, '');

/** The other value the answer's rationale states for this fact's attribute (a contradicted keyword), if any. */
function conflictValue(ref: FactRef, v: Verdict): string | undefined {
    for (const h of v.hops ?? []) for (const k of h.keywords) if (k.status === 'contradicted' && k.relation === ref.relation && k.attribute === ref.attribute && k.conflict) return k.conflict.value;
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
const wrongWith = (value: string | undefined): Observation => (value === undefined || value.trim() === '' ? WRONG : { outcome: 'wrong', value });

interface FamilyAcc { right: number; wrong: number; abstain: number; rightClosed: number; swapped: number; followed: number; values?: Map<string, { text: string; n: number }> }
/** One fact and model: its families' tallies, indexed by the kind's number (in the order kinds were first seen). */
interface FactAcc { ref: FactRef; model: string; families: (FamilyAcc | undefined)[] }

/**
 * The per-fact step: every verdict of every question that records facts, read per fact; each fact's class per model;
 * the shares per model; the family pairs' agreement. Questions without facts (stored before facts were recorded, or
 * a family that tests none) are passed over.
 */
export function factVerdicts(questions: Iterable<Pick<Question, 'id' | 'kind' | 'gold' | 'facts'>>, verdicts: Iterable<Verdict>): FactReport {
    const byId = new Map<string, { q: Pick<Question, 'id' | 'kind' | 'gold' | 'facts'>; kind: number }>();
    const kinds: string[] = [];
    const kindIndex = new Map<string, number>();
    for (const q of questions) {
        if (!q.facts?.length) continue;
        let k = kindIndex.get(q.kind);
        if (k === undefined) { k = kinds.length; kinds.push(q.kind); kindIndex.set(q.kind, k); }
        byId.set(q.id, { q, kind: k });
    }
    const models = new Map<string, Map<string, FactAcc>>();
    let lastModel: string | undefined, accs: Map<string, FactAcc> | undefined;
    for (const v of verdicts) {
        const entry = byId.get(v.questionId);
        if (!entry) continue;
        const { q, kind } = entry;
        if (v.model !== lastModel) {
            lastModel = v.model;
            accs = models.get(v.model);
            if (!accs) { accs = new Map(); models.set(v.model, accs); }
        }
        for (const ref of q.facts!) {
            const o = observe(ref, q, v);
            if (!o) continue;
            let f = accs!.get(ref.id);
            if (!f) { f = { ref, model: v.model, families: [] }; accs!.set(ref.id, f); }
            let fam = f.families[kind];
            if (!fam) { fam = { right: 0, wrong: 0, abstain: 0, rightClosed: 0, swapped: 0, followed: 0 }; f.families[kind] = fam; }
            // The fact as the data holds it: a falsified option's and a rule premise's refs carry the same id and value.
            if (ref.role !== 'shown' && f.ref.role === 'shown') f.ref = ref;
            if (o.followed !== undefined) { fam.swapped++; if (o.followed) fam.followed++; continue; }
            if (o.outcome === 'right') { fam.right++; if (ref.passage !== 'given') fam.rightClosed++; } else if (o.outcome === 'abstain') fam.abstain++;
            else {
                fam.wrong++;
                if (o.value !== undefined) {
                    const s = sameValue(o.value);
                    fam.values ??= new Map();
                    const e = fam.values.get(s);
                    if (e) e.n++; else fam.values.set(s, { text: shownValue(o.value), n: 1 });
                }
            }
        }
    }
    const facts: FactVerdict[] = [];
    const summary: FactSummary[] = [];
    const pairs: PairAgreement[] = [];
    const disagreesMost: Disagreeing[] = [];
    const K = kinds.length;
    for (const [model, accs] of [...models].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))) {
        const counts = Object.fromEntries(FACT_CLASSES.map(c => [c, 0])) as Record<FactClass, number>;
        // Two families agree on a fact when both were right or both wrong (abstentions say neither).
        const agree = new Int32Array(K * K), asked = new Int32Array(K * K);
        const said = new Int8Array(K);
        const start = facts.length;
        for (const f of accs.values()) {
            const fv = classify(f, kinds, said);
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
        summary.push({ model, facts: n, shares: Object.fromEntries(FACT_CLASSES.map(c => [c, figure(counts[c], n)])) as Record<FactClass, Figure> });
        const pooled = kinds.map(() => ({ agree: 0, n: 0 }));
        const modelPairs: PairAgreement[] = [];
        for (let a = 0; a < K; a++) for (let b = a + 1; b < K; b++) {
            const m = asked[a * K + b]!;
            if (m === 0) continue;
            const g = agree[a * K + b]!;
            const [x, y] = kinds[a]! < kinds[b]! ? [a, b] : [b, a];
            modelPairs.push({ model, a: kinds[x]!, b: kinds[y]!, agreement: figure(g, m) });
            for (const k of [a, b]) { pooled[k]!.agree += g; pooled[k]!.n += m; }
        }
        pairs.push(...modelPairs.sort((p, q) => (p.a + '\u0000' + p.b < q.a + '\u0000' + q.b ? -1 : 1)));
        const worst = pooled.map((p, k) => ({ k, ...p })).filter(p => p.n > 0).sort((x, y) => x.agree / x.n - y.agree / y.n || (kinds[x.k]! < kinds[y.k]! ? -1 : 1))[0];
        if (worst) disagreesMost.push({ model, kind: kinds[worst.k]!, agreement: figure(worst.agree, worst.n) });
    }
    facts.sort((a, b) => (a.model < b.model ? -1 : a.model > b.model ? 1 : a.label < b.label ? -1 : a.label > b.label ? 1 : 0));
    return { facts, summary, pairs, disagreesMost };
}

/** The fact's class; `said` gets each kind's verdict (1 right, 2 wrong, 0 neither) for the pair tallies. */
function classify(f: FactAcc, kinds: readonly string[], said: Int8Array): FactVerdict {
    said.fill(0);
    const families: Record<string, FamilyFactVerdict> = {};
    const right: string[] = [], other: string[] = [], wrong: string[] = [];
    let wrongValues: Map<string, { text: string; families: string[] }> | undefined;
    let rightClosed = false, followed = false;
    for (let k = 0; k < f.families.length; k++) {
        const a = f.families[k];
        if (!a) continue;
        const kind = kinds[k]!;
        const answers = a.right + a.wrong + a.abstain;
        if (a.followed > 0) followed = true;
        if (a.rightClosed > 0) rightClosed = true;
        let fv: FamilyFactVerdict;
        if (answers === 0) {
            fv = { verdict: 'abstained', answers: 0 };
        } else if (a.wrong > 0) {
            fv = { verdict: 'wrong', answers };
            if (a.values) {
                let top: { text: string; n: number } | undefined, topKey = '';
                for (const [norm, e] of a.values) {
                    if (!top || e.n > top.n || (e.n === top.n && norm < topKey)) { top = e; topKey = norm; }
                    wrongValues ??= new Map();
                    const w = wrongValues.get(norm);
                    if (w) w.families.push(kind); else wrongValues.set(norm, { text: e.text, families: [kind] });
                }
                fv.value = top!.text;
            }
            wrong.push(kind);
            other.push(kind);
            said[k] = 2;
        } else if (a.right > 0) {
            fv = { verdict: 'right', value: f.ref.value, answers };
            right.push(kind);
            said[k] = 1;
        } else {
            fv = { verdict: 'abstained', answers };
            other.push(kind);
        }
        if (a.swapped) fv.swapped = { answers: a.swapped, followed: a.followed };
        // A family that only swapped the passage did not ask the fact itself.
        if (answers > 0 || a.swapped) families[kind] = fv;
    }
    const asked = right.length + other.length;
    let believed: { text: string; families: string[] } | undefined;
    if (wrongValues) for (const w of wrongValues.values()) if (w.families.length >= 2 && (!believed || w.families.length > believed.families.length || (w.families.length === believed.families.length && w.text < believed.text))) believed = w;
    let cls: FactClass;
    if (asked < 2) cls = 'not-enough-forms';
    else if (right.length === 0 && wrong.length === 0) cls = 'abstains';
    else if (believed) cls = 'believes';
    else if (rightClosed && followed) cls = 'yields';
    else if (other.length === 0) cls = 'knows';
    else if (right.length === 0) cls = 'does-not-know';
    else cls = 'fragile';
    const { id, label, relation, key, attribute, value } = f.ref;
    const out: FactVerdict = { id, label, relation, key, attribute, value, model: f.model, class: cls, families };
    if (cls === 'believes') out.believed = { value: believed!.text, families: believed!.families };
    if (cls === 'fragile') out.fragile = { right, other };
    return out;
}
