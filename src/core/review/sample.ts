/**
 * The review sample, one engine step for every face: a run's answers in review order — stratified by family ×
 * the reader's class × how it read the answer (strata.ts): every answer where the readers disagree first, then
 * unverifiable claims, then the other strata in turn, each stratum's answers in a seeded shuffle — so the same seed gives the same order, and a review that
 * stopped resumes where it was (the answers a reviewer labelled already are passed over). A target half-width says
 * how many labels the reader's agreement still needs (Wilson interval).
 */
import { prng } from '../probes/sampling.js';
import type { Question } from '../probes/question.js';
import type { ReviewLabel, RunResults } from '../store/types.js';
import { figure, wilson, type Figure } from '../verify/figures.js';
import type { Verdict } from '../verify/types.js';
import { isMeasured } from '../verify/passed.js';
import { readerClass, stratumOf, stratumPriority } from './strata.js';

export interface ReviewItem {
    question: Question;
    verdict: Verdict;
    response: string;
    stratum: string;
}

export const slotOf = (x: { questionId: string; model: string; sample: number }) =>
    `${x.questionId}\u0000${x.model}\u0000${x.sample}`;

/** Which answers a review takes: one family's, some probes' (a spec line's), one model's; every answer when empty. */
export interface ReviewFilter {
    family?: string;
    probes?: readonly string[];
    model?: string;
}

/** Every measured, answered slot of a run (optionally of a family, probes or a model), with its stratum. */
export function reviewItems(
    results: Pick<RunResults, 'questions' | 'answers' | 'verdicts'>,
    filter: ReviewFilter = {},
): ReviewItem[] {
    const { family, probes, model } = filter;
    const questions = new Map(results.questions.map(q => [q.id, q]));
    const responses = new Map(results.answers.map(a => [slotOf(a), a.text]));
    const items: ReviewItem[] = [];
    for (const v of results.verdicts) {
        const q = questions.get(v.questionId);
        if (!q || !isMeasured(q) || (family !== undefined && q.kind !== family)) continue;
        if ((probes !== undefined && !probes.includes(q.probe)) || (model !== undefined && v.model !== model)) continue;
        items.push({ question: q, verdict: v, response: responses.get(slotOf(v)) ?? '', stratum: stratumOf(q.kind, v) });
    }
    return items;
}

/** The items in review order for this seed: strata round-robin (priority strata first), each shuffled. */
export function reviewOrder(items: readonly ReviewItem[], seed = 1): ReviewItem[] {
    const by = new Map<string, ReviewItem[]>();
    for (const it of [...items].sort((a, b) => (slotOf(a.verdict) < slotOf(b.verdict) ? -1 : 1))) {
        // Appended in place: copying the stratum's list for each item made this quadratic in a stratum's size.
        const list = by.get(it.stratum);
        if (list) list.push(it);
        else by.set(it.stratum, [it]);
    }
    const random = prng(seed);
    const strata = [...by.keys()]
        .sort((a, b) => stratumPriority(a) - stratumPriority(b) || (a < b ? -1 : 1))
        .map(name => {
            const list = by.get(name)!;
            for (let i = list.length - 1; i > 0; i--) {
                const j = Math.floor(random() * (i + 1));
                [list[i], list[j]] = [list[j]!, list[i]!];
            }
            return { name, list };
        });
    const out: ReviewItem[] = [];
    // Every answer of the priority strata first (readers disagreeing, then unverifiable claims), each level in turns.
    for (const p of [0, 1, 2]) {
        const level = strata.filter(s => stratumPriority(s.name) === p);
        const size = level.reduce((n, s) => n + s.list.length, 0);
        for (let round = 0, taken = 0; taken < size; round++)
            for (const s of level)
                if (round < s.list.length) {
                    out.push(s.list[round]!);
                    taken++;
                }
    }
    return out;
}

/** The reader's agreement with these labels: same class, over labels other than unsure. */
export function agreementOf(items: readonly { verdict: Verdict; label: ReviewLabel['label'] }[]): Figure {
    const judged = items.filter(i => i.label !== 'unsure');
    return figure(judged.filter(i => readerClass(i.verdict, true) === i.label).length, judged.length);
}

/**
 * How many more labels bring the agreement's Wilson 95 % interval to ± `target` (half its width), at the agreement
 * seen so far (one half before any label): 0 when it is there already.
 */
export function labelsNeeded(agree: number, labelled: number, target: number): number {
    const p = labelled > 0 ? agree / labelled : 0.5;
    const half = (n: number) => {
        const ci = wilson(p * n, n)!;
        return (ci[1] - ci[0]) / 2;
    };
    if (labelled > 0 && half(labelled) <= target) return 0;
    let hi = Math.max(1, labelled);
    while (half(hi) > target) hi *= 2;
    let lo = Math.max(labelled, Math.floor(hi / 2));
    while (lo < hi) {
        const mid = Math.floor((lo + hi) / 2);
        if (half(mid) <= target) hi = mid;
        else lo = mid + 1;
    }
    return Math.max(0, hi - labelled);
}

export interface ReviewPlanOptions {
    reviewer: string;
    seed?: number;
    n?: number;
    target?: number;
}

export interface ReviewPlan {
    /** The next answers to label, in order (the first `n`, or as many as the target needs; every one left otherwise). */
    next: ReviewItem[];
    /** Answers this reviewer labelled already, and the reader's agreement with those labels. */
    labelled: number;
    agreement: Figure;
    /** With a target: how many more labels it needs. */
    needed?: number;
    total: number;
}

/** The next items for a reviewer: resumes after what they labelled, `n` of them or what `target` needs. */
export function reviewPlan(items: readonly ReviewItem[], labels: readonly ReviewLabel[], o: ReviewPlanOptions): ReviewPlan {
    const mine = new Map(labels.filter(l => l.reviewer === o.reviewer).map(l => [slotOf(l), l]));
    const ordered = reviewOrder(items, o.seed);
    const done = ordered.filter(i => mine.has(slotOf(i.verdict)));
    const agreement = agreementOf(done.map(i => ({ verdict: i.verdict, label: mine.get(slotOf(i.verdict))!.label })));
    const left = ordered.filter(i => !mine.has(slotOf(i.verdict)));
    const plan: ReviewPlan = { next: left, labelled: done.length, agreement, total: ordered.length };
    if (o.target !== undefined) {
        plan.needed = labelsNeeded(agreement.k, agreement.n, o.target);
        plan.next = left.slice(0, plan.needed);
    }
    if (o.n !== undefined) plan.next = plan.next.slice(0, o.n);
    return plan;
}
