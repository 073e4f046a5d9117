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
