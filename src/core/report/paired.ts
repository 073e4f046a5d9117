/**
 * Paired comparisons of cells — a (run, model, prompt variant) — over the same questions (`halluprobe compare`):
 * every question is asked of every cell with a known gold, so two cells are compared question by question.
 *
 * Per figure (A, H, R, AR, and a family's per-question figures) and scope (a report group's probe · phrasing, or a
 * whole probe with `by: 'probe'`), every comparable pair of cells gets the difference b − a over the questions both
 * answered, a 95 % interval and a p-value (verify/paired.ts): Tango's score interval and McNemar's exact test when
 * each question is one 0/1 outcome of its own; a cluster bootstrap and a sign-flip test over the shared facts when
 * questions share a row (phrasings pooled by `by: 'probe'`), a model answered several samples, or the figure is not
 * a proportion. The p-values of one matrix (one figure in one scope) are adjusted together (Holm, or
 * Benjamini–Hochberg), and a winner is named only where the adjusted p-value is below alpha. The questions that
 * flipped each way are listed.
 */
import type { Question } from '../probes/question.js';
import type { Verdict } from '../verify/types.js';
import { capabilityOf, coreOf } from '../probes/registry.js';
import { verdictOutcomes } from '../verify/metrics.js';
import {
    adjust,
    clusterBootstrap,
    clusterDifference,
    mcnemarExact,
    signFlipTest,
    tangoInterval,
    Z95,
    normalQuantile,
    type Correction,
    type Interval,
    type PairedCluster,
} from '../verify/paired.js';
import { variantId } from './labels.js';
import type { ReportData } from './model.js';

interface Cell {
    id: string;
    run: string;
    model: string;
    variant: string;
}

export interface Flip {
    question: string;
    probe: string;
    phrasing: string;
    entity: string;
    a: number;
    b: number;
}

export interface PairedDifference {
    figure: string;
    probe: string;
    phrasing?: string;
    a: string;
    b: string;
    /** Questions answered by both cells, and the clusters (shared facts) they fall in. */
    n: number;
    clusters: number;
    valueA: number;
    valueB: number;
    /** b − a. */
    delta: number;
    ci: Interval;
    p: number;
    /** The p-value adjusted over the pairs of its matrix. */
    pAdjusted: number;
    method: 'tango-mcnemar' | 'cluster-bootstrap';
    /** The cell the adjusted test favours (higher A, R, AR; lower H), absent when it says nothing. */
    winner?: string;
    /** Questions scoring 1 (more) on b than on a, and on a than on b. */
    flips: { toB: Flip[]; toA: Flip[] };
}

export interface PairedMatrix {
    figure: string;
    probe: string;
    phrasing?: string;
    higherIsBetter: boolean;
    cells: string[];
    pairs: PairedDifference[];
}

export interface CellComparison {
    runs: string[];
    cells: Cell[];
    by: 'phrasing' | 'probe';
    correction: Correction;
    alpha: number;
    seed: number;
    matrices: PairedMatrix[];
    /** The share of paired questions whose A differs between two cells (pooled over the pairs): what power needs. */
    discordant: number | null;
}

export interface PairedOptions {
    figures?: string[];
    by?: 'phrasing' | 'probe';
    correction?: Correction;
    alpha?: number;
    seed?: number;
    /** Interval level for every pair (default 0.95); the CI gate widens it for several comparisons. */
    level?: number;
}

/** The figures every family has per question; a family adds its own through `questionFigures`. */
export const PAIRED_FIGURES = ['A', 'H', 'R', 'AR'] as const;
const HIGHER_IS_BETTER: Record<string, boolean> = { A: true, H: false, R: true, AR: true, M: false };

interface Outcomes {
    question: Question;
    values: Map<string, number[]>;
}

/** A question's identity across cells: what it asks of which row, not the prompt variant (which the id includes). */
const pairKey = (q: Question) => [q.probe, q.phrasing, q.entity.relation, ...q.entity.key, q.question].join('\u0000');
const clusterKey = (q: Question) => [q.probe, q.entity.relation, ...q.entity.key].join('\u0000');

/** Each figure's per-question outcome of a verdict: the shared ones and the family's own. */
function outcomesOf(q: Question, v: Verdict): Record<string, number> {
    const out: Record<string, number> = { ...verdictOutcomes(v, q) } as Record<string, number>;
    for (const f of capabilityOf(q.kind, 'figures')?.questionFigures ?? []) {
        const x = f.outcome(q, v);
        if (x !== null && Number.isFinite(x)) out[f.name] = x;
    }
    return out;
}

/** A 0/1 outcome per question (the shared figures, a family's declared proportions); a score is always bootstrapped. */
function isProportion(figure: string, kinds: Iterable<string>): boolean {
    if (figure in HIGHER_IS_BETTER) return true;
    for (const k of kinds) {
        const f = capabilityOf(k, 'figures')?.questionFigures?.find(x => x.name === figure);
        if (f) return f.proportion === true;
    }
    return false;
}

function betterHigher(figure: string, kinds: Iterable<string>): boolean {
    if (figure in HIGHER_IS_BETTER) return HIGHER_IS_BETTER[figure]!;
    for (const k of kinds) {
        const f = capabilityOf(k, 'figures')?.questionFigures?.find(x => x.name === figure);
        if (f) return f.higherIsBetter;
    }
    return true;
}

/** Cells of some runs: (run, model, variant) in the order first seen. */
function cellsOf(reports: readonly ReportData[]): { cells: Cell[]; rows: Map<string, Map<string, Outcomes>> } {
    const several = reports.length > 1;
    const cells = new Map<string, Cell>();
    const rows = new Map<string, Map<string, Outcomes>>();
    for (const d of reports) {
        for (const r of d.rows) {
            const q = r.question;
            if (!coreOf(q.kind).measured) continue;
            const variant = variantId(q);
            const id = [...(several ? [d.run.id] : []), r.verdict.model, variant].join(' · ');
            if (!cells.has(id)) {
                cells.set(id, { id, run: d.run.id, model: r.verdict.model, variant });
                rows.set(id, new Map());
            }
            const mine = rows.get(id)!;
            const key = pairKey(q);
            let o = mine.get(key);
            if (!o) mine.set(key, (o = { question: q, values: new Map() }));
            for (const [f, x] of Object.entries(outcomesOf(q, r.verdict))) o.values.set(f, [...(o.values.get(f) ?? []), x]);
        }
    }
    return { cells: [...cells.values()], rows };
}

/**
 * Which cells are compared: cells of one run always; across runs the same variant of the same model (a model before
 * and after), or of any model when every run asked one model (one model each, whatever their names).
 */
function comparable(x: Cell, y: Cell, oneModelRuns: boolean): boolean {
    return x.run === y.run || (x.variant === y.variant && (oneModelRuns || x.model === y.model));
}

const mean = (xs: readonly number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;

/** One pair of cells on one figure in one scope: null when they share no question with that figure. */
function pairDifference(
    figure: string,
    a: Map<string, Outcomes>,
    b: Map<string, Outcomes>,
    inScope: (q: Question) => boolean,
    o: { seed: number; level: number; clusterBy: (q: Question) => string; proportion?: boolean },
): Omit<PairedDifference, 'figure' | 'probe' | 'phrasing' | 'a' | 'b' | 'pAdjusted' | 'winner'> | null {
    const clusters = new Map<string, PairedCluster>();
    const toB: Flip[] = [],
        toA: Flip[] = [];
    let n = 0,
        singleSamples = true,
        binary = true,
        sumA = 0,
        sumB = 0;
    for (const [key, oa] of a) {
        if (!inScope(oa.question)) continue;
        const xa = oa.values.get(figure),
            xb = b.get(key)?.values.get(figure);
        if (!xa?.length || !xb?.length) continue;
        n++;
        if (xa.length > 1 || xb.length > 1) singleSamples = false;
        if (![...xa, ...xb].every(x => x === 0 || x === 1)) binary = false;
        const ma = mean(xa),
            mb = mean(xb);
        sumA += ma;
        sumB += mb;
        const ck = o.clusterBy(oa.question);
        const c = clusters.get(ck) ?? { a: 0, b: 0, m: 0 };
        clusters.set(ck, { a: c.a + ma, b: c.b + mb, m: c.m + 1 });
        if (ma !== mb) {
            const q = oa.question;
            const flip = {
                question: q.question,
                probe: q.probe,
                phrasing: q.phrasing,
                entity: `${q.entity.relation}(${q.entity.key.join(', ')})`,
                a: ma,
                b: mb,
            };
            (mb > ma ? toB : toA).push(flip);
        }
    }
    if (n === 0) return null;
    const list = [...clusters.values()];
    const simple = o.proportion !== false && singleSamples && binary && list.length === n;
    const valueA = sumA / n,
        valueB = sumB / n;
    if (simple) {
        const z = o.level === 0.95 ? Z95 : normalQuantile(1 - (1 - o.level) / 2);
        return {
            n,
            clusters: n,
            valueA,
            valueB,
            delta: valueB - valueA,
            ci: tangoInterval(toB.length, toA.length, n, z),
            p: mcnemarExact(toB.length, toA.length),
            method: 'tango-mcnemar',
            flips: { toB, toA },
        };
    }
    return {
        n,
        clusters: list.length,
        valueA,
        valueB,
        delta: clusterDifference(list),
        ci: clusterBootstrap(list, o.seed, 2000, o.level),
        p: signFlipTest(list, o.seed),
        method: 'cluster-bootstrap',
        flips: { toB, toA },
    };
}

/** The matrices of every figure and scope over the cells of these runs (one run: its models × variants). */
export function compareCells(reports: readonly ReportData[], options: PairedOptions = {}): CellComparison {
    const by = options.by ?? 'phrasing',
        correction = options.correction ?? 'holm',
        alpha = options.alpha ?? 0.05,
        seed = options.seed ?? 1;
    const { cells, rows } = cellsOf(reports);
    const oneModelRuns =
        reports.length > 1 && reports.every(d => new Set(cells.filter(c => c.run === d.run.id).map(c => c.model)).size <= 1);
    const kinds = new Set<string>();
    // Scopes in the report's order (its groups follow the spec: basic before negated), then any the reports lack.
    const scopes = new Map<string, { probe: string; phrasing?: string }>();
    for (const d of reports)
        for (const g of d.metrics) {
            const s = by === 'probe' ? { probe: g.probe } : { probe: g.probe, phrasing: g.phrasing };
            if (g.phrasing !== 'mean' && coreOf(g.kind).measured) scopes.set(JSON.stringify(s), s);
        }
    for (const r of rows.values())
        for (const o of r.values()) {
            kinds.add(o.question.kind);
            const s = by === 'probe' ? { probe: o.question.probe } : { probe: o.question.probe, phrasing: o.question.phrasing };
            scopes.set(JSON.stringify(s), s);
        }
    const figures = options.figures ?? [
        ...PAIRED_FIGURES,
        ...[...kinds].flatMap(k => (capabilityOf(k, 'figures')?.questionFigures ?? []).map(f => f.name)),
    ];
    const clusterBy = by === 'probe' ? clusterKey : (q: Question) => `${pairKey(q)}`;
    const matrices: PairedMatrix[] = [];
    let discordantK = 0,
        discordantN = 0;
    for (const scope of scopes.values()) {
        const inScope = (q: Question) =>
            q.probe === scope.probe && (scope.phrasing === undefined || q.phrasing === scope.phrasing);
        for (const figure of figures) {
            const pairs: PairedDifference[] = [];
            const proportion = isProportion(figure, kinds);
            const present = cells.filter(c =>
                [...rows.get(c.id)!.values()].some(o => inScope(o.question) && o.values.has(figure)),
            );
            for (let i = 0; i < present.length; i++)
                for (let j = i + 1; j < present.length; j++) {
                    const [x, y] = [present[i]!, present[j]!];
                    if (!comparable(x, y, oneModelRuns)) continue;
                    const d = pairDifference(figure, rows.get(x.id)!, rows.get(y.id)!, inScope, {
                        seed,
                        level: options.level ?? 0.95,
                        clusterBy,
                        proportion,
                    });
                    if (!d) continue;
                    if (figure === 'A') {
                        discordantK += d.flips.toA.length + d.flips.toB.length;
                        discordantN += d.n;
                    }
                    pairs.push({
                        figure,
                        probe: scope.probe,
                        ...(scope.phrasing !== undefined ? { phrasing: scope.phrasing } : {}),
                        a: x.id,
                        b: y.id,
                        ...d,
                        pAdjusted: d.p,
                    });
                }
            if (!pairs.length) continue;
            const higherIsBetter = betterHigher(figure, kinds);
            adjust(
                pairs.map(p => p.p),
                correction,
            ).forEach((p, i) => {
                const pair = pairs[i]!;
                pair.pAdjusted = p;
                if (p < alpha && pair.delta !== 0) pair.winner = pair.delta > 0 === higherIsBetter ? pair.b : pair.a;
            });
            matrices.push({
                figure,
                probe: scope.probe,
                ...(scope.phrasing !== undefined ? { phrasing: scope.phrasing } : {}),
                higherIsBetter,
                cells: present.map(c => c.id),
                pairs,
            });
        }
    }
    return {
        runs: reports.map(d => d.run.id),
        cells,
        by,
        correction,
        alpha,
        seed,
        matrices,
        discordant: discordantN ? discordantK / discordantN : null,
    };
}

export interface Regression {
    pair: PairedDifference;
    figure: string;
    margin: number;
    higherIsBetter: boolean;
}

/**
 * The CI gate (`--fail-on-regression H:0.02`): across two runs, a cell got worse on the figure by at least the margin
 * only where the whole interval says so — its lower limit at or above the margin (H; for A, R, AR the upper limit at
 * or below −margin). The intervals are Bonferroni-widened over the pairs gated, so noise over many groups does not fail.
 */
export function regressions(
    before: ReportData,
    after: ReportData,
    figure: string,
    margin: number,
    options: Omit<PairedOptions, 'level' | 'figures'> = {},
): { checked: number; regressions: Regression[] } {
    const probe = compareCells([before, after], { ...options, figures: [figure] });
    const across = probe.matrices.flatMap(m => m.pairs).filter(p => cellRun(probe, p.a) !== cellRun(probe, p.b));
    const k = Math.max(1, across.length);
    const c = compareCells([before, after], { ...options, figures: [figure], level: 1 - 0.05 / k });
    const out: Regression[] = [];
    let checked = 0;
    for (const m of c.matrices)
        for (const p of m.pairs) {
            if (cellRun(c, p.a) === cellRun(c, p.b)) continue;
            checked++;
            // a is the earlier run's cell (cells are in run order).
            const worse = m.higherIsBetter ? p.ci[1] <= -margin : p.ci[0] >= margin;
            if (worse) out.push({ pair: p, figure, margin, higherIsBetter: m.higherIsBetter });
        }
    return { checked, regressions: out };
}

const cellRun = (c: CellComparison, id: string) => c.cells.find(x => x.id === id)?.run;
