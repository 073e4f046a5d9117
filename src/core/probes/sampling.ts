/**
 * Deterministic sampling: a small seeded PRNG (integer arithmetic only, so every machine draws the same
 * numbers) and the row orders of `sample all | first N | random N seed K`.
 */
import type { SampleDecl } from '../spec/model.js';

/** mulberry32: 32-bit state, uniform doubles in [0, 1). */
export function prng(seed: number): () => number {
    let a = seed >>> 0;
    return () => {
        a = (a + 0x6d2b79f5) >>> 0;
        let t = a;
        t = Math.imul(t ^ (t >>> 15), t | 1);
        t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
}

/** FNV-1a over the text (UTF-16 code units), mixed with a numeric seed: a seed for per-row choices. */
export function hashSeed(text: string, seed = 0): number {
    let h = (0x811c9dc5 ^ seed) >>> 0;
    for (let i = 0; i < text.length; i++) {
        h ^= text.charCodeAt(i);
        h = Math.imul(h, 0x01000193) >>> 0;
    }
    return h;
}

/** An integer in [0, n). */
export function pick(random: () => number, n: number): number {
    return Math.floor(random() * n);
}

/**
 * Row indices in sampling order. `all` and `first` go in file order; `random` is a lazy Fisher–Yates
 * shuffle (each next index costs O(1), the permutation array is one Int32 per row). The caller stops
 * when it has enough eligible rows, so `first N` / `random N` skip ineligible rows and keep going.
 */
export function* rowOrder(rowCount: number, sample: Pick<SampleDecl, 'mode' | 'seed'>): Generator<number> {
    if (sample.mode !== 'random') {
        for (let row = 0; row < rowCount; row++) yield row;
        return;
    }
    const perm = new Int32Array(rowCount);
    for (let i = 0; i < rowCount; i++) perm[i] = i;
    const random = prng(sample.seed ?? 0);
    for (let i = 0; i < rowCount; i++) {
        const j = i + pick(random, rowCount - i);
        const t = perm[j]!;
        perm[j] = perm[i]!;
        perm[i] = t;
        yield t;
    }
}
