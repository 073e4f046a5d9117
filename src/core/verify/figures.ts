/**
 * The figures of a group of verdicts, as every room below the registry sees them: proportions with Wilson
 * intervals, the group's shape (\`GroupMetrics\`, with a generic slot for a family's own figures) and the path
 * figures (R-ext, AR-ext per hop, snowball conditionals). A leaf: it imports types only, never the registry,
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
    all: 'all questions', known: 'entities the model knows', all_known: 'entities all models know',
};

/** A proportion with its counts and interval. */
export interface Figure { k: number; n: number; value: number | null; ci: Interval | null }

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
    /** Figures that do not apply to the group (null, shown "n/a"): R, AR and C where no question has keywords. */
    notApplicable?: ('R' | 'AR' | 'C')[];
    counts: { correct: number; present: number; correctPresent: number; unsure: number; unparseable: number; contradicted: number; hallucinated: number };
    /** path probes */
    rExt?: Figure;
    hops?: HopMetrics[];
    /** choice probes */
    multiple?: Figure;
    binding?: Figure;
    /** Groups of dated questions (\`as of\`): the share answered wrong with a claim placed later (verify/outdated.ts); part of H. */
    outdated?: Figure;
    /**
     * A family's own figures, under keys it names (open: \`open\`, statement: \`statements\`, evidence: \`evidence\`,
     * rule: \`rules\`): plain data. Every report format writes them without knowing them: JSON as a field of the
     * group named by the key, md / html / csv / JUnit through the family's \`figureColumns\`.
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
