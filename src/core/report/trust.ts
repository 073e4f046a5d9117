/**
 * The review's trust figures as every report format writes them (computed once in the review room, src/core/review/
 * trust.ts): the one line (or the line saying nobody reviewed the run), the tables md and html show, the JSON object,
 * the CSV columns and the JUnit properties — the same numbers, rounded the same way.
 */
import type { CorrectedFigure, TrustGroup, TrustReport } from '../review/trust.js';
import { belowAgreement, LABEL_VALUES, NO_REVIEW_LINE } from '../review/trust.js';
import type { ReportSection } from '../probes/contract/report.js';
import type { Figure } from '../verify/figures.js';
import { groupLabel } from './labels.js';
import { ciText, pct, round4, roundCi } from './numbers.js';

const CORRECTED = ['A', 'H', 'M', 'R'] as const;

/** `0.96 [0.91, 0.98] on 80 reviewed`, or n/a. */
export function agreementText(f: Figure): string {
    return f.value === null ? 'n/a (no label yet)' : `${pct(f.value)} ${ciText(f.ci)} on ${f.n} reviewed`;
}

const correctedText = (c: CorrectedFigure | undefined) => (c ? `${pct(c.value)} ${ciText(c.ci)}` : 'n/a');

/** The report's one line about review: who labelled how much and the reader's agreement, or that nobody reviewed. */
export function trustLine(t: TrustReport): string {
    if (t.labels === 0) return NO_REVIEW_LINE;
    const kappa = t.kappa.filter(k => k.kappa !== null).map(k => `${k.a}–${k.b} κ ${pct(k.kappa)} on ${k.n}`);
    return `Reviewed: ${t.labels} label${t.labels === 1 ? '' : 's'} by ${t.reviewers.join(', ')}; the reader agrees with them ${agreementText(t.overall)}${kappa.length ? `; between reviewers ${kappa.join(', ')}` : ''}.`;
}

const keyOf = (g: TrustGroup) =>
    groupLabel({ model: g.model, probe: g.probe, phrasing: g.phrasing, variant: g.variantId ?? g.variant });

/** The tables md and html show: agreement and corrected figures per group, the confusion tables. */
export function trustSections(t: TrustReport): ReportSection[] {
    if (t.groups.length === 0) return [];
    return [
        {
            title: 'Review: the reader against the labels, and the figures corrected by them',
            columns: [
                'group',
                'family',
                'reviewed',
                'reader agrees',
                'unreadable (labels)',
                'hedged (reader)',
                ...CORRECTED.flatMap(k => [`${k} raw`, `${k} corrected`]),
            ],
            rows: t.groups.map(g => [
                keyOf(g),
                g.kind,
                `${g.reviewed} of ${g.n}`,
                agreementText(g.agreement),
                `${pct(g.unreadable.value)} ${ciText(g.unreadable.ci)}`.trim(),
                `${pct(g.hedged.value)} ${ciText(g.hedged.ci)}`.trim(),
                ...CORRECTED.flatMap(k => [
                    g.corrected[k] ? `${pct(g.corrected[k]!.raw)} ${ciText(g.corrected[k]!.rawCi)}`.trim() : 'n/a',
                    correctedText(g.corrected[k]),
                ]),
            ]),
        },
        {
            title: 'Review: reader verdict × label',
            columns: ['group', 'reader', ...LABEL_VALUES.map(l => `label ${l}`)],
            rows: t.groups.flatMap(g =>
                (['pass', 'fail', 'unreadable'] as const).map(c => [
                    keyOf(g),
                    c,
                    ...LABEL_VALUES.map(l => String(g.confusion[c][l])),
                ]),
            ),
        },
    ];
}

const fig = (f: Figure) => ({ k: f.k, n: f.n, value: round4(f.value), ci: roundCi(f.ci) });
const corrected = (c: CorrectedFigure) => ({
    raw: round4(c.raw),
    rawCi: roundCi(c.rawCi),
    value: round4(c.value),
    ci: roundCi(c.ci),
    labelled: c.labelled,
});

/** The JSON report's `trust` object. */
export function trustJson(t: TrustReport): Record<string, unknown> {
    if (t.labels === 0) return { reviewed: false, note: NO_REVIEW_LINE };
    return {
        reviewed: true,
        labels: t.labels,
        reviewers: t.reviewers,
        agreement: fig(t.overall),
        kappa: t.kappa.map(k => ({ ...k, kappa: round4(k.kappa) })),
        groups: t.groups.map(g => ({
            model: g.model,
            probe: g.probe,
            kind: g.kind,
            phrasing: g.phrasing,
            variant: g.variant,
            variantId: g.variantId ?? g.variant,
            n: g.n,
            reviewed: g.reviewed,
            agreement: fig(g.agreement),
            confusion: g.confusion,
            unreadable: fig(g.unreadable),
            hedged: fig(g.hedged),
            corrected: Object.fromEntries(CORRECTED.flatMap(k => (g.corrected[k] ? [[k, corrected(g.corrected[k]!)]] : []))),
        })),
    };
}

/** The trust group of a metrics group (all-questions mode), if it has one. */
export function trustOf(
    t: TrustReport,
    g: { model: string; probe: string; phrasing: string; variant: string; variantId?: string; mode: string },
): TrustGroup | undefined {
    if (g.mode !== 'all') return undefined;
    return t.groups.find(
        x =>
            x.model === g.model &&
            x.probe === g.probe &&
            x.phrasing === g.phrasing &&
            (x.variantId ?? x.variant) === (g.variantId ?? g.variant),
    );
}

/** The CSV columns of the trust figures (after the metrics'), and a group's cells: n/a where it has none. */
export const TRUST_COLUMNS = [
    'reviewed',
    'agreement',
    'agreement_low',
    'agreement_high',
    ...CORRECTED.flatMap(k => [`${k}_corrected`, `${k}_corrected_low`, `${k}_corrected_high`]),
];

export function trustCells(t: TrustGroup | undefined): (number | string | null)[] {
    if (!t) return [0, ...TRUST_COLUMNS.slice(1).map(() => 'n/a')];
    const ci = (x: [number, number] | null) => (x ? [round4(x[0]), round4(x[1])] : ['n/a', 'n/a']);
    return [
        t.reviewed,
        t.agreement.value === null ? 'n/a' : round4(t.agreement.value),
        ...ci(t.agreement.ci),
        ...CORRECTED.flatMap(k =>
            t.corrected[k] ? [round4(t.corrected[k]!.value), ...ci(t.corrected[k]!.ci)] : ['n/a', 'n/a', 'n/a'],
        ),
    ];
}

/** The JUnit properties of one group's trust figures (named by its phrasing, as the figure properties are). */
export function trustProperties(t: TrustGroup): [string, string][] {
    return [
        [`${t.phrasing} reader agreement`, agreementText(t.agreement)],
        ...CORRECTED.flatMap(k =>
            t.corrected[k] ? [[`${t.phrasing} ${k} corrected`, correctedText(t.corrected[k])] as [string, string]] : [],
        ),
    ];
}

/**
 * The `--min-agreement` gate: the families whose reader agreement (a group's, on its labels) is below `min`, each with
 * its groups; a run nobody reviewed fails it too (its agreement is unknown). Empty when the gate passes.
 */
export function agreementGate(t: TrustReport, min: number): string[] {
    if (t.labels === 0 || t.overall.n === 0) return [`reader agreement unknown: ${NO_REVIEW_LINE}`];
    const below = belowAgreement(t, min);
    const families = [...new Set(below.map(g => g.kind))];
    return families.map(
        kind =>
            `reader agreement below ${min} for the ${kind} family: ${below
                .filter(g => g.kind === kind)
                .map(g => `${keyOf(g)} ${agreementText(g.agreement)}`)
                .join('; ')}`,
    );
}
