/**
 * Functional-dependency discovery on a loaded relation: TANE-style level-wise search over stripped partitions.
 * A left-hand side X is grown one attribute at a time (π_{X∪B} = π_X · π_B, keeping only classes of two rows or
 * more); X → A holds when every class of π_X agrees on A. Only minimal, non-trivial FDs are reported (no proper
 * subset of X determines A, A ∉ X), up to `maxLhs` attributes and within a time budget. Approximate FDs are those
 * whose g3 error — the share of rows to delete for X → A to hold — is at most `maxError`.
 *
 * NULL semantics: an empty cell is a value like any other, equal to every other empty cell of its column (so a
 * column that is mostly empty groups rows together); say `null_equal false` nowhere — this is the one rule.
 * Keys: an X whose partition has no class of two rows is a key; it determines everything (trivially for
 * questions), so it is reported once as a key, flagged, and not grown further.
 */
import type { RelationTable } from '../data/types.js';

export interface DiscoveredFd {
    lhs: string[];
    rhs: string;
    /** g3: share of rows to remove for the FD to hold exactly (0 for an exact FD). */
    error: number;
    /** Rows in groups of two or more rows under the left-hand side: how many rows the FD says something about. */
    covered: number;
    /** Groups of two or more rows under the left-hand side. */
    groups: number;
    /** The left-hand side is (nearly) a key: few rows share a value, so questions from it are trivial. */
    nearKey: boolean;
}

export interface DiscoveryResult {
    fds: DiscoveredFd[];
    /** Minimal left-hand sides that are keys (no two rows agree on them). */
    keys: string[][];
    /** False when the time budget ran out first (the FDs found so far are still minimal and valid). */
    complete: boolean;
    rows: number;
}

export interface DiscoveryOptions {
    maxLhs?: number;
    /** Largest g3 error reported (0: exact FDs only). */
    maxError?: number;
    budgetMs?: number;
    /** Attributes to consider (default: every column). */
    attributes?: string[];
    /** A left-hand side whose groups cover fewer than this share of the rows is flagged near-key. */
    nearKeyShare?: number;
}

type Partition = Int32Array[];

/** Stripped partition of one column: rows grouped by code, singletons dropped. */
function columnPartition(codes: Int32Array): Partition {
    const by = new Map<number, number[]>();
    for (let r = 0; r < codes.length; r++) {
        const c = codes[r]!;
        let list = by.get(c);
        if (!list) by.set(c, (list = []));
        list.push(r);
    }
    return [...by.values()].filter(l => l.length > 1).map(l => Int32Array.from(l));
}

/** π_X · π_B: each class of π_X split by B's codes, singletons dropped. */
function refine(p: Partition, codes: Int32Array): Partition {
    const out: Partition = [];
    const by = new Map<number, number[]>();
    for (const cls of p) {
        by.clear();
        for (const r of cls) {
            const c = codes[r]!;
            let list = by.get(c);
            if (!list) by.set(c, (list = []));
            list.push(r);
        }
        for (const l of by.values()) if (l.length > 1) out.push(Int32Array.from(l));
    }
    return out;
}

/** g3 of X → A: rows to delete (all but the most frequent A value in each class) over all rows. */
function g3(p: Partition, codes: Int32Array, rows: number): number {
    let remove = 0;
    const counts = new Map<number, number>();
    for (const cls of p) {
        counts.clear();
        let best = 0;
        for (const r of cls) {
            const n = (counts.get(codes[r]!) ?? 0) + 1;
            counts.set(codes[r]!, n);
            if (n > best) best = n;
        }
        remove += cls.length - best;
    }
    return rows ? remove / rows : 0;
}

const covered = (p: Partition) => p.reduce((s, c) => s + c.length, 0);

export function discoverFds(table: RelationTable, options: DiscoveryOptions = {}): DiscoveryResult {
    const maxLhs = options.maxLhs ?? 3;
    const maxError = options.maxError ?? 0;
    const deadline = performance.now() + (options.budgetMs ?? 10_000);
    const nearKeyShare = options.nearKeyShare ?? 0.1;
    const attrs = (options.attributes ?? table.columns.map(c => c.attribute)).filter(a => table.column(a));
    const codes = attrs.map(a => table.column(a)!.codes);
    const rows = table.rowCount;
    const fds: DiscoveredFd[] = [];
    const keys: string[][] = [];
    // Minimal determinants found so far per right-hand side, as bitmasks (X → A with X ⊆ Y makes Y → A non-minimal).
    const found = attrs.map(() => [] as number[]);
    let level = new Map<number, Partition>(attrs.map((_, i) => [1 << i, columnPartition(codes[i]!)]));
    const keyMasks: number[] = [];
    let complete = true;
    for (let size = 1; size <= maxLhs && level.size > 0; size++) {
        const next = new Map<number, Partition>();
        for (const [mask, p] of level) {
            if (performance.now() > deadline) { complete = false; break; }
            if (keyMasks.some(k => (k & mask) === k && k !== mask)) continue;
            const lhs = attrs.filter((_, i) => mask & (1 << i));
            const isKey = p.length === 0;
            if (isKey) { keyMasks.push(mask); keys.push(lhs); }
            const cov = covered(p);
            for (let a = 0; a < attrs.length; a++) {
                if (mask & (1 << a)) continue;
                if (found[a]!.some(m => (m & mask) === m)) continue;
                // A key determines every attribute: such FDs are kept (minimal ones only) and flagged.
                const e = isKey ? 0 : g3(p, codes[a]!, rows);
                if (e > maxError) continue;
                found[a]!.push(mask);
                fds.push({ lhs, rhs: attrs[a]!, error: e, covered: cov, groups: p.length, nearKey: cov < nearKeyShare * rows });
            }
            // A key is not grown: every superset is a key too.
            if (isKey || size === maxLhs) continue;
            // Grow X by each attribute after its last one (each set is made once).
            const last = 31 - Math.clz32(mask);
            for (let b = last + 1; b < attrs.length; b++) {
                const grown = mask | (1 << b);
                if (keyMasks.some(k => (k & grown) === k)) continue;
                next.set(grown, refine(p, codes[b]!));
            }
        }
        if (!complete) break;
        level = next;
    }
    // Most useful first: exact before approximate, then by rows covered, then shorter left-hand sides.
    fds.sort((x, y) => (x.error > 0 ? 1 : 0) - (y.error > 0 ? 1 : 0) || y.covered - x.covered || x.lhs.length - y.lhs.length);
    return { fds, keys, complete, rows };
}
