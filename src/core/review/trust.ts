/**
 * How far to trust a run's figures, from its review labels — computed once here, presented by every report format
 * and the editor: per metrics group (model × probe × phrasing × variant, all questions) the reader's agreement with
 * the labels (Wilson interval), the confusion table, the unreadable and hedged shares, and A / M / H (and R where
 * labels judged the rationale) corrected by the labels with prediction-powered inference (ppi.ts), beside the raw
 * figures; and Cohen's κ between each pair of reviewers. One label per answer counts: the latest that is not unsure.
 */
import type { Question } from '../probes/question.js';
import type { ReviewLabel, ReviewLabelValue } from '../store/types.js';
import { effectiveCorrect, figure, keywordsPresent, type Figure, type GroupMetrics, type Interval } from '../verify/figures.js';
import type { Verdict } from '../verify/types.js';
import { ppiShare } from './ppi.js';
import { agreementOf, slotOf } from './sample.js';
import { readerClass, stratumOf, type ReaderClass } from './strata.js';

export const LABEL_VALUES: readonly ReviewLabelValue[] = ['pass', 'fail', 'unsure', 'unreadable'];
const READER_CLASSES: readonly ReaderClass[] = ['pass', 'fail', 'unreadable'];

/** A figure as the reader has it and as the labels correct it. */
export interface CorrectedFigure {
    raw: number | null;
    rawCi: Interval | null;
    value: number;
    ci: Interval;
    labelled: number;
}

/** A metric group's trust figures; the group named as the metrics name it. */
export interface TrustGroup extends Pick<GroupMetrics, 'model' | 'probe' | 'kind' | 'phrasing' | 'variant' | 'variantId'> {
    /** Answers in the group, and those with a label that counts (not unsure). */
    n: number;
    reviewed: number;
    agreement: Figure;
    /** Reader class × label: how many answers. */
    confusion: Record<ReaderClass, Record<ReviewLabelValue, number>>;
    /** Labels saying no answer can be read, of the labels that count; answers the reader read as hedged, of all. */
    unreadable: Figure;
    hedged: Figure;
    corrected: { A?: CorrectedFigure; M?: CorrectedFigure; H?: CorrectedFigure; R?: CorrectedFigure };
}

interface ReviewerAgreement {
    a: string;
    b: string;
    n: number;
    agree: number;
    kappa: number | null;
}

export interface TrustReport {
    /** Labels of the run (every reviewer's) and the reviewers. */
    labels: number;
    reviewers: string[];
    groups: TrustGroup[];
    /** The reader's agreement over every group's counted labels. */
    overall: Figure;
    kappa: ReviewerAgreement[];
}

/** One line for a run nobody reviewed, the same in every face. */
export const NO_REVIEW_LINE =
    "Not reviewed: no answer of this run has a review label, so the reader's agreement is unknown (halluprobe review).";

/** Cohen's κ for two raters over categorical labels. */
export function cohensKappaOf(pairs: readonly [string, string][]): number | null {
    const n = pairs.length;
    if (n === 0) return null;
    const cats = [...new Set(pairs.flat())];
    const po = pairs.filter(([a, b]) => a === b).length / n;
    const pe = cats.reduce(
        (s, c) => s + (pairs.filter(p => p[0] === c).length / n) * (pairs.filter(p => p[1] === c).length / n),
        0,
    );
    return pe === 1 ? (po === 1 ? 1 : null) : (po - pe) / (1 - pe);
}

/** The label that counts per answer: the latest one that is not unsure (else the latest). */
export function countingLabels(labels: readonly ReviewLabel[]): Map<string, ReviewLabel> {
    const out = new Map<string, ReviewLabel>();
    for (const l of [...labels].sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0))) {
        const before = out.get(slotOf(l));
        if (!before || l.label !== 'unsure' || before.label === 'unsure') out.set(slotOf(l), l);
    }
    return out;
}

export interface TrustRow {
    question: Question;
    verdict: Verdict;
    rawModel: string;
}

const same = (g: GroupMetrics, r: TrustRow) =>
    r.verdict.model === g.model &&
    r.question.probe === g.probe &&
    r.question.phrasing === g.phrasing &&
    (r.question.variantId ?? r.question.variant) === (g.variantId ?? g.variant);

function corrected(
    f: number[],
    strata: string[],
    y: Map<number, number>,
    raw: number | null,
    rawCi: Interval | null,
): CorrectedFigure | undefined {
    const e = ppiShare(f, strata, y);
    if (!e) return undefined;
    return { raw, rawCi, value: e.value, ci: e.ci, labelled: e.labelled };
}

/** The trust figures of a report's groups (all-questions mode) from the run's labels. */
export function computeTrust(
    groups: readonly GroupMetrics[],
    rows: readonly TrustRow[],
    labels: readonly ReviewLabel[],
): TrustReport {
    const counting = countingLabels(labels);
    const reviewers = [...new Set(labels.map(l => l.reviewer))].sort();
    const out: TrustReport = {
        labels: labels.length,
        reviewers,
        groups: [],
        overall: figure(0, 0),
        kappa: reviewerKappas(labels, reviewers),
    };
    if (labels.length === 0) return out;
    for (const g of groups) {
        if (g.mode !== 'all' || g.na || g.n === 0) continue;
        const mine = rows.filter(r => same(g, r));
        if (mine.length === 0) continue;
        const labelOf = (r: TrustRow) =>
            counting.get(slotOf({ questionId: r.question.id, model: r.rawModel, sample: r.verdict.sample }));
        const labelled = mine.map(labelOf);
        const confusion = Object.fromEntries(
            READER_CLASSES.map(c => [c, Object.fromEntries(LABEL_VALUES.map(l => [l, 0]))]),
        ) as TrustGroup['confusion'];
        mine.forEach((r, i) => {
            const l = labelled[i];
            if (l) confusion[readerClass(r.verdict, true)][l.label]++;
        });
        const judged = mine.flatMap((r, i) =>
            labelled[i] && labelled[i]!.label !== 'unsure' ? [{ verdict: r.verdict, label: labelled[i]!.label, i }] : [],
        );
        const strata = mine.map(r => stratumOf(r.question.kind, r.verdict));
        const shares = (k: (v: Verdict) => boolean, y: (l: ReviewLabel, r: TrustRow) => number | undefined) => {
            const f = mine.map(r => (k(r.verdict) ? 1 : 0));
            const ys = new Map<number, number>();
            judged.forEach(j => {
                const v = y(labelled[j.i]!, mine[j.i]!);
                if (v !== undefined) ys.set(j.i, v);
            });
            return { f, ys };
        };
        const group: TrustGroup = {
            model: g.model,
            probe: g.probe,
            kind: g.kind,
            phrasing: g.phrasing,
            variant: g.variant,
            n: mine.length,
            reviewed: judged.length,
            agreement: agreementOf(judged),
            confusion,
            unreadable: figure(judged.filter(j => j.label === 'unreadable').length, judged.length),
            hedged: figure(mine.filter(r => r.verdict.read?.stance === 'hedged').length, mine.length),
            corrected: {},
        };
        if (g.variantId) group.variantId = g.variantId;
        const fig = (
            key: 'A' | 'M' | 'H' | 'R',
            k: (v: Verdict) => boolean,
            y: (l: ReviewLabel, r: TrustRow) => number | undefined,
        ) => {
            const { f, ys } = shares(k, y);
            const c = corrected(f, strata, ys, g[key], g.ci[key]);
            if (c) group.corrected[key] = c;
        };
        fig(
            'A',
            v => effectiveCorrect(v),
            l => (l.label === 'pass' ? 1 : 0),
        );
        fig(
            'M',
            v => !effectiveCorrect(v) && readerClass(v) === 'unreadable',
            l => (l.label === 'unreadable' ? 1 : 0),
        );
        fig(
            'H',
            v => readerClass(v) === 'fail',
            l => (l.label === 'fail' ? 1 : 0),
        );
        if (g.R !== null)
            fig(
                'R',
                v => keywordsPresent(v),
                l => (l.rationale === undefined ? undefined : l.rationale ? 1 : 0),
            );
        out.groups.push(group);
    }
    out.overall = figure(
        out.groups.reduce((k, g) => k + g.agreement.k, 0),
        out.groups.reduce((n, g) => n + g.agreement.n, 0),
    );
    return out;
}

function reviewerKappas(labels: readonly ReviewLabel[], reviewers: readonly string[]): ReviewerAgreement[] {
    const out: ReviewerAgreement[] = [];
    const of = (r: string) => new Map(labels.filter(l => l.reviewer === r).map(l => [slotOf(l), l.label]));
    for (let i = 0; i < reviewers.length; i++) {
        for (let j = i + 1; j < reviewers.length; j++) {
            const a = of(reviewers[i]!),
                b = of(reviewers[j]!);
            const pairs = [...a].flatMap(([slot, la]) => (b.has(slot) ? [[la, b.get(slot)!] as [string, string]] : []));
            out.push({
                a: reviewers[i]!,
                b: reviewers[j]!,
                n: pairs.length,
                agree: pairs.filter(([x, y]) => x === y).length,
                kappa: cohensKappaOf(pairs),
            });
        }
    }
    return out;
}

/** The groups whose reader agreement is below `min` (measured on at least one label): what `--min-agreement` fails on. */
export function belowAgreement(trust: TrustReport, min: number): TrustGroup[] {
    return trust.groups.filter(g => g.agreement.value !== null && g.agreement.value < min);
}
