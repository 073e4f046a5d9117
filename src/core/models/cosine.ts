/** Vector similarity for embeddings (a leaf: no SDK, so families may use it while generating). */

/** Cosine similarity of two vectors (0 when either is zero). */
export function cosine(a: readonly number[], b: readonly number[]): number {
    let dot = 0,
        na = 0,
        nb = 0;
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
        dot += a[i]! * b[i]!;
        na += a[i]! * a[i]!;
        nb += b[i]! * b[i]!;
    }
    return na && nb ? dot / Math.sqrt(na * nb) : 0;
}
