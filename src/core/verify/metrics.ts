/**
 * Metrics (METHODS.md §1) per model × probe × phrasing × variant × evaluation mode, each with N and a Wilson
 * 95 % interval:
 *   A = #(answer = gold) / N;  R = #(all keywords written) / N, over all responses, unsure included;
 *   AR = #(correct ∧ keywords written) / N;  M = #(unsure, don't know or unparseable) / N;  H = 1 − A − M;
 *   C = #(some keyword contradicted) / N (ours; the paper has no contradiction check).
 * Paths add R-ext, AR-ext per hop and the snowball conditionals P(r_{i+1} | r_i), P(r_{i+1} | ¬r_i); choice
 * probes add the multiple-answer and binding error rates and a 'mean' row over their stems (each family's figures
 * capability: `extras`, `meanOverPhrasings`, and `acrossPhrasings` for figures over every phrasing of a probe at once;
 * src/core/probes/contract/figures.ts).
 * Overrides replace the verifier's correct / rationale before anything is counted.
 */
import type { Question } from '../probes/question.js';
import type { Verdict } from './types.js';
import { capabilityOf, coreOf } from '../probes/registry.js';
import {
    effectiveCorrect,
    entityKey,
    keywordsPresent,
    outdatedFigure,
    wilson,
    type EvaluationMode,
    type GroupMetrics,
} from './figures.js';

export * from './figures.js';

export interface MetricsOptions {
    /** Fewer known entities than this → the mode is n/a (METHODS.md: 20). */
    minKnown?: number;
}

/** Unsure, does not know, or unparseable: counted in M. */
export const isMissingAnswer = (v: Pick<Verdict, 'answer'>) =>
    v.answer === 'unsure' || v.answer === 'unparseable' || v.answer === 'dont_know';

/**
 * One verdict's part in each figure (1 counts, 0 does not): the per-question outcomes the group figures are the
 * means of, and what a paired comparison pairs (report/paired.ts). R and AR are undefined where the question has
 * no keywords (the group's figure is n/a there).
 */
export function verdictOutcomes(
    v: Verdict,
    q: Pick<Question, 'keywords'>,
): { A: number; H: number; M: number; R?: number; AR?: number } {
    const ok = effectiveCorrect(v);
    const missing = !ok && isMissingAnswer(v);
    const out: { A: number; H: number; M: number; R?: number; AR?: number } = {
        A: ok ? 1 : 0,
        H: !ok && !isMissingAnswer(v) ? 1 : 0,
        M: missing ? 1 : 0,
    };
    if (q.keywords.length > 0) {
        const present = keywordsPresent(v);
        out.R = present ? 1 : 0;
        out.AR = ok && present ? 1 : 0;
    }
    return out;
}

/** Metrics of one set of verdicts (all of one group). */
export function groupMetrics(
    head: Omit<GroupMetrics, 'n' | 'A' | 'R' | 'AR' | 'M' | 'H' | 'C' | 'ci' | 'counts' | 'overrides'>,
    items: { v: Verdict; q: Question }[],
): GroupMetrics {
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
        ...head,
        n,
        A: f(c.correct),
        R: f(c.present),
        AR: f(c.correctPresent),
        M: f(missing),
        H: n > 0 ? 1 - c.correct / n - missing / n : null,
        C: f(c.contradicted),
        ci: {
            A: wilson(c.correct, n),
            R: wilson(c.present, n),
            AR: wilson(c.correctPresent, n),
            M: wilson(missing, n),
            H: wilson(c.hallucinated, n),
            C: wilson(c.contradicted, n),
        },
        counts: c,
        overrides,
    };
    // Keyword figures mean nothing where no question has keywords (statements, open answers): n/a, not 0.
    if (n > 0 && !items.some(({ q }) => q.keywords.length > 0)) notApplicable(out);
    Object.assign(out, capabilityOf(head.kind, 'figures')?.extras?.(items));
    const outdated = outdatedFigure(items);
    if (outdated) out.outdated = outdated;
    return out;
}

function notApplicable(g: GroupMetrics): void {
    g.notApplicable = ['R', 'AR', 'C'];
    for (const k of g.notApplicable) {
        g[k] = null;
        g.ci[k] = null;
    }
}

/**
 * Which entities each model knows, from its knows-probe verdicts: an entity asked several knowledge questions
 * (one per attribute) is known only when every one of them says so. A model without knowledge verdicts is absent.
 */
function knownEntities(questions: Map<string, Question>, verdicts: Verdict[]): Map<string, Set<string>> {
    const verdictOf = new Map<string, Map<string, boolean>>();
    for (const v of verdicts) {
        const q = questions.get(v.questionId);
        if (!q || !coreOf(q.kind).decidesKnowledge) continue;
        let mine = verdictOf.get(v.model);
        if (!mine) verdictOf.set(v.model, (mine = new Map()));
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
        if (!q || !coreOf(q.kind).measured) continue;
        const key = [v.model, q.probe, q.phrasing, q.variantId ?? q.variant].join('\u0000');
        const list = groups.get(key) ?? [];
        list.push({ v, q });
        groups.set(key, list);
    }
    const out: GroupMetrics[] = [];
    const itemsOf = new Map<GroupMetrics, { v: Verdict; q: Question }[]>();
    const emit = (
        all: { v: Verdict; q: Question }[],
        subset: { v: Verdict; q: Question }[],
        mode: EvaluationMode,
        na?: string,
    ) => {
        const q = all[0]!.q;
        const counted = na ? [] : subset;
        const m = groupMetrics(
            {
                model: all[0]!.v.model,
                probe: q.probe,
                kind: q.kind,
                phrasing: q.phrasing,
                variant: q.variant,
                variantId: q.variantId ?? q.variant,
                mode,
            },
            counted,
        );
        if (na) m.na = na;
        out.push(m);
        itemsOf.set(m, counted);
    };
    // Phrasings in the order the spec declares them (the questions' order): an open probe's none → clean → perturbed
    // levels, a binary probe's basic → negated, never alphabetical.
    const phrasingRank = new Map<string, number>();
    for (const q of questions) {
        const k = `${q.probe}\u0000${q.phrasing}`;
        if (!phrasingRank.has(k)) phrasingRank.set(k, phrasingRank.size);
    }
    const rankOf = (q: Question) => phrasingRank.get(`${q.probe}\u0000${q.phrasing}`) ?? Number.MAX_SAFE_INTEGER;
    const sorted = [...groups.values()].sort((a, b) => cmp(a[0]!, b[0]!, rankOf));
    for (const items of sorted) {
        const model = items[0]!.v.model;
        emit(items, items, 'all');
        const mine = known.get(model);
        if (mine) {
            emit(
                items,
                items.filter(i => mine.has(entityKey(i.q))),
                'known',
                mine.size < minKnown ? `n/a: ${model} knows ${mine.size} entities (fewer than ${minKnown})` : undefined,
            );
        } else if (everyone) {
            // Other models were probed for knowledge and this one was not (or its probe never answered): n/a, never dropped.
            emit(items, [], 'known', `n/a: ${model} has no knowledge verdicts`);
        }
        if (everyone) {
            const na = !mine
                ? `n/a: ${model} has no knowledge verdicts (entities all models know covers ${covers.join(', ')})`
                : everyone.size < minKnown
                  ? `n/a: all models know ${everyone.size} entities (fewer than ${minKnown})`
                  : undefined;
            emit(
                items,
                items.filter(i => everyone.has(entityKey(i.q))),
                'all_known',
                na,
            );
            out[out.length - 1]!.covers = covers;
        }
    }
    out.push(...phrasingMeans(out, itemsOf));
    spanPhrasings(out, itemsOf);
    return out.filter(m => m.n > 0 || m.na);
}

/** Each model × probe × variant × mode's groups (every phrasing's and the mean) get the family's figures across phrasings. */
function spanPhrasings(groups: GroupMetrics[], itemsOf: Map<GroupMetrics, { v: Verdict; q: Question }[]>): void {
    const sets = new Map<string, GroupMetrics[]>();
    for (const g of groups) {
        if (g.na || g.n === 0 || !capabilityOf(g.kind, 'figures')?.acrossPhrasings) continue;
        const key = [g.model, g.probe, g.variantId ?? g.variant, g.mode].join('\u0000');
        sets.set(key, [...(sets.get(key) ?? []), g]);
    }
    for (const list of sets.values())
        addFiguresAcrossPhrasings(
            list,
            list.flatMap(g => itemsOf.get(g) ?? []),
        );
}

/**
 * A family's figures that span phrasings (`figures.acrossPhrasings`), computed once over `items` (the verdicts of
 * every phrasing) and merged into the figure slot of each group (a key both give merges one level deep), where the
 * family's figure columns read them as any other figure. Groups of one kind.
 */
export function addFiguresAcrossPhrasings(groups: readonly GroupMetrics[], items: readonly { v: Verdict; q: Question }[]): void {
    const across = groups.length ? capabilityOf(groups[0]!.kind, 'figures')?.acrossPhrasings?.(items) : undefined;
    if (!across) return;
    const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
    for (const g of groups) {
        const figures = { ...g.figures };
        for (const [key, value] of Object.entries(across))
            figures[key] = isObject(figures[key]) && isObject(value) ? { ...figures[key], ...value } : value;
        g.figures = figures;
    }
}

function cmp(a: { v: Verdict; q: Question }, b: { v: Verdict; q: Question }, rankOf: (q: Question) => number): number {
    return (
        a.v.model.localeCompare(b.v.model) ||
        a.q.probe.localeCompare(b.q.probe) ||
        (a.q.variantId ?? a.q.variant).localeCompare(b.q.variantId ?? b.q.variant) ||
        rankOf(a.q) - rankOf(b.q) ||
        a.q.phrasing.localeCompare(b.q.phrasing)
    );
}

/** Families whose phrasings are alternatives (choice stems): the mean over them of each figure (the paper's number), intervals from the pooled counts. */
function phrasingMeans(groups: GroupMetrics[], itemsOf: Map<GroupMetrics, { v: Verdict; q: Question }[]>): GroupMetrics[] {
    const sets = new Map<string, GroupMetrics[]>();
    for (const g of groups) {
        if (!capabilityOf(g.kind, 'figures')?.meanOverPhrasings || g.na || g.n === 0) continue;
        const key = [g.model, g.probe, g.variantId ?? g.variant, g.mode].join('\u0000');
        sets.set(key, [...(sets.get(key) ?? []), g]);
    }
    const out: GroupMetrics[] = [];
    for (const list of sets.values()) {
        if (list.length < 2) continue;
        const mean = (get: (g: GroupMetrics) => number | null) => list.reduce((s, g) => s + (get(g) ?? 0), 0) / list.length;
        const sum = <K extends keyof GroupMetrics['counts']>(k: K) => list.reduce((s, g) => s + g.counts[k], 0);
        const n = list.reduce((s, g) => s + g.n, 0);
        const counts = {
            correct: sum('correct'),
            present: sum('present'),
            correctPresent: sum('correctPresent'),
            unsure: sum('unsure'),
            unparseable: sum('unparseable'),
            contradicted: sum('contradicted'),
            hallucinated: sum('hallucinated'),
        };
        const first = list[0]!;
        out.push({
            model: first.model,
            probe: first.probe,
            kind: first.kind,
            phrasing: 'mean',
            variant: first.variant,
            variantId: first.variantId ?? first.variant,
            mode: first.mode,
            n,
            A: mean(g => g.A),
            R: mean(g => g.R),
            AR: mean(g => g.AR),
            M: mean(g => g.M),
            H: mean(g => g.H),
            C: mean(g => g.C),
            ci: {
                A: wilson(counts.correct, n),
                R: wilson(counts.present, n),
                AR: wilson(counts.correctPresent, n),
                M: wilson(counts.unsure + counts.unparseable, n),
                H: wilson(counts.hallucinated, n),
                C: wilson(counts.contradicted, n),
            },
            counts,
            overrides: list.reduce((s, g) => s + g.overrides, 0),
            ...capabilityOf(first.kind, 'figures')?.extras?.(list.flatMap(g => itemsOf.get(g) ?? [])),
        });
        const outdated = outdatedFigure(list.flatMap(g => itemsOf.get(g) ?? []));
        if (outdated) out[out.length - 1]!.outdated = outdated;
        if (list.every(g => g.notApplicable)) notApplicable(out[out.length - 1]!);
    }
    return out;
}
