/**
 * Scores of evidence probes per metric group: exact match and token F1 (SQuAD-style, alias-aware), and per swapped
 * case whether the answer followed the passage, stayed with the original value (stale: memory over context) or
 * was something else; accuracy on each case kind and the drop from the seed, with intervals.
 */
import type { Question } from '../../probes/question.js';
import type { ReportSection } from '../../probes/family.js';
import type { Verdict } from '../../verify/types.js';
import { figure, figuresOf, MODE_LABELS, type Figure, type GroupMetrics } from '../../verify/figures.js';
import { ciText, pct } from '../../report/numbers.js';
import { exactMatch, states, tokenF1 } from './text.js';

export type SwapOutcome = 'followed' | 'stale' | 'other';

export interface EvidenceFigures {
    /** Per case kind (seed, swap, enrich, closed): answers, accuracy (the gold stated), exact match, mean token F1. */
    byKind: Record<string, { n: number; accuracy: Figure; exact: Figure; f1: number }>;
    /** Swapped cases: followed the passage, stale (the original value), other. */
    swap: { n: number; followed: Figure; stale: Figure; other: Figure } | undefined;
}

const goldOf = (q: Question) => (typeof q.gold === 'object' ? q.gold.answer : String(q.gold));

/** What a swapped case's answer did. */
export function swapOutcome(q: Question, response: string): SwapOutcome {
    if (states(response, [goldOf(q)])) return 'followed';
    if (states(response, q.evidence?.aliases ?? [])) return 'stale';
    return 'other';
}

export function evidenceFigures(items: readonly { v: Verdict; q: Question }[]): EvidenceFigures {
    const kinds = new Map<string, { v: Verdict; q: Question }[]>();
    for (const i of items) {
        const k = i.q.evidence?.kind ?? 'seed';
        kinds.set(k, [...(kinds.get(k) ?? []), i]);
    }
    const byKind: EvidenceFigures['byKind'] = {};
    for (const [k, list] of kinds) {
        const golds = (q: Question) => (k === 'swap' ? [goldOf(q)] : [goldOf(q), ...(q.evidence?.aliases ?? [])]);
        byKind[k] = {
            n: list.length,
            accuracy: figure(list.filter(i => i.v.override?.correct ?? i.v.correct).length, list.length),
            exact: figure(list.filter(i => exactMatch(i.v.rationaleText, golds(i.q))).length, list.length),
            f1: list.reduce((s, i) => s + tokenF1(i.v.rationaleText, golds(i.q)), 0) / list.length,
        };
    }
    const swaps = kinds.get('swap') ?? [];
    const outcomes = swaps.map(i => swapOutcome(i.q, i.v.rationaleText));
    const count = (o: SwapOutcome) => figure(outcomes.filter(x => x === o).length, outcomes.length);
    return { byKind, swap: swaps.length ? { n: swaps.length, followed: count('followed'), stale: count('stale'), other: count('other') } : undefined };
}

/** The evidence figures of a group (GroupMetrics' figure slot, key `evidence`). */
export const evidenceOf = (g: GroupMetrics) => figuresOf<EvidenceFigures>(g, 'evidence');

export function evidenceExtras(items: readonly { v: Verdict; q: Question }[]): Partial<GroupMetrics> {
    return items.length ? { figures: { evidence: evidenceFigures(items) } } : {};
}

const f = (x: Figure) => `${pct(x.value)} ${ciText(x.ci)}`;

export function evidenceSections(groups: readonly GroupMetrics[]): ReportSection[] {
    const shown = groups.filter(g => evidenceOf(g) && !g.na);
    if (shown.length === 0) return [];
    // Every case kind is its own metric group (its phrasing); the swap group carries the outcomes.
    const head = (g: GroupMetrics) => [g.model, g.probe, g.phrasing, g.variant, MODE_LABELS[g.mode]];
    const sections: ReportSection[] = [{
        title: 'Evidence: accuracy, exact match and F1 per case',
        columns: ['model', 'probe', 'case', 'variant', 'mode', 'n', 'accuracy', 'exact match', 'token F1'],
        rows: shown.flatMap(g => Object.entries(evidenceOf(g)!.byKind).map(([, k]) => [...head(g), String(k.n), f(k.accuracy), f(k.exact), k.f1.toFixed(2)])),
    }];
    const swaps = shown.filter(g => evidenceOf(g)!.swap);
    if (swaps.length) {
        sections.push({
            title: 'Evidence: swapped answers — followed the passage or stale',
            columns: ['model', 'probe', 'case', 'variant', 'mode', 'swapped cases', 'followed', 'stale (memory over context)', 'other', 'accuracy drop from the seed'],
            rows: swaps.map(g => {
                const s = evidenceOf(g)!.swap!;
                // The seed is its own metric group (phrasing 'seed') of the same model, probe, variant and mode.
                const seed = shown.find(x => x.model === g.model && x.probe === g.probe && x.variant === g.variant && x.mode === g.mode && x.phrasing === 'seed');
                const drop = seed && seed.A !== null && g.A !== null ? (seed.A - g.A).toFixed(2) : 'n/a';
                return [...head(g), String(s.n), f(s.followed), f(s.stale), f(s.other), drop];
            }),
        });
    }
    return sections;
}
