/**
 * Personalised PageRank on a small undirected graph (METHODS §5): p = α·Mp + (1 − α)·s, where M moves a
 * node's score evenly along its edges (a parallel edge counts twice) and s is the teleport vector over the
 * question's entities. A node without edges sends its score back through s, so p always sums to 1.
 * Power iteration until the L1 change is below the tolerance or the iteration cap is hit.
 *
 * Written here rather than taken from graphology-metrics: its pagerank has no personalisation vector
 * (options alpha, tolerance, maxIterations, edge weight) and refuses multigraphs. The tests check this one
 * against graphology-metrics with a uniform teleport vector and against a direct linear solve.
 */

export interface PprOptions {
    alpha?: number;
    tolerance?: number;
    maxIterations?: number;
}

export interface PprResult {
    scores: Float64Array;
    iterations: number;
    converged: boolean;
}

export const PPR_DEFAULTS = { alpha: 0.85, tolerance: 1e-6, maxIterations: 100, minScore: 1e-5 } as const;

/** `teleport` is normalised here; node indices are 0..n-1 and edges are (head[j], tail[j]) pairs. */
export function personalisedPageRank(
    n: number,
    head: ArrayLike<number>,
    tail: ArrayLike<number>,
    teleport: ArrayLike<number>,
    options: PprOptions = {},
): PprResult {
    const alpha = options.alpha ?? PPR_DEFAULTS.alpha;
    const tolerance = options.tolerance ?? PPR_DEFAULTS.tolerance;
    const maxIterations = options.maxIterations ?? PPR_DEFAULTS.maxIterations;
    const s = new Float64Array(n);
    let total = 0;
    for (let i = 0; i < n; i++) total += teleport[i]!;
    for (let i = 0; i < n; i++) s[i] = total > 0 ? teleport[i]! / total : 1 / n;
    const degree = new Float64Array(n);
    for (let j = 0; j < head.length; j++) {
        degree[head[j]!]!++;
        degree[tail[j]!]!++;
    }
    let p = Float64Array.from(s);
    let next = new Float64Array(n);
    for (let it = 1; it <= maxIterations; it++) {
        let dangling = 0;
        for (let i = 0; i < n; i++) if (degree[i] === 0) dangling += p[i]!;
        for (let i = 0; i < n; i++) next[i] = (1 - alpha + alpha * dangling) * s[i]!;
        for (let j = 0; j < head.length; j++) {
            const h = head[j]!,
                t = tail[j]!;
            next[t] = next[t]! + (alpha * p[h]!) / degree[h]!;
            next[h] = next[h]! + (alpha * p[t]!) / degree[t]!;
        }
        let change = 0;
        for (let i = 0; i < n; i++) change += Math.abs(next[i]! - p[i]!);
        [p, next] = [next, p];
        if (change < tolerance) return { scores: p, iterations: it, converged: true };
    }
    return { scores: p, iterations: maxIterations, converged: false };
}
