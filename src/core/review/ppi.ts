/**
 * Prediction-powered inference (Angelopoulos et al., 2023) of a share from a cheap judge on every item and a person
 * on a sample — the statement family's estimate (families/statement/estimate.ts) as the review room needs it: the
 * reader is the cheap judge, the labels the gold, and the labelled items a stratified sample (strata of unequal
 * allocation), so each stratum's correction is weighted by its share of the items:
 *
 *   θ̂ = mean(f, all N) + Σ_h W_h · mean_h(y − f, the n_h labelled)
 *   Var = var(f) / N + Σ_h W_h² · var_h(y − f) / n_h + 2 Σ_h W_h · cov_h(f, y − f) / N
 *
 * (the target is the rate the run measures, so the reader's own mean is an estimate too and its variance counts).
 * A stratum's residual variance is at least that of its disagreement rate smoothed by Laplace's rule (so a few labels
 * that all agree never give a zero-width interval); a stratum with one label borrows the widest variance a difference
 * can have (1); one without labels is left
 * uncorrected and counted as unknown (±1 of its weight), as the statement estimate does.
 */
import type { Interval } from '../verify/figures.js';

const Z = 1.959963984540054;

export interface PpiEstimate {
    value: number;
    ci: Interval;
    halfWidth: number;
    labelled: number;
}

const mean = (xs: readonly number[]) => (xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : 0);
function covariance(xs: readonly number[], ys: readonly number[]): number {
    if (xs.length < 2) return 0;
    const mx = mean(xs),
        my = mean(ys);
    return xs.reduce((s, x, i) => s + (x - mx) * (ys[i]! - my), 0) / (xs.length - 1);
}
const variance = (xs: readonly number[]) => covariance(xs, xs);

function make(value: number, v: number, labelled: number): PpiEstimate {
    const half = Z * Math.sqrt(Math.max(0, v));
    return { value, ci: [Math.max(0, value - half), Math.min(1, value + half)], halfWidth: half, labelled };
}

/**
 * The corrected share and the labels-only one. `f[i]` the reader's outcome of item i (0 / 1), `strata[i]` its
 * stratum, `labels` the person's outcome of the labelled items by index.
 */
export function ppiShare(
    f: readonly number[],
    strata: readonly string[],
    labels: ReadonlyMap<number, number>,
): PpiEstimate | undefined {
    const N = f.length;
    if (N === 0 || labels.size === 0) return undefined;
    const by = new Map<string, number[]>();
    strata.forEach((s, i) => by.set(s, [...(by.get(s) ?? []), i]));
    let correction = 0,
        varCorrection = 0,
        cov = 0;
    for (const members of by.values()) {
        const w = members.length / N;
        const done = members.filter(i => labels.has(i));
        const fs = done.map(i => f[i]!);
        const rs = done.map(i => labels.get(i)! - f[i]!);
        if (done.length === 0) {
            varCorrection += w * w;
            continue;
        }
        correction += w * mean(rs);
        // Few labels that all agree would say "no error at all": the spread is at least that of a disagreement rate
        // (k + 1) / (n + 2) (Laplace), so a small sample never gives an interval of zero width.
        const k = rs.filter(r => r !== 0).length,
            laplace = (k + 1) / (done.length + 2);
        varCorrection += (w * w * (done.length > 1 ? Math.max(variance(rs), laplace * (1 - laplace)) : 1)) / done.length;
        cov += w * covariance(fs, rs);
    }
    const value = mean(f) + correction;
    return make(value, variance(f) / N + varCorrection + (2 * cov) / N, labels.size);
}
