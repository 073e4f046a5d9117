/**
 * Stripped partitions (TANE, Huhtala et al. 1999): the rows of a table grouped by equal values of an attribute
 * set, keeping only the groups of two rows or more (a singleton group can never violate a dependency).
 * Groups are stored flat — `rows` holds every kept row, group `g` is `rows[starts[g] .. starts[g+1])` — so a
 * million-row partition is two typed arrays, not a million small ones.
 *
 * NULL semantics: a NULL equals another NULL in the same column (one group), and differs from every value.
 * This is SQL's GROUP BY / DISTINCT reading, not its `=`: it keeps "unknown" rows together instead of making
 * each a singleton that would silently satisfy every dependency.
 */

export interface Partition {
    rows: Int32Array;
    /** `starts.length === groups + 1`; the last entry is `rows.length`. */
    starts: Int32Array;
}

export const groupCount = (p: Partition): number => p.starts.length - 1;
/** ||π||: rows in non-singleton groups. */
export const coveredRows = (p: Partition): number => p.rows.length;
/** e(X) = ||π|| − |π|: how many rows to delete for X to become a key. X → A holds iff e(X) = e(X ∪ A). */
export const keyError = (p: Partition): number => p.rows.length - groupCount(p);

/** Column codes with NULL (-1) mapped to one extra code, so that NULLs form one group. */
export function nullAsValue(codes: Int32Array, distinct: number): Int32Array {
    if (!codes.some(c => c < 0)) return codes;
    return codes.map(c => (c < 0 ? distinct : c));
}

/** The partition of one attribute, by a counting sort of its codes (each in 0 .. distinct-1). */
export function partitionOfCodes(codes: Int32Array, distinct: number): Partition {
    const counts = new Int32Array(distinct + 1);
    for (let r = 0; r < codes.length; r++) counts[codes[r]!]!++;
    const offset = new Int32Array(distinct + 1);
    let kept = 0,
        groups = 0;
    for (let v = 0; v < distinct; v++) {
        offset[v] = counts[v]! >= 2 ? kept : -1;
        if (counts[v]! >= 2) {
            kept += counts[v]!;
            groups++;
        }
    }
    const rows = new Int32Array(kept),
        starts = new Int32Array(groups + 1);
    const fill = new Int32Array(distinct);
    let g = 0;
    for (let v = 0; v < distinct; v++) if (offset[v]! >= 0) starts[g++] = offset[v]!;
    starts[groups] = kept;
    for (let r = 0; r < codes.length; r++) {
        const v = codes[r]!,
            at = offset[v]!;
        if (at >= 0) rows[at + fill[v]!++] = r;
    }
    return { rows, starts };
}

/** The partition of the empty attribute set: every row in one group. */
export function wholePartition(rowCount: number): Partition {
    if (rowCount < 2) return { rows: new Int32Array(0), starts: new Int32Array(1) };
    return { rows: Int32Array.from({ length: rowCount }, (_, i) => i), starts: Int32Array.of(0, rowCount) };
}

/**
 * Shared scratch space for products: `owner[row]` is the group of the first partition a row is in (-1: none),
 * `count` / `next` are per group of the first partition. Allocated once per table (grown when a partition has
 * more groups) and reset after each use, so a product costs O(||π1|| + ||π2||) and allocates only its result.
 */
export class Refiner {
    private readonly owner: Int32Array;
    private count = new Int32Array(0);
    private next = new Int32Array(0);

    constructor(rowCount: number) {
        this.owner = new Int32Array(rowCount).fill(-1);
    }

    /** π1 · π2: rows grouped by both; groups of one row dropped. Each group of π2 is split by π1's groups. */
    product(p1: Partition, p2: Partition): Partition {
        const owner = this.owner;
        const g1 = groupCount(p1);
        if (this.count.length < g1) {
            this.count = new Int32Array(g1);
            this.next = new Int32Array(g1);
        }
        const count = this.count,
            next = this.next;
        for (let g = 0; g < g1; g++) for (let i = p1.starts[g]!; i < p1.starts[g + 1]!; i++) owner[p1.rows[i]!] = g;
        // The product's rows are a subset of p2's, and each kept group has two rows or more.
        const rows = new Int32Array(p2.rows.length),
            starts = new Int32Array((p2.rows.length >> 1) + 1);
        let kept = 0,
            groups = 0;
        for (let g = 0; g < groupCount(p2); g++) {
            const from = p2.starts[g]!,
                to = p2.starts[g + 1]!;
            for (let i = from; i < to; i++) {
                const o = owner[p2.rows[i]!]!;
                if (o >= 0) count[o]!++;
            }
            // Give each group of two rows or more its slot range, in order of first appearance.
            for (let i = from; i < to; i++) {
                const o = owner[p2.rows[i]!]!;
                if (o < 0) continue;
                const n = count[o]!;
                if (n >= 2) {
                    starts[groups++] = kept;
                    next[o] = kept;
                    kept += n;
                    count[o] = -1;
                } // -1: has its slots
                else if (n === 1) count[o] = 0; // a singleton: dropped
            }
            for (let i = from; i < to; i++) {
                const row = p2.rows[i]!,
                    o = owner[row]!;
                if (o >= 0 && count[o] === -1) rows[next[o]!++] = row;
            }
            for (let i = from; i < to; i++) {
                const o = owner[p2.rows[i]!]!;
                if (o >= 0) count[o] = 0;
            }
        }
        for (let i = 0; i < p1.rows.length; i++) owner[p1.rows[i]!] = -1;
        starts[groups] = kept;
        return { rows: rows.slice(0, kept), starts: starts.slice(0, groups + 1) };
    }
}

/**
 * g3 error of X → A given π_X and A's codes: the fewest rows to delete for the dependency to hold — in each
 * group of X, every row but those carrying the group's most frequent A value. `scratch` has one slot per code
 * of A and is left zeroed. Counting stops once more than `limit` rows must go (the caller only needs to know
 * the FD fails), so a failing candidate usually costs a few groups, not the whole partition.
 */
export function g3Removals(px: Partition, aCodes: Int32Array, scratch: Int32Array, limit = Infinity): number {
    const groups = groupCount(px);
    if (limit === 0) return holdsExactly(px, aCodes, groups) ? 0 : 1;
    let removed = 0;
    for (let g = 0; g < groups && removed <= limit; g++) {
        const from = px.starts[g]!,
            to = px.starts[g + 1]!;
        let best = 0;
        for (let i = from; i < to; i++) {
            const n = ++scratch[aCodes[px.rows[i]!]!]!;
            if (n > best) best = n;
        }
        for (let i = from; i < to; i++) scratch[aCodes[px.rows[i]!]!] = 0;
        removed += to - from - best;
    }
    return removed;
}

/** Every group of π_X agrees on A (the exact test: no counting, stops at the first disagreement). */
function holdsExactly(px: Partition, aCodes: Int32Array, groups: number): boolean {
    for (let g = 0; g < groups; g++) {
        const from = px.starts[g]!,
            to = px.starts[g + 1]!;
        const first = aCodes[px.rows[from]!]!;
        for (let i = from + 1; i < to; i++) if (aCodes[px.rows[i]!]! !== first) return false;
    }
    return true;
}
