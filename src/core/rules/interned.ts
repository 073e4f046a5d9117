/** Interned values and tuples of their ids, for the evaluator: the interner, tuple keys, an int vector and a tuple set. */
import type { Value } from './ir.js';
import { NumberCodes } from '../data/codes.js';

/**
 * Each distinct value gets an integer id; equal values (same type and value) share it. Numbers, most of a fact
 * base's values (keys, years, ids), are looked up in a typed-array hash (NumberCodes, same equality as a Map):
 * a Map of a million number keys is tens of megabytes of heap that each later full GC scans again, inside the
 * derivation (the shared-object join). Texts and booleans go through a Map.
 */
export class Interner {
    private readonly ids = new Map<Value, number>();
    private readonly numbers = new NumberCodes();
    private readonly values: Value[] = [];

    id(v: Value): number {
        if (typeof v === 'number') {
            const next = this.values.length;
            const id = this.numbers.codeOr(v, next);
            if (id === next) this.values.push(v);
            return id;
        }
        let id = this.ids.get(v);
        if (id === undefined) {
            id = this.values.length;
            this.values.push(v);
            this.ids.set(v, id);
        }
        return id;
    }

    lookup(v: Value): number | undefined {
        if (typeof v === 'number') {
            const id = this.numbers.lookup(v);
            return id === -1 ? undefined : id;
        }
        return this.ids.get(v);
    }
    value(id: number): Value {
        return this.values[id]!;
    }
}

export type TupleKey = number | string;

const PAIR = 2 ** 26;

/** A tuple of ids as one Map key: the id itself, a pair packed in one number while ids stay small, else text. */
export function tupleKey(ids: ArrayLike<number>): TupleKey {
    if (ids.length === 1) return ids[0]!;
    if (ids.length === 2 && ids[0]! < PAIR && ids[1]! < PAIR) return ids[0]! * PAIR + ids[1]!;
    return Array.prototype.join.call(ids, ',');
}

/**
 * A growable vector of 32-bit ints. `data` is the current backing array (replaced when it grows), so a hot loop
 * may read it directly; rows already written stay valid in an old backing array, which is never written again.
 */
export class IntVec {
    data: Int32Array;
    length = 0;

    constructor(capacity = 1024) {
        this.data = new Int32Array(Math.max(16, capacity));
    }

    push(value: number): void {
        if (this.length === this.data.length) this.grow(this.length + 1);
        this.data[this.length++] = value;
    }

    /** Makes room for `count` more values (one copy instead of several while a relation fills). */
    reserve(count: number): void {
        if (this.length + count > this.data.length) this.grow(this.length + count);
    }

    private grow(needed: number): void {
        let length = this.data.length;
        while (length < needed) length *= 2;
        const grown = new Int32Array(length);
        grown.set(this.data.subarray(0, this.length));
        this.data = grown;
    }

    at(i: number): number {
        return this.data[i]!;
    }
}

/**
 * The set of a relation's tuples as an open-addressing hash table (linear probing) of [hash, row + 1] pairs in
 * one Int32Array: a few bytes per fact where a Map with one key per fact costs tens, no key object per lookup,
 * and a probe reads the stored hash before it touches the row, so a miss (a new fact) costs one memory access
 * and growing never re-reads the rows.
 */
export class TupleSet {
    private cells = new Int32Array(2 * 1024);
    private size = 0;

    constructor(
        private readonly arity: number,
        private readonly rows: IntVec,
    ) {}

    /** Rows [lazyFrom, lazyTo) hold tuples the set has not recorded yet: they are added on its next use (defer). */
    private lazyFrom = 0;
    private lazyTo = 0;

    /**
     * Rows [from, to) hold new, distinct tuples (evaluate.ts fireDistinct): the set records them when it is next
     * asked, at their final number (one sizing, no regrowth), not while they are derived — a derivation nobody
     * asks membership of never pays for it.
     */
    defer(from: number, to: number): void {
        this.catchUp();
        this.lazyFrom = from;
        this.lazyTo = to;
    }

    private catchUp(): void {
        const from = this.lazyFrom,
            to = this.lazyTo;
        if (to <= from) return;
        this.lazyFrom = this.lazyTo = 0;
        this.reserve(this.size + to - from);
        for (let row = from; row < to; row++) this.addRow(row);
    }

    /** The row holding this tuple, or -1. */
    find(ids: ArrayLike<number>): number {
        if (this.lazyTo !== 0) this.catchUp();
        const h = hashIds(ids, this.arity);
        const cells = this.cells,
            mask = (cells.length >> 1) - 1;
        for (let s = h & mask; ; s = (s + 1) & mask) {
            const row = cells[2 * s + 1]! - 1;
            if (row < 0) return -1;
            if (cells[2 * s] === h && this.equals(row, ids)) return row;
        }
    }

    /** The row holding this tuple; when there is none, `row` is recorded as holding it (append it next) and -1 returned. */
    insert(ids: ArrayLike<number>, row: number): number {
        if (this.lazyTo !== 0) this.catchUp();
        if ((this.size + 1) * 2 > this.cells.length >> 1) this.resize(this.cells.length);
        const h = hashIds(ids, this.arity);
        const cells = this.cells,
            mask = (cells.length >> 1) - 1;
        let s = h & mask;
        for (; ; s = (s + 1) & mask) {
            const at = cells[2 * s + 1]! - 1;
            if (at < 0) break;
            if (cells[2 * s] === h && this.equals(at, ids)) return at;
        }
        cells[2 * s] = h;
        cells[2 * s + 1] = row + 1;
        this.size++;
        return -1;
    }

    /** Records row `row` of the relation, known to hold a tuple the set does not. */
    private addRow(row: number): void {
        if ((this.size + 1) * 2 > this.cells.length >> 1) this.resize(this.cells.length);
        const data = this.rows.data,
            arity = this.arity,
            base = row * arity;
        let h = 0x9e3779b9;
        for (let k = 0; k < arity; k++) h = mix(h, data[base + k]!);
        h = finish(h);
        const cells = this.cells,
            mask = (cells.length >> 1) - 1;
        let s = h & mask;
        while (cells[2 * s + 1] !== 0) s = (s + 1) & mask;
        cells[2 * s] = h;
        cells[2 * s + 1] = row + 1;
        this.size++;
    }

    /** Makes room for this many tuples at once (one resize instead of many while loading). */
    reserve(tuples: number): void {
        if (this.lazyTo !== 0) this.catchUp();
        let capacity = this.cells.length >> 1;
        while (tuples * 2 > capacity) capacity *= 2;
        if (capacity !== this.cells.length >> 1) this.resize(capacity);
    }

    private resize(capacity: number): void {
        const old = this.cells;
        const cells = new Int32Array(2 * capacity),
            mask = capacity - 1;
        for (let i = 0; i < old.length; i += 2) {
            if (old[i + 1] === 0) continue;
            let s = old[i]! & mask;
            while (cells[2 * s + 1] !== 0) s = (s + 1) & mask;
            cells[2 * s] = old[i]!;
            cells[2 * s + 1] = old[i + 1]!;
        }
        this.cells = cells;
    }

    private equals(row: number, ids: ArrayLike<number>): boolean {
        const data = this.rows.data,
            base = row * this.arity;
        for (let k = 0; k < this.arity; k++) if (data[base + k] !== ids[k]) return false;
        return true;
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

/** A 31-bit hash (never negative), so it masks and compares as a plain int. */
function finish(h: number): number {
    h = Math.imul(h ^ (h >>> 16), 0xc2b2ae35);
    return (h ^ (h >>> 16)) & 0x7fffffff;
}
