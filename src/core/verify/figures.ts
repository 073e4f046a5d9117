/**
 * The figures of a group of verdicts, as every room below the registry sees them: proportions with Wilson
 * intervals and the group's shape (\`GroupMetrics\`, with a generic slot for a family's own figures; a family whose
 * figures are group fields of their own — path's R-ext and hops, choice's error rates — adds them to the interface
 * from its folder, as \`QuestionData\` is augmented). A leaf: it imports types only, never the registry,
 * so a family can use it without a cycle (src/core/verify/metrics.ts computes the groups through the registry).
 */
import type { Question } from '../probes/question.js';
import type { Verdict } from './types.js';

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
    all: 'all questions',
    known: 'entities the model knows',
    all_known: 'entities all models know',
};

/** A proportion with its counts and interval. */
export interface Figure {
    k: number;
    n: number;
    value: number | null;
    ci: Interval | null;
}

export function figure(k: number, n: number): Figure {
    return { k, n, value: n > 0 ? k / n : null, ci: wilson(k, n) };
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
    A: number | null;
    R: number | null;
    AR: number | null;
    M: number | null;
    H: number | null;
    C: number | null;
    ci: Record<'A' | 'R' | 'AR' | 'M' | 'H' | 'C', Interval | null>;
    /** Figures that do not apply to the group (null, shown "n/a"): R, AR and C where no question has keywords. */
    notApplicable?: ('R' | 'AR' | 'C')[];
    counts: {
        correct: number;
        present: number;
        correctPresent: number;
        unsure: number;
        unparseable: number;
        contradicted: number;
        hallucinated: number;
    };
    /** Groups of dated questions (`as of`): the share answered wrong with a claim placed later (verify/outdated.ts); part of H. */
    outdated?: Figure;
    /**
     * A family's own figures, under keys it names (open: \`open\`, statement: \`statements\`, evidence: \`evidence\`,
     * rule: \`rules\`): plain data. Every report format writes them without knowing them: JSON as a field of the
     * group named by the key, md / html / csv / JUnit through the family's \`figures.columns\`.
     */
    figures?: Record<string, unknown>;
    /** Overrides applied to this group's verdicts. */
    overrides: number;
}

export function entityKey(q: Question): string {
    return `${q.entity.relation}\u0000${q.entity.key.join('\u0000')}`;
}

export const effectiveCorrect = (v: Verdict) => v.override?.correct ?? v.correct;

/** Every keyword of every hop written (an override of the rationale decides instead). */
export function keywordsPresent(v: Verdict): boolean {
    if (v.override?.rationale !== undefined) return v.override.rationale;
    return v.hops.length > 0 && v.hops.every(h => h.keywords.every(k => k.spans.length > 0));
}

export function hopPresent(v: Verdict, hop: number): boolean {
    const h = v.hops[hop];
    return !!h && h.keywords.every(k => k.spans.length > 0);
}

/** The outdated share of a group whose questions are dated (undefined when none is): an override accepting the answer clears it. */
export function outdatedFigure(items: readonly { v: Verdict; q: Question }[]): Figure | undefined {
    if (!items.some(i => i.q.asOf)) return undefined;
    return figure(items.filter(i => i.v.outdated && i.v.override?.correct !== true).length, items.length);
}

/** A family's figures of one group under \`key\` (undefined when it has none). */
export function figuresOf<T>(g: Pick<GroupMetrics, 'figures'>, key: string): T | undefined {
    return g.figures?.[key] as T | undefined;
}
