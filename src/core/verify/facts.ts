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
    /** `believes`: the wrong value, and the families that gave it. */
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

/** The other value the answer's rationale states for this fact's attribute (a contradicted keyword), if any. */
function conflictValue(ref: FactRef, v: Verdict): string | undefined {
    for (const h of v.hops ?? []) for (const k of h.keywords) if (k.status === 'contradicted' && k.relation === ref.relation && k.attribute === ref.attribute && k.conflict) return k.conflict.value;
    return undefined;
}

/** What one verdict says about one of its question's facts (docs/facts.md, "Reading an answer per fact"). */
export function observe(ref: FactRef, q: Pick<Question, 'gold'>, v: Verdict): Observation | undefined {
    const correct = v.correct;
    if (ABSTAINING.has(v.answer)) return ref.passage === 'swapped' ? undefined : { outcome: 'abstain' };
    // A passage with this fact swapped: following it is what the question asks; it only tells whether the model yields.
    if (ref.passage === 'swapped') return { followed: correct };
    if (ref.role === 'claim') {
        // Claims are checked against the data's edges: a supported claim on this fact's edge states it, a contradicted
        // one (its edge is the conflicting fact: this one) states something else; a fact no claim names is not observed.
        let seen: Outcome | undefined;
        for (const c of v.claims ?? []) {
            if (c.edge !== ref.edge) continue;
            if (c.status === 'contradicted' || (c.status === 'supported' && c.negated)) return { outcome: 'wrong' };
            if (c.status === 'supported') seen = 'right';
        }
        return seen && { outcome: seen };
    }
    if (ref.option !== undefined && (v.answer === 'option' || v.answer === 'none')) {
        const picked = v.answer === 'option' ? v.option : undefined;
        if (ref.role === 'shown') return picked === ref.option ? { outcome: 'right' } : { outcome: 'wrong', ...(ref.shown !== undefined ? { value: ref.shown } : {}) };
        return picked === ref.option ? { outcome: 'wrong' } : { outcome: 'right' };
    }
    if (ref.role === 'hop' || ref.role === 'premise') {
        const at = ref.hop ?? 0;
        const hop = v.hops?.find(h => h.hop === at);
        if (hop?.status === 'contradicted') return { outcome: 'wrong', ...valueOf(conflictValue(ref, v)) };
        if (ref.role === 'premise') return hop?.status === 'found' ? { outcome: 'right' } : undefined;
        if (correct) return { outcome: 'right' };
        if (v.failedHop === undefined || v.failedHop === at) return { outcome: 'wrong', ...valueOf(conflictValue(ref, v)) };
        return at < v.failedHop ? { outcome: 'right' } : undefined;
    }
    if (correct) return { outcome: 'right' };
    const short = typeof q.gold === 'object' ? (v.modelRead?.text ?? v.read?.text) : undefined;
    return { outcome: 'wrong', ...valueOf(ref.shown ?? conflictValue(ref, v) ?? short) };
}

const valueOf = (value: string | undefined) => (value === undefined || value.trim() === '' ? {} : { value });

interface FamilyAcc { right: number; wrong: number; abstain: number; rightClosed: number; swapped: number; followed: number; values: Map<string, { text: string; n: number }> }
interface FactAcc { ref: FactRef; model: string; families: Map<string, FamilyAcc> }

/**
 * The per-fact step: every verdict of every question that records facts, read per fact; each fact's class per model;
 * the shares per model; the family pairs' agreement. Questions without facts (stored before facts were recorded, or
 * a family that tests none) are passed over.
 */
export function factVerdicts(questions: Iterable<Pick<Question, 'id' | 'kind' | 'gold' | 'facts'>>, verdicts: Iterable<Verdict>): FactReport {
    const byId = new Map<string, Pick<Question, 'id' | 'kind' | 'gold' | 'facts'>>();
    for (const q of questions) if (q.facts?.length) byId.set(q.id, q);
    const acc = new Map<string, FactAcc>();
    for (const v of verdicts) {
        const q = byId.get(v.questionId);
        if (!q) continue;
        for (const ref of q.facts!) {
            const o = observe(ref, q, v);
            if (!o) continue;
            const k = `${ref.id}\u0000${v.model}`;
            let f = acc.get(k);
            if (!f) { f = { ref, model: v.model, families: new Map() }; acc.set(k, f); }
            let fam = f.families.get(q.kind);
            if (!fam) { fam = { right: 0, wrong: 0, abstain: 0, rightClosed: 0, swapped: 0, followed: 0, values: new Map() }; f.families.set(q.kind, fam); }
            // The fact as the data holds it: a falsified option's and a rule premise's refs carry the same id and value.
            if (ref.role !== 'shown' && f.ref.role === 'shown') f.ref = ref;
            if (o.followed !== undefined) { fam.swapped++; if (o.followed) fam.followed++; continue; }
            if (o.outcome === 'right') { fam.right++; if (ref.passage !== 'given') fam.rightClosed++; } else if (o.outcome === 'abstain') fam.abstain++;
            else {
                fam.wrong++;
                if (o.value !== undefined) {
                    const s = sameValue(o.value);
                    const e = fam.values.get(s);
                    if (e) e.n++; else fam.values.set(s, { text: o.value, n: 1 });
                }
            }
        }
    }
    const facts: FactVerdict[] = [];
    for (const f of acc.values()) facts.push(classify(f));
    facts.sort((a, b) => (a.model < b.model ? -1 : a.model > b.model ? 1 : a.label < b.label ? -1 : a.label > b.label ? 1 : 0));
    return { facts, ...summarise(facts) };
}

function classify(f: FactAcc): FactVerdict {
    const families: Record<string, FamilyFactVerdict> = {};
    const right: string[] = [], other: string[] = [], wrong: string[] = [];
    const wrongValues = new Map<string, { text: string; families: string[] }>();
    let rightClosed = false, followed = false;
    for (const [kind, a] of f.families) {
        const answers = a.right + a.wrong + a.abstain;
        const swapped = a.swapped ? { swapped: { answers: a.swapped, followed: a.followed } } : {};
        if (a.followed > 0) followed = true;
        if (a.rightClosed > 0) rightClosed = true;
        if (answers === 0) { if (a.swapped) families[kind] = { verdict: 'abstained', answers: 0, ...swapped }; continue; }
        if (a.wrong > 0) {
            const top = [...a.values.entries()].sort((x, y) => y[1].n - x[1].n || (x[0] < y[0] ? -1 : 1))[0];
            families[kind] = { verdict: 'wrong', answers, ...(top ? { value: top[1].text } : {}), ...swapped };
            wrong.push(kind);
            other.push(kind);
            for (const [norm, e] of a.values) {
                const w = wrongValues.get(norm);
                if (w) w.families.push(kind); else wrongValues.set(norm, { text: e.text, families: [kind] });
            }
        } else if (a.right > 0) {
            families[kind] = { verdict: 'right', value: f.ref.value, answers, ...swapped };
            right.push(kind);
        } else {
            families[kind] = { verdict: 'abstained', answers, ...swapped };
            other.push(kind);
        }
    }
    const asked = right.length + other.length;
    const believed = [...wrongValues.values()].filter(w => w.families.length >= 2).sort((x, y) => y.families.length - x.families.length || (x.text < y.text ? -1 : 1))[0];
    let cls: FactClass;
    if (asked < 2) cls = 'not-enough-forms';
    else if (right.length === 0 && wrong.length === 0) cls = 'abstains';
    else if (believed) cls = 'believes';
    else if (rightClosed && followed) cls = 'yields';
    else if (other.length === 0) cls = 'knows';
    else if (right.length === 0) cls = 'does-not-know';
    else cls = 'fragile';
    const { id, label, relation, key, attribute, value } = f.ref;
    return {
        id, label, relation, key, attribute, value, model: f.model, class: cls, families,
        ...(cls === 'believes' ? { believed: { value: believed!.text, families: believed!.families } } : {}),
        ...(cls === 'fragile' ? { fragile: { right, other } } : {}),
    };
}

function summarise(facts: readonly FactVerdict[]): Pick<FactReport, 'summary' | 'pairs' | 'disagreesMost'> {
    const perModel = new Map<string, FactVerdict[]>();
    for (const f of facts) { const l = perModel.get(f.model); if (l) l.push(f); else perModel.set(f.model, [f]); }
    const summary: FactSummary[] = [];
    const pairs: PairAgreement[] = [];
    const disagreesMost: Disagreeing[] = [];
    for (const [model, list] of perModel) {
        const counts = Object.fromEntries(FACT_CLASSES.map(c => [c, 0])) as Record<FactClass, number>;
        for (const f of list) counts[f.class]++;
        summary.push({ model, facts: list.length, shares: Object.fromEntries(FACT_CLASSES.map(c => [c, figure(counts[c], list.length)])) as Record<FactClass, Figure> });
        // Two families agree on a fact when both were right or both wrong (abstentions say neither).
        const tally = new Map<string, { a: string; b: string; agree: number; n: number }>();
        for (const f of list) {
            const kinds = Object.keys(f.families).filter(k => f.families[k]!.verdict !== 'abstained').sort();
            for (let i = 0; i < kinds.length; i++) for (let j = i + 1; j < kinds.length; j++) {
                const a = kinds[i]!, b = kinds[j]!;
                const key = `${a}\u0000${b}`;
                let t = tally.get(key);
                if (!t) { t = { a, b, agree: 0, n: 0 }; tally.set(key, t); }
                t.n++;
                if (f.families[a]!.verdict === f.families[b]!.verdict) t.agree++;
            }
        }
        const pooled = new Map<string, { agree: number; n: number }>();
        for (const t of [...tally.values()].sort((x, y) => (x.a + x.b < y.a + y.b ? -1 : 1))) {
            pairs.push({ model, a: t.a, b: t.b, agreement: figure(t.agree, t.n) });
            for (const k of [t.a, t.b]) { const p = pooled.get(k) ?? { agree: 0, n: 0 }; p.agree += t.agree; p.n += t.n; pooled.set(k, p); }
        }
        const worst = [...pooled.entries()].filter(([, p]) => p.n > 0).sort((x, y) => x[1].agree / x[1].n - y[1].agree / y[1].n || (x[0] < y[0] ? -1 : 1))[0];
        if (worst) disagreesMost.push({ model, kind: worst[0], agreement: figure(worst[1].agree, worst[1].n) });
    }
    return { summary, pairs, disagreesMost };
}
