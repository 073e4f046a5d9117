/**
 * Paired statistics for comparing two sets of answers to the same questions (`halluprobe compare`): every question
 * is asked of both sides with a known gold, so a difference is judged on the questions where the two sides
 * disagree, not on two independent samples. A leaf of pure numerics (no report types):
 *
 * - Tango's score interval for the difference of paired proportions (Tango, "Equivalence test and confidence
 *   interval for the difference in proportions for the paired-sample design", Statistics in Medicine 17, 891–908,
 *   1998): the values Δ whose score statistic stays within ±z, the nuisance parameter at its restricted maximum
 *   likelihood (closed form). It never leaves [−1, 1] and keeps its level with few discordant pairs.
 * - McNemar's exact test: the discordant pairs as Binomial(b + c, ½), two-sided.
 * - For figures that are not one 0/1 outcome per question (several samples, questions sharing a fact or row, a
 *   family's non-proportion figure): a cluster bootstrap over the shared facts (percentile interval) and a sign-flip
 *   randomisation test over them, which on singleton 0/1 clusters is McNemar's exact test again.
 * - Holm's step-down and Benjamini–Hochberg's step-up adjustments of a family of p-values.
 * - Power of McNemar's test (Connor, "Sample size for testing differences in proportions for the paired-sample
 *   design", Biometrics 43, 207–211, 1987): the smallest detectable difference and the questions a difference needs.
 */
import { prng } from '../probes/sampling.js';

export type Interval = [number, number];
export const Z95 = 1.959963984540054;

/** Tango's score statistic for Δ = (n12 − n21) / n at a hypothesised difference `delta` (decreasing in delta). */
function tangoStatistic(n12: number, n21: number, n: number, delta: number): number {
    const a = 2 * n;
    const b = -n12 - n21 + (2 * n - n12 + n21) * delta;
    const c = -n21 * delta * (1 - delta);
    const disc = Math.max(0, b * b - 4 * a * c);
    const p21 = (-b + Math.sqrt(disc)) / (2 * a);
    const variance = n * (2 * p21 + delta * (1 - delta));
    const diff = n12 - n21 - n * delta;
    if (variance <= 0) return diff === 0 ? 0 : diff > 0 ? Infinity : -Infinity;
    return diff / Math.sqrt(variance);
}

/**
 * Tango's 95 % score interval (by default) for p(B) − p(A) over n pairs, where n12 pairs are right on B only and n21
 * on A only. Bisection to machine precision; the limits are where the statistic crosses ∓z.
 */
export function tangoInterval(n12: number, n21: number, n: number, z = Z95): Interval {
    if (n <= 0) return [-1, 1];
    const estimate = (n12 - n21) / n;
    const root = (lo: number, hi: number, target: number) => {
        // f(Δ) = T(Δ) − target is decreasing; keep f(lo) > 0 ≥ f(hi).
        for (let i = 0; i < 200 && hi - lo > 1e-15; i++) {
            const mid = (lo + hi) / 2;
            if (tangoStatistic(n12, n21, n, mid) - target > 0) lo = mid;
            else hi = mid;
        }
        return (lo + hi) / 2;
    };
    const lower = tangoStatistic(n12, n21, n, -1 + 1e-12) < z ? -1 : root(-1, estimate, z);
    const upper = tangoStatistic(n12, n21, n, 1 - 1e-12) > -z ? 1 : root(estimate, 1, -z);
    return [lower, upper];
}

/** log(k!) by summation, cached: the exact tests need it for a few thousand pairs at most. */
const logFactorials: number[] = [0];
function logFactorial(k: number): number {
    for (let i = logFactorials.length; i <= k; i++) logFactorials.push(logFactorials[i - 1]! + Math.log(i));
    return logFactorials[k]!;
}

/** P(X ≤ k) for X ~ Binomial(n, ½). */
function binomialHalfCdf(k: number, n: number): number {
    let sum = 0;
    for (let i = 0; i <= k; i++) sum += Math.exp(logFactorial(n) - logFactorial(i) - logFactorial(n - i) - n * Math.LN2);
    return Math.min(1, sum);
}

/** McNemar's exact two-sided p-value from the discordant counts b and c. */
export function mcnemarExact(b: number, c: number): number {
    const n = b + c;
    if (n === 0 || b === c) return 1;
    return Math.min(1, 2 * binomialHalfCdf(Math.min(b, c), n));
}

/** Holm's step-down adjusted p-values, in the input order (family-wise error). */
export function holm(ps: readonly number[]): number[] {
    const order = ps.map((p, i) => [p, i] as const).sort((x, y) => x[0] - y[0]);
    const out = new Array<number>(ps.length);
    let running = 0;
    order.forEach(([p, i], rank) => {
        running = Math.max(running, Math.min(1, (ps.length - rank) * p));
        out[i] = running;
    });
    return out;
}

/** Benjamini–Hochberg's step-up adjusted p-values, in the input order (false discovery rate). */
export function benjaminiHochberg(ps: readonly number[]): number[] {
    const m = ps.length;
    const order = ps.map((p, i) => [p, i] as const).sort((x, y) => y[0] - x[0]);
    const out = new Array<number>(m);
    let running = 1;
    order.forEach(([p, i], k) => {
        const rank = m - k;
        running = Math.min(running, Math.min(1, (p * m) / rank));
        out[i] = running;
    });
    return out;
}

export type Correction = 'holm' | 'bh';
export function adjust(ps: readonly number[], correction: Correction): number[] {
    return correction === 'bh' ? benjaminiHochberg(ps) : holm(ps);
}

/** One cluster of paired questions (a fact or row; one question when nothing is shared): the sums of each side's outcome. */
export interface PairedCluster {
    a: number;
    b: number;
    m: number;
}

/** The difference of means (Σb − Σa) / Σm over the clusters. */
export function clusterDifference(clusters: readonly PairedCluster[]): number {
    let d = 0,
        m = 0;
    for (const c of clusters) {
        d += c.b - c.a;
        m += c.m;
    }
    return m > 0 ? d / m : 0;
}

/** Percentile interval of the difference from `rounds` resamples of the clusters with replacement (fixed seed). */
export function clusterBootstrap(clusters: readonly PairedCluster[], seed = 1, rounds = 2000, level = 0.95): Interval {
    const k = clusters.length;
    if (k === 0) return [-1, 1];
    const random = prng(seed);
    const draws = new Float64Array(rounds);
    for (let r = 0; r < rounds; r++) {
        let d = 0,
            m = 0;
        for (let i = 0; i < k; i++) {
            const c = clusters[Math.floor(random() * k)]!;
            d += c.b - c.a;
            m += c.m;
        }
        draws[r] = m > 0 ? d / m : 0;
    }
    draws.sort();
    const at = (q: number) => draws[Math.min(rounds - 1, Math.max(0, Math.floor(q * rounds)))]!;
    const tail = (1 - level) / 2;
    return [at(tail), at(1 - tail)];
}

/**
 * Two-sided sign-flip randomisation test of "both sides are exchangeable within each cluster": each cluster's
 * difference keeps or flips its sign. Exact enumeration up to 16 clusters that differ, else `rounds` seeded draws
 * ((hits + 1) / (rounds + 1)). On clusters of one 0/1 question it is McNemar's exact test.
 */
export function signFlipTest(clusters: readonly PairedCluster[], seed = 1, rounds = 20000): number {
    const d = clusters.map(c => c.b - c.a).filter(x => Math.abs(x) > 1e-12);
    if (d.length === 0) return 1;
    const observed = Math.abs(d.reduce((s, x) => s + x, 0)) - 1e-9;
    if (d.length <= 16) {
        let hits = 0;
        const total = 1 << d.length;
        for (let mask = 0; mask < total; mask++) {
            let s = 0;
            for (let i = 0; i < d.length; i++) s += mask & (1 << i) ? -d[i]! : d[i]!;
            if (Math.abs(s) >= observed) hits++;
        }
        return hits / total;
    }
    const random = prng(seed);
    let hits = 0;
    for (let r = 0; r < rounds; r++) {
        let s = 0;
        for (const x of d) s += random() < 0.5 ? -x : x;
        if (Math.abs(s) >= observed) hits++;
    }
    return (hits + 1) / (rounds + 1);
}

/** Φ⁻¹(p): Acklam's rational approximation (relative error below 1.2e-9), enough for power. */
export function normalQuantile(p: number): number {
    const a = [
        -3.969683028665376e1, 2.209460984245205e2, -2.759285104469687e2, 1.38357751867269e2, -3.066479806614716e1,
        2.506628277459239,
    ];
    const b = [-5.447609879822406e1, 1.615858368580409e2, -1.556989798598866e2, 6.680131188771972e1, -1.328068155288572e1];
    const c = [
        -7.784894002430293e-3, -3.223964580411365e-1, -2.400758277161838, -2.549732539343734, 4.374664141464968,
        2.938163982698783,
    ];
    const d = [7.784695709041462e-3, 3.224671290700398e-1, 2.445134137142996, 3.754408661907416];
    const low = 0.02425;
    if (p < low) {
        const q = Math.sqrt(-2 * Math.log(p));
        return (
            (((((c[0]! * q + c[1]!) * q + c[2]!) * q + c[3]!) * q + c[4]!) * q + c[5]!) /
            ((((d[0]! * q + d[1]!) * q + d[2]!) * q + d[3]!) * q + 1)
        );
    }
    if (p > 1 - low) return -normalQuantile(1 - p);
    const q = p - 0.5,
        r = q * q;
    return (
        ((((((a[0]! * r + a[1]!) * r + a[2]!) * r + a[3]!) * r + a[4]!) * r + a[5]!) * q) /
        (((((b[0]! * r + b[1]!) * r + b[2]!) * r + b[3]!) * r + b[4]!) * r + 1)
    );
}

export interface PowerAssumptions {
    /** Two-sided level (default 0.05) and power (default 0.8). */
    alpha?: number;
    power?: number;
    /**
     * The share of questions the two sides answer differently (discordant). Before any run it is unknown: the
     * default 0.5 is two independent sides at 50 % (2·p·(1 − p) at its largest), the conservative case; a
     * `compare` of earlier runs reports the share it saw.
     */
    discordant?: number;
}

/** Questions McNemar's test needs to detect a difference `delta` (Connor 1987), rounded up. */
export function questionsNeeded(delta: number, o: PowerAssumptions = {}): number {
    const za = normalQuantile(1 - (o.alpha ?? 0.05) / 2),
        zb = normalQuantile(o.power ?? 0.8);
    const psi = Math.max(o.discordant ?? 0.5, Math.abs(delta));
    const n = (za * Math.sqrt(psi) + zb * Math.sqrt(psi - delta * delta)) ** 2 / (delta * delta);
    return Math.ceil(n);
}

/** The smallest difference McNemar's test detects with n questions (the inverse of questionsNeeded, by bisection). */
export function smallestDetectable(n: number, o: PowerAssumptions = {}): number | null {
    if (n <= 0) return null;
    const za = normalQuantile(1 - (o.alpha ?? 0.05) / 2),
        zb = normalQuantile(o.power ?? 0.8);
    const psi = o.discordant ?? 0.5;
    const needs = (delta: number) =>
        (za * Math.sqrt(psi) + zb * Math.sqrt(Math.max(0, psi - delta * delta))) ** 2 / (delta * delta);
    if (needs(psi) > n) return null;
    let lo = 1e-9,
        hi = psi;
    for (let i = 0; i < 100; i++) {
        const mid = (lo + hi) / 2;
        if (needs(mid) > n) lo = mid;
        else hi = mid;
    }
    return hi;
}
