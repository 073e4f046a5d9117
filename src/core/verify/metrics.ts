/**
 * Metrics (METHODS.md §1) per model × probe × phrasing × variant × evaluation mode, each with N and a Wilson
 * 95 % interval:
 *   A = #(answer = gold) / N;  R = #(all keywords written) / N, over all responses, unsure included;
 *   AR = #(correct ∧ keywords written) / N;  M = #(unsure, don't know or unparseable) / N;  H = 1 − A − M;
 *   C = #(some keyword contradicted) / N (ours; the paper has no contradiction check).
 * Paths add R-ext, AR-ext per hop and the snowball conditionals P(r_{i+1} | r_i), P(r_{i+1} | ¬r_i); choice
 * probes add the multiple-answer and binding error rates and a 'mean' row over their stems (each family's
 * `metricExtras` and `meanOverPhrasings`, src/core/probes).
 * Overrides replace the verifier's correct / rationale before anything is counted.
 */
import type { RuleFigures } from '../families/rule/metrics.js';
import type { Question } from '../probes/question.js';
import type { Verdict } from './types.js';
import type { StatementFigures } from '../families/statement/metrics.js';
import type { EvidenceFigures } from '../families/evidence/metrics.js';
import { hopPresent, keywordsPresent } from './verify.js';
import { familyOf } from '../probes/families.js';

export type Interval = [number, number];

/** Wilson score interval for k successes in n trials (95 % by default). */
export function wilson(k: number, n: number, z = 1.959963984540054): Interval | null {
    if (n <= 0) return null;
    const p = k / n;
    const z2 = z * z;
    const denom = 1 + z2 / n;
    const centre = (p + z2 / (2 * n)) / denom;
    const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denom;
    return [Math.max(0, centre - half), Math.min(1, centre + half)];
}

export type EvaluationMode = 'all' | 'known' | 'all_known';
export const MODE_LABELS: Record<EvaluationMode, string> = {
    all: 'all questions', known: 'entities the model knows', all_known: 'entities all models know',
};

/** A proportion with its counts and interval. */
export interface Figure { k: number; n: number; value: number | null; ci: Interval | null }

/** Claims of open answers: supported / contradicted by the data, followed a corrupted context edge, invented. */
export interface OpenFigures {
    claims: number; answers: number; supported: Figure; contradicted: Figure; followedCorrupted: Figure; invented: Figure;
    /** Mean SC2D / SD2 similarity of the contexts given to the retrieved ones (perturbed questions only). */
    sc2d?: number; sd2?: number;
}

export function figure(k: number, n: number): Figure {
    return { k, n, value: n > 0 ? k / n : null, ci: wilson(k, n) };
}

export interface HopMetrics {
    hop: number;
    /** Share of responses writing this hop's keywords. */
    r: Figure;
    /** AR-ext: correct answer ∧ this hop's keywords. */
    ar: Figure;
    /** P(r_hop | r_{hop−1}) and P(r_hop | ¬r_{hop−1}) (from hop 2). */
    givenPrevious?: Figure;
    givenNotPrevious?: Figure;
}

export interface GroupMetrics {
    model: string;
    probe: string;
    kind: string;
    phrasing: string;
    variant: string;
    /** The variant with its parameters (`few_shot(2)`): groups differ by it, not by the kind alone. */
    variantId?: string;
    mode: EvaluationMode;
    n: number;
    /** Why the group is not reported ("n/a"), e.g. the model knows fewer than 20 entities. */
    na?: string;
    /** 'all_known' mode: the models whose knowledge verdicts "entities all models know" intersects. */
    covers?: string[];
    A: number | null; R: number | null; AR: number | null; M: number | null; H: number | null; C: number | null;
    ci: Record<'A' | 'R' | 'AR' | 'M' | 'H' | 'C', Interval | null>;
    counts: { correct: number; present: number; correctPresent: number; unsure: number; unparseable: number; contradicted: number; hallucinated: number };
    /** path probes */
    rExt?: Figure;
    hops?: HopMetrics[];
    /** choice probes */
    multiple?: Figure;
    binding?: Figure;
    /** open probes: shares of the answers' atomic claims (core/open). */
    open?: OpenFigures;
    /** statement probes: T / I / C per triple, answers by polarity, negatives accepted (core/statements). */
    statements?: StatementFigures;
    /** evidence probes: accuracy, exact match, F1 per case; followed / stale on swaps (core/evidence). */
    evidence?: EvidenceFigures;
    /** rule probes: hallucination by category, relation and first wrong step; the paper's overlaps (core/rules). */
    rules?: RuleFigures;
    /** Overrides applied to this group's verdicts. */
    overrides: number;
}

export interface MetricsOptions {
    /** Fewer known entities than this → the mode is n/a (METHODS.md: 20). */
    minKnown?: number;
}

export function entityKey(q: Question): string {
    return `${q.entity.relation}\u0000${q.entity.key.join('\u0000')}`;
}

const isMissingAnswer = (v: Verdict) => v.answer === 'unsure' || v.answer === 'unparseable' || v.answer === 'dont_know';
export const effectiveCorrect = (v: Verdict) => v.override?.correct ?? v.correct;

/** Metrics of one set of verdicts (all of one group). */
export function groupMetrics(head: Omit<GroupMetrics, 'n' | 'A' | 'R' | 'AR' | 'M' | 'H' | 'C' | 'ci' | 'counts' | 'overrides'>, items: { v: Verdict; q: Question }[]): GroupMetrics {
    const n = items.length;
    const c = { correct: 0, present: 0, correctPresent: 0, unsure: 0, unparseable: 0, contradicted: 0, hallucinated: 0 };
    let overrides = 0;
    for (const { v } of items) {
        const ok = effectiveCorrect(v);
        const present = keywordsPresent(v);
        if (v.override) overrides++;
        if (ok) c.correct++;
        if (present) c.present++;
        if (ok && present) c.correctPresent++;
        // An override may accept an unsure answer as correct: it then counts in A only, so H = 1 − A − M holds.
        if (!ok && v.answer === 'unparseable') c.unparseable++;
        else if (!ok && isMissingAnswer(v)) c.unsure++;
        if (!ok && !isMissingAnswer(v)) c.hallucinated++;
        if (v.override?.rationale === undefined && v.hops.some(h => h.status === 'contradicted')) c.contradicted++;
    }
    const f = (k: number) => (n > 0 ? k / n : null);
    const missing = c.unsure + c.unparseable;
    const out: GroupMetrics = {
        ...head, n,
        A: f(c.correct), R: f(c.present), AR: f(c.correctPresent), M: f(missing),
        H: n > 0 ? 1 - c.correct / n - missing / n : null, C: f(c.contradicted),
        ci: { A: wilson(c.correct, n), R: wilson(c.present, n), AR: wilson(c.correctPresent, n), M: wilson(missing, n), H: wilson(c.hallucinated, n), C: wilson(c.contradicted, n) },
        counts: c, overrides,
    };
    Object.assign(out, familyOf(head.kind).metricExtras(items));
    return out;
}

/** Fewer cases than this make a snowball conditional n/a (too few to say anything). */
export const SNOWBALL_MIN = 4;

/**
 * Path figures. A hop a question's path does not have (a city that never hosted: no host years) is no
 * keyword: per-hop R and AR-ext count only the questions that have the hop, and R-ext divides each question's
 * found hops by the hops it has. With `ar_ext complete` (the ERBench authors' Soccer & Olympic scoring) AR-ext
 * counts only the questions whose path has every hop, for every hop.
 */
export function pathMetrics(items: readonly { v: Verdict; q: Question }[]): { rExt: Figure; hops: HopMetrics[] } {
    const hopCount = Math.max(0, ...items.map(i => i.q.keywords.length));
    let presentHops = 0;
    let totalHops = 0;
    const hops: HopMetrics[] = [];
    const complete = items.filter(i => i.q.keywords.length === hopCount);
    const completeOnly = items.some(i => i.q.pathScoring?.arExt === 'complete');
    for (let h = 0; h < hopCount; h++) {
        let r = 0, prev = 0, prevAnd = 0, notPrev = 0, notPrevAnd = 0;
        const within = items.filter(i => i.q.keywords.length > h);
        for (const { v } of within) {
            const here = hopPresent(v, h);
            if (here) r++;
            if (h > 0) {
                if (hopPresent(v, h - 1)) { prev++; if (here) prevAnd++; } else { notPrev++; if (here) notPrevAnd++; }
            }
        }
        const arBase = completeOnly ? complete : within;
        const ar = arBase.filter(i => hopPresent(i.v, h) && effectiveCorrect(i.v)).length;
        presentHops += r;
        totalHops += within.length;
        const m: HopMetrics = { hop: h + 1, r: figure(r, within.length), ar: figure(ar, arBase.length) };
        if (h > 0) { m.givenPrevious = snowball(prevAnd, prev); m.givenNotPrevious = snowball(notPrevAnd, notPrev); }
        hops.push(m);
    }
    // R-ext is a mean of per-question shares; with equal hop counts it equals pooled hops, whose Wilson interval we give.
    const rExt = items.length === 0 ? figure(0, 0) : { ...figure(presentHops, totalHops), value: items.reduce((s, i) => s + (i.q.keywords.length ? i.q.keywords.filter((_, h) => hopPresent(i.v, h)).length / i.q.keywords.length : 0), 0) / items.length };
    return { rExt, hops };
}

/** A snowball conditional: n/a (value null) on fewer than SNOWBALL_MIN cases. */
function snowball(k: number, n: number): Figure {
    return n < SNOWBALL_MIN ? { k, n, value: null, ci: null } : figure(k, n);
}

/**
 * Which entities each model knows, from its knows-probe verdicts: an entity asked several knowledge questions
 * (one per attribute) is known only when every one of them says so. A model without knowledge verdicts is absent.
 */
export function knownEntities(questions: Map<string, Question>, verdicts: Verdict[]): Map<string, Set<string>> {
    const verdictOf = new Map<string, Map<string, boolean>>();
    for (const v of verdicts) {
        const q = questions.get(v.questionId);
        if (!q || !familyOf(q.kind).decidesKnowledge) continue;
        let mine = verdictOf.get(v.model);
        if (!mine) verdictOf.set(v.model, mine = new Map());
        const key = entityKey(q);
        mine.set(key, (mine.get(key) ?? true) && Boolean(v.override?.correct ?? v.known));
    }
    const known = new Map<string, Set<string>>();
    for (const [model, entities] of verdictOf) known.set(model, new Set([...entities].filter(([, k]) => k).map(([e]) => e)));
    return known;
}

export function computeMetrics(questions: Question[], verdicts: Verdict[], options: MetricsOptions = {}): GroupMetrics[] {
    const minKnown = options.minKnown ?? 20;
    const byId = new Map(questions.map(q => [q.id, q]));
    const known = knownEntities(byId, verdicts);
    // "Entities all models know" covers the models with knowledge verdicts; the others are n/a there, and say so.
    const covers = [...known.keys()].sort();
    const everyone = known.size === 0 ? undefined : [...known.values()].reduce((a, b) => new Set([...a].filter(x => b.has(x))));
    const groups = new Map<string, { v: Verdict; q: Question }[]>();
    for (const v of verdicts) {
        const q = byId.get(v.questionId);
        if (!q || !familyOf(q.kind).measured) continue;
        const key = [v.model, q.probe, q.phrasing, q.variantId ?? q.variant].join('\u0000');
        const list = groups.get(key) ?? [];
        list.push({ v, q });
        groups.set(key, list);
    }
    const out: GroupMetrics[] = [];
    const itemsOf = new Map<GroupMetrics, { v: Verdict; q: Question }[]>();
    const emit = (all: { v: Verdict; q: Question }[], subset: { v: Verdict; q: Question }[], mode: EvaluationMode, na?: string) => {
        const q = all[0]!.q;
        const counted = na ? [] : subset;
        const m = groupMetrics({ model: all[0]!.v.model, probe: q.probe, kind: q.kind, phrasing: q.phrasing, variant: q.variant, variantId: q.variantId ?? q.variant, mode }, counted);
        if (na) m.na = na;
        out.push(m);
        itemsOf.set(m, counted);
    };
    const sorted = [...groups.values()].sort((a, b) => cmp(a[0]!, b[0]!));
    for (const items of sorted) {
        const model = items[0]!.v.model;
        emit(items, items, 'all');
        const mine = known.get(model);
        if (mine) {
            emit(items, items.filter(i => mine.has(entityKey(i.q))), 'known', mine.size < minKnown ? `n/a: ${model} knows ${mine.size} entities (fewer than ${minKnown})` : undefined);
        } else if (everyone) {
            // Other models were probed for knowledge and this one was not (or its probe never answered): n/a, never dropped.
            emit(items, [], 'known', `n/a: ${model} has no knowledge verdicts`);
        }
        if (everyone) {
            const na = !mine ? `n/a: ${model} has no knowledge verdicts (entities all models know covers ${covers.join(', ')})`
                : everyone.size < minKnown ? `n/a: all models know ${everyone.size} entities (fewer than ${minKnown})` : undefined;
            emit(items, items.filter(i => everyone.has(entityKey(i.q))), 'all_known', na);
            out[out.length - 1]!.covers = covers;
        }
    }
    out.push(...phrasingMeans(out, itemsOf));
    return out.filter(m => m.n > 0 || m.na);
}

function cmp(a: { v: Verdict; q: Question }, b: { v: Verdict; q: Question }): number {
    return a.v.model.localeCompare(b.v.model) || a.q.probe.localeCompare(b.q.probe) || (a.q.variantId ?? a.q.variant).localeCompare(b.q.variantId ?? b.q.variant) || a.q.phrasing.localeCompare(b.q.phrasing);
}

/** Families whose phrasings are alternatives (choice stems): the mean over them of each figure (the paper's number), intervals from the pooled counts. */
function phrasingMeans(groups: GroupMetrics[], itemsOf: Map<GroupMetrics, { v: Verdict; q: Question }[]>): GroupMetrics[] {
    const sets = new Map<string, GroupMetrics[]>();
    for (const g of groups) {
        if (!familyOf(g.kind).meanOverPhrasings || g.na || g.n === 0) continue;
        const key = [g.model, g.probe, g.variantId ?? g.variant, g.mode].join('\u0000');
        sets.set(key, [...(sets.get(key) ?? []), g]);
    }
    const out: GroupMetrics[] = [];
    for (const list of sets.values()) {
        if (list.length < 2) continue;
        const mean = (get: (g: GroupMetrics) => number | null) => list.reduce((s, g) => s + (get(g) ?? 0), 0) / list.length;
        const sum = <K extends keyof GroupMetrics['counts']>(k: K) => list.reduce((s, g) => s + g.counts[k], 0);
        const n = list.reduce((s, g) => s + g.n, 0);
        const counts = { correct: sum('correct'), present: sum('present'), correctPresent: sum('correctPresent'), unsure: sum('unsure'), unparseable: sum('unparseable'), contradicted: sum('contradicted'), hallucinated: sum('hallucinated') };
        const first = list[0]!;
        out.push({
            model: first.model, probe: first.probe, kind: first.kind, phrasing: 'mean', variant: first.variant, variantId: first.variantId ?? first.variant, mode: first.mode, n,
            A: mean(g => g.A), R: mean(g => g.R), AR: mean(g => g.AR), M: mean(g => g.M), H: mean(g => g.H), C: mean(g => g.C),
            ci: { A: wilson(counts.correct, n), R: wilson(counts.present, n), AR: wilson(counts.correctPresent, n), M: wilson(counts.unsure + counts.unparseable, n), H: wilson(counts.hallucinated, n), C: wilson(counts.contradicted, n) },
            counts, overrides: list.reduce((s, g) => s + g.overrides, 0),
            ...familyOf(first.kind).metricExtras(list.flatMap(g => itemsOf.get(g) ?? [])),
        });
    }
    return out;
}
