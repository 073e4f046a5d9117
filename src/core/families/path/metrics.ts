/**
 * The path family's own figures, group fields of their own: R-ext, and per hop R, AR-ext and the snowball
 * conditionals (METHODS.md §1), with their JSON fields and the HTML report's per-hop charts.
 */
import type { Question } from '../../probes/question.js';
import type { Verdict } from '../../verify/types.js';
import { effectiveCorrect, figure, hopPresent, type Figure, type GroupMetrics } from '../../verify/figures.js';
import type { ChartSet } from '../../probes/contract/report.js';
import type { FigureColumn } from '../../probes/contract/figures.js';
import { round4, roundCi } from '../../report/numbers.js';
import { groupKey, groupLabel } from '../../report/labels.js';

// The group's path figures, declared from here (the shared GroupMetrics names no family's figures).
declare module '../../verify/figures.js' {
    interface GroupMetrics {
        /** path probes: the mean share of hops recalled, and per hop R, AR-ext and the snowball conditionals. */
        rExt?: Figure;
        hops?: HopMetrics[];
    }
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

/** Fewer cases than this make a snowball conditional n/a (too few to say anything). */
const SNOWBALL_MIN = 4;

/** One question's part in R-ext: the share of its path's hops its rationale names (0 without a hop). */
export function rExtShare(q: Question, v: Verdict): number {
    return q.keywords.length ? q.keywords.filter((_, h) => hopPresent(v, h)).length / q.keywords.length : 0;
}

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
        let r = 0,
            prev = 0,
            prevAnd = 0,
            notPrev = 0,
            notPrevAnd = 0;
        const within = items.filter(i => i.q.keywords.length > h);
        for (const { v } of within) {
            const here = hopPresent(v, h);
            if (here) r++;
            if (h > 0) {
                if (hopPresent(v, h - 1)) {
                    prev++;
                    if (here) prevAnd++;
                } else {
                    notPrev++;
                    if (here) notPrevAnd++;
                }
            }
        }
        const arBase = completeOnly ? complete : within;
        const ar = arBase.filter(i => hopPresent(i.v, h) && effectiveCorrect(i.v)).length;
        presentHops += r;
        totalHops += within.length;
        const m: HopMetrics = { hop: h + 1, r: figure(r, within.length), ar: figure(ar, arBase.length) };
        if (h > 0) {
            m.givenPrevious = snowball(prevAnd, prev);
            m.givenNotPrevious = snowball(notPrevAnd, notPrev);
        }
        hops.push(m);
    }
    // R-ext is a mean of per-question shares; with equal hop counts it equals pooled hops, whose Wilson interval we give.
    const rExt =
        items.length === 0
            ? figure(0, 0)
            : { ...figure(presentHops, totalHops), value: items.reduce((s, i) => s + rExtShare(i.q, i.v), 0) / items.length };
    return { rExt, hops };
}

/** A snowball conditional: n/a (value null) on fewer than SNOWBALL_MIN cases. */
function snowball(k: number, n: number): Figure {
    return n < SNOWBALL_MIN ? { k, n, value: null, ci: null } : figure(k, n);
}

/** The path figures as JSON fields of a group (the report's shape since the first JSON report). */
export function pathJson(g: GroupMetrics): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    if (g.rExt) out.rExt = { value: round4(g.rExt.value), ci: roundCi(g.rExt.ci) };
    if (g.hops)
        out.hops = g.hops.map(h => ({
            hop: h.hop,
            R: round4(h.r.value),
            AR: round4(h.ar.value),
            ci: { R: roundCi(h.r.ci), AR: roundCi(h.ar.ci) },
            givenPrevious: h.givenPrevious && {
                value: round4(h.givenPrevious.value),
                n: h.givenPrevious.n,
                ci: roundCi(h.givenPrevious.ci),
            },
            givenNotPrevious: h.givenNotPrevious && {
                value: round4(h.givenNotPrevious.value),
                n: h.givenNotPrevious.n,
                ci: roundCi(h.givenNotPrevious.ci),
            },
        }));
    return out;
}

/** Per hop, on one line: "1: .92; 2: .91" (a path's hop figures in one CSV cell / JUnit property). */
const byHop = (g: GroupMetrics, get: (h: HopMetrics) => number | null | undefined): string | null =>
    g.hops
        ? g.hops
              .map(h => {
                  const v = get(h);
                  return `${h.hop}: ${v === null || v === undefined ? 'n/a' : String(round4(v))}`;
              })
              .join('; ')
        : null;

/** The path family's figure columns (CSV, JUnit, the md / html figures table): R-ext, and each hop's R, AR-ext and snowball conditionals. */
export const PATH_COLUMNS: readonly FigureColumn[] = [
    { name: 'r_ext', value: g => g.rExt?.value ?? null },
    { name: 'r_by_hop', value: g => byHop(g, h => h.r.value) },
    { name: 'ar_ext_by_hop', value: g => byHop(g, h => h.ar.value) },
    { name: 'p_r_given_previous_by_hop', value: g => byHop(g, h => h.givenPrevious?.value) },
    { name: 'p_r_given_not_previous_by_hop', value: g => byHop(g, h => h.givenNotPrevious?.value) },
];

/** R and AR-ext per hop, one chart per group (the HTML report). */
export function hopCharts(groups: readonly GroupMetrics[]): ChartSet | undefined {
    const charts = groups
        .filter(g => g.hops && !g.na && g.n > 0)
        .map(g => ({
            title: `${groupLabel(groupKey(g))} — per hop`,
            groups: g.hops!.map(h => ({
                lines: [`hop ${h.hop}`],
                bars: [
                    { name: 'R', value: h.r.value, ci: h.r.ci },
                    { name: 'AR', value: h.ar.value, ci: h.ar.ci },
                ],
            })),
        }));
    return charts.length ? { title: 'Paths per hop (charts)', legend: ['R', 'AR'], charts } : undefined;
}
