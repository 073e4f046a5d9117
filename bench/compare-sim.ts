/**
 * Simulated comparisons for `compare`'s acceptance (issue 37), shared by bench/compare.bench.ts and
 * test/unit/verify/paired-simulation.test.ts. Fixed seeds throughout.
 *
 * Two models with correlated errors: per question, with probability rho both models read one shared uniform u,
 * else each its own; a model is right when its uniform is below its accuracy. Each model's accuracy is exact
 * (P(right) = p), so the true difference is pB − pA, and the errors are positively correlated (the same hard
 * questions trip both), which is how real models on one suite behave.
 */
import { prng } from '../src/core/probes/sampling.js';
import { holm, mcnemarExact, tangoInterval } from '../src/core/verify/paired.js';
import { wilson } from '../src/core/verify/figures.js';
import { differenceInterval } from '../src/core/report/compare.js';

export interface CoverageResult {
    pairs: number;
    covered: number;
    coverage: number;
    medianPaired: number;
    medianUnpaired: number;
    narrower: number;
}

const median = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    const m = s.length >> 1;
    return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

/** `pairs` simulated pairs of models on n questions: how often Tango's paired interval covers pB − pA, and its width against today's unpaired Newcombe. */
export function coverage(pairs = 500, n = 200, seed = 1): CoverageResult {
    const random = prng(seed);
    let covered = 0,
        narrower = 0;
    const paired: number[] = [],
        unpaired: number[] = [];
    for (let s = 0; s < pairs; s++) {
        const pA = 0.5 + 0.4 * random();
        const pB = Math.min(0.98, Math.max(0.02, pA + (random() - 0.5) * 0.2));
        const rho = 0.3 + 0.5 * random();
        let kA = 0,
            kB = 0,
            onlyA = 0,
            onlyB = 0;
        for (let i = 0; i < n; i++) {
            const shared = random() < rho;
            const u = random();
            const a = (shared ? u : random()) < pA,
                b = (shared ? u : random()) < pB;
            if (a) kA++;
            if (b) kB++;
            if (a && !b) onlyA++;
            if (b && !a) onlyB++;
        }
        const ci = tangoInterval(onlyB, onlyA, n);
        if (ci[0] <= pB - pA && pB - pA <= ci[1]) covered++;
        const u = differenceInterval(kA / n, wilson(kA, n)!, kB / n, wilson(kB, n)!);
        paired.push(ci[1] - ci[0]);
        unpaired.push(u[1] - u[0]);
        if (ci[1] - ci[0] < u[1] - u[0]) narrower++;
    }
    return {
        pairs,
        covered,
        coverage: covered / pairs,
        medianPaired: median(paired),
        medianUnpaired: median(unpaired),
        narrower,
    };
}

/** Ten sets of 500 pairs (seeds 1–10): each set's coverage, and all pooled. */
export function coverageSets(seeds = 10): { sets: CoverageResult[]; pooled: number } {
    const sets = Array.from({ length: seeds }, (_, i) => coverage(500, 200, i + 1));
    return { sets, pooled: sets.reduce((s, c) => s + c.covered, 0) / sets.reduce((s, c) => s + c.pairs, 0) };
}

/**
 * `matrices` null matrices of `cells` cells (every cell the same accuracy, errors correlated as above) on n questions:
 * the share of matrices where Holm-adjusted McNemar tests name any winner (the family-wise error).
 */
export function familyWiseError(
    matrices = 200,
    cells = 6,
    n = 200,
    seed = 38,
): { matrices: number; withError: number; rate: number; pairs: number } {
    const random = prng(seed);
    let withError = 0;
    for (let m = 0; m < matrices; m++) {
        const p = 0.5 + 0.4 * random(),
            rho = 0.3 + 0.5 * random();
        const right: boolean[][] = Array.from({ length: cells }, () => []);
        for (let i = 0; i < n; i++) {
            const shared = random() < rho;
            const u = random();
            for (let c = 0; c < cells; c++) right[c]!.push((shared ? u : random()) < p);
        }
        const ps: number[] = [];
        for (let x = 0; x < cells; x++)
            for (let y = x + 1; y < cells; y++) {
                let onlyX = 0,
                    onlyY = 0;
                for (let i = 0; i < n; i++) {
                    if (right[x]![i] && !right[y]![i]) onlyX++;
                    if (right[y]![i] && !right[x]![i]) onlyY++;
                }
                ps.push(mcnemarExact(onlyY, onlyX));
            }
        if (holm(ps).some(q => q < 0.05)) withError++;
    }
    return { matrices, withError, rate: withError / matrices, pairs: (cells * (cells - 1)) / 2 };
}
