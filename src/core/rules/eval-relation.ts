/**
 * One predicate's facts during evaluation (evaluate.ts): rows of interned value ids in one growable Int32Array,
 * in the order they were derived, with hash indexes per bound-positions mask and the provenance of each row.
 */
import { Int32Builder as IntVec } from '../data/table.js';
import { TupleSet, tupleKey, type TupleKey } from './store.js';

/** One predicate's facts, their indexes and provenance. */
export class Relation {
    readonly rows = new IntVec();
    readonly set: TupleSet;
    /** Bound-positions mask → key of those positions → row numbers, ascending. */
    readonly indexes = new Map<number, Map<TupleKey, number[]>>();
    /** Clause number per row (-1: a base fact) and where its premises start in the pool. */
    readonly clause = new IntVec();
    readonly premStart = new IntVec();
    count = 0;
    /** Candidates of a capped predicate waiting for the end of the round, and their keys (no candidate twice). */
    pending: Candidate[] = [];
    readonly pendingKeys = new Set<TupleKey>();
    /** Candidates seen this round once the buffer overflowed (0: not overflowed); `pending` is then a uniform sample. */
    sampled = 0;

    constructor(readonly id: number, readonly name: string, readonly arity: number) {
        this.set = new TupleSet(arity, this.rows);
    }

    row(i: number, out: number[]): number[] {
        const base = i * this.arity;
        for (let k = 0; k < this.arity; k++) out[k] = this.rows.at(base + k);
        return out;
    }

    index(mask: number): Map<TupleKey, number[]> {
        let ix = this.indexes.get(mask);
        if (ix) return ix;
        ix = new Map();
        const tuple: number[] = new Array(this.arity);
        for (let i = 0; i < this.count; i++) addToIndex(ix, mask, this.row(i, tuple), i);
        this.indexes.set(mask, ix);
        return ix;
    }
}

export interface Candidate { ids: number[]; clause: number; premRel: number[]; premRow: number[] }

export const NONE = new Int32Array(0);
export const EMPTY: number[] = [];

export function maskKey(mask: number, ids: ArrayLike<number>): TupleKey {
    let single = -1, parts: number[] | undefined;
    for (let k = 0; mask >> k; k++) {
        if (!(mask & (1 << k))) continue;
        if (single < 0 && !parts) single = ids[k]!;
        else { parts ??= [single]; parts.push(ids[k]!); }
    }
    return parts ? tupleKey(parts) : single;
}

export function addToIndex(ix: Map<TupleKey, number[]>, mask: number, ids: ArrayLike<number>, row: number): void {
    const key = maskKey(mask, ids);
    const list = ix.get(key);
    if (list) list.push(row); else ix.set(key, [row]);
}

/** First position in an ascending list whose value is ≥ lo. */
export function lowerBound(list: number[], lo: number): number {
    if (lo <= 0 || list.length === 0 || list[0]! >= lo) return 0;
    let a = 0, b = list.length;
    while (a < b) { const m = (a + b) >> 1; if (list[m]! < lo) a = m + 1; else b = m; }
    return a;
}
