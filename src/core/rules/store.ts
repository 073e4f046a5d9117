/** Compact storage for the evaluator: interned values and tuple keys. */
import type { Value } from './ir.js';

/** Each distinct value gets an integer id; equal values (same type and value) share it. */
export class Interner {
    private readonly ids = new Map<Value, number>();
    private readonly values: Value[] = [];

    id(v: Value): number {
        let id = this.ids.get(v);
        if (id === undefined) {
            id = this.values.length;
            this.values.push(v);
            this.ids.set(v, id);
        }
        return id;
    }

    lookup(v: Value): number | undefined { return this.ids.get(v); }
    value(id: number): Value { return this.values[id]!; }
}

export type TupleKey = number | string;

const PAIR = 2 ** 26;

/** A tuple of ids as one Map key: the id itself, a pair packed in one number while ids stay small, else text. */
export function tupleKey(ids: ArrayLike<number>): TupleKey {
    if (ids.length === 1) return ids[0]!;
    if (ids.length === 2 && ids[0]! < PAIR && ids[1]! < PAIR) return ids[0]! * PAIR + ids[1]!;
    return Array.prototype.join.call(ids, ',');
}

/** The rows a TupleSet indexes: a relation's flat id storage. */
interface RowStore { at(i: number): number }

/**
 * The set of a relation's tuples as an open-addressing hash table of row numbers (Int32Array, linear probing):
 * a few bytes per fact where a Map with one key per fact costs tens, and no key object per lookup.
 */
export class TupleSet {
    private slots = new Int32Array(1024).fill(-1);
    private size = 0;

    constructor(private readonly arity: number, private readonly rows: RowStore) {}

    /** The row holding this tuple, or -1. */
    find(ids: ArrayLike<number>): number {
        const mask = this.slots.length - 1;
        for (let s = hashIds(ids, this.arity) & mask; ; s = (s + 1) & mask) {
            const row = this.slots[s]!;
            if (row < 0) return -1;
            if (this.equals(row, ids)) return row;
        }
    }

    /** Makes room for this many tuples at once (one resize instead of many while loading). */
    reserve(tuples: number): void {
        let capacity = this.slots.length;
        while (tuples * 2 > capacity) capacity *= 2;
        if (capacity === this.slots.length) return;
        const old = this.slots;
        this.slots = new Int32Array(capacity).fill(-1);
        for (const row of old) if (row >= 0) this.place(row);
    }

    /** Adds a row already stored in `rows` (and not yet in the set). */
    add(row: number): void {
        if ((this.size + 1) * 2 > this.slots.length) this.grow();
        this.place(row);
        this.size++;
    }

    private place(row: number): void {
        const mask = this.slots.length - 1;
        let s = this.hashRow(row) & mask;
        while (this.slots[s]! >= 0) s = (s + 1) & mask;
        this.slots[s] = row;
    }

    private grow(): void {
        this.reserve(this.slots.length);
    }

    private equals(row: number, ids: ArrayLike<number>): boolean {
        const base = row * this.arity;
        for (let k = 0; k < this.arity; k++) if (this.rows.at(base + k) !== ids[k]) return false;
        return true;
    }

    private hashRow(row: number): number {
        let h = 0x9e3779b9;
        const base = row * this.arity;
        for (let k = 0; k < this.arity; k++) h = mix(h, this.rows.at(base + k));
        return finish(h);
    }
}

function hashIds(ids: ArrayLike<number>, arity: number): number {
    let h = 0x9e3779b9;
    for (let k = 0; k < arity; k++) h = mix(h, ids[k]!);
    return finish(h);
}

function mix(h: number, id: number): number {
    h = Math.imul(h ^ id, 0x85ebca6b);
    return h ^ (h >>> 13);
}

function finish(h: number): number {
    h = Math.imul(h ^ (h >>> 16), 0xc2b2ae35);
    return (h ^ (h >>> 16)) >>> 0;
}
