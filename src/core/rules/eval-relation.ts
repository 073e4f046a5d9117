/**
 * One predicate's facts during evaluation (evaluate.ts): rows of interned value ids in one growable Int32Array,
 * in the order they were derived, with hash indexes per bound-positions mask and the provenance of each row.
 */
import { IntVec, TupleSet, tupleKey, type TupleKey } from './interned.js';

/** One predicate's facts, their indexes and provenance. */
export class Relation {
    readonly rows = new IntVec();
    readonly set: TupleSet;
    /** Bound-positions mask → the index on those positions; and the same as a list, kept up to date on every append. */
    readonly indexes = new Map<number, Index>();
    readonly indexList: Index[] = [];
    /** Clause number per row (-1: a base fact) and where its premises start in the pool. */
    readonly clause = new IntVec();
    readonly premStart = new IntVec();
    count = 0;
    /** Candidates of a capped predicate waiting for the end of the round, and their keys (no candidate twice). */
    pending: Candidate[] = [];
    readonly pendingKeys = new Set<TupleKey>();
    /** Candidates seen this round once the buffer overflowed (0: not overflowed); `pending` is then a uniform sample. */
    sampled = 0;

    constructor(
        readonly id: number,
        readonly name: string,
        readonly arity: number,
    ) {
        this.set = new TupleSet(arity, this.rows);
    }

    row(i: number, out: number[]): number[] {
        const base = i * this.arity;
        for (let k = 0; k < this.arity; k++) out[k] = this.rows.at(base + k);
        return out;
    }

    index(mask: number): Index {
        let ix = this.indexes.get(mask);
        if (!ix) {
            this.indexes.set(mask, (ix = new Index(mask, this)));
            this.indexList.push(ix);
        }
        return ix;
    }
}

/**
 * The rows of a relation holding each combination of values at some positions (a mask), in ascending row order.
 * An index on one position whose ids span a range not much wider than the relation is dense: one array of row
 * numbers grouped by id and an array of where each id's group starts (a counting sort, no object per key); rows
 * added later, and every other index, go to a Map of lists. `seek` finds a key's rows: `rows[from..to)` then `more`.
 */
export class Index {
    private start: Int32Array = NONE;
    private grouped: Int32Array = NONE;
    private low = 0;
    private readonly lists = new Map<TupleKey, number[]>();
    /** After `seek`: the key's rows are grouped[from..to), then `more`, each ascending, all of `more` after them. */
    rowsOf: Int32Array = NONE;
    from = 0;
    to = 0;
    more: number[] = EMPTY;

    constructor(
        readonly mask: number,
        rel: Relation,
    ) {
        const position = (mask & (mask - 1)) === 0 ? Math.log2(mask) : -1;
        if (position >= 0 && rel.count > 0 && this.buildDense(rel, position)) return;
        const tuple: number[] = new Array(rel.arity);
        for (let i = 0; i < rel.count; i++) this.add(rel.row(i, tuple), i);
    }

    private buildDense(rel: Relation, position: number): boolean {
        const data = rel.rows.data,
            arity = rel.arity,
            n = rel.count;
        let low = Infinity,
            high = -Infinity;
        for (let i = 0; i < n; i++) {
            const id = data[i * arity + position]!;
            if (id < low) low = id;
            if (id > high) high = id;
        }
        if (high - low + 1 > 4 * n + 1024) return false;
        const start = new Int32Array(high - low + 2);
        for (let i = 0; i < n; i++) start[data[i * arity + position]! - low + 1]!++;
        for (let k = 1; k < start.length; k++) start[k]! += start[k - 1]!;
        const grouped = new Int32Array(n),
            fill = start.slice(0, -1);
        for (let i = 0; i < n; i++) grouped[fill[data[i * arity + position]! - low]!++] = i;
        this.start = start;
        this.grouped = grouped;
        this.low = low;
        return true;
    }

    add(ids: ArrayLike<number>, row: number): void {
        const key = maskKey(this.mask, ids);
        const list = this.lists.get(key);
        if (list) list.push(row);
        else this.lists.set(key, [row]);
    }

    /** Finds the rows holding `ids` at the index's positions (see `rowsOf`, `from`, `to`, `more`). */
    seek(ids: ArrayLike<number>): void {
        this.seekKey(maskKey(this.mask, ids));
    }

    /** `seek` by the key itself (an index on one position: that position's id). */
    seekKey(key: TupleKey): void {
        const k = (key as number) - this.low;
        if (this.start.length > 0 && k >= 0 && k < this.start.length - 1) {
            this.rowsOf = this.grouped;
            this.from = this.start[k]!;
            this.to = this.start[k + 1]!;
        } else {
            this.rowsOf = NONE;
            this.from = 0;
            this.to = 0;
        }
        this.more = this.lists.size === 0 ? EMPTY : (this.lists.get(key) ?? EMPTY);
    }

    /** The most rows any one key holds (a bound on the rows a step can choose from, for sampling: eval-sample.ts). */
    largestKey(): number {
        let most = 0;
        for (let k = 0; k + 1 < this.start.length; k++) {
            const n = this.start[k + 1]! - this.start[k]! + (this.lists.get((k + this.low) as TupleKey)?.length ?? 0);
            if (n > most) most = n;
        }
        for (const [key, list] of this.lists) {
            const k = (key as number) - this.low;
            if (this.start.length > 0 && typeof key === 'number' && k >= 0 && k < this.start.length - 1) continue;
            if (list.length > most) most = list.length;
        }
        return most;
    }

    /** The first row holding `ids` (-1: none). */
    first(ids: ArrayLike<number>): number {
        this.seek(ids);
        return this.from < this.to ? this.rowsOf[this.from]! : this.more.length > 0 ? this.more[0]! : -1;
    }
}

export interface Candidate {
    ids: number[];
    clause: number;
    premRow: number[];
}

export const NONE = new Int32Array(0);
const EMPTY: number[] = [];

function maskKey(mask: number, ids: ArrayLike<number>): TupleKey {
    let single = -1,
        parts: number[] | undefined;
    for (let k = 0; mask >> k; k++) {
        if (!(mask & (1 << k))) continue;
        if (single < 0 && !parts) single = ids[k]!;
        else {
            parts ??= [single];
            parts.push(ids[k]!);
        }
    }
    return parts ? tupleKey(parts) : single;
}

/** First position in [from, to) of an ascending array whose value is ≥ lo. */
export function lowerBound(list: ArrayLike<number>, from: number, to: number, lo: number): number {
    if (lo <= 0 || from >= to || list[from]! >= lo) return from;
    let a = from,
        b = to;
    while (a < b) {
        const m = (a + b) >> 1;
        if (list[m]! < lo) a = m + 1;
        else b = m;
    }
    return a;
}
