/**
 * Grouping rows by several dictionary-encoded columns at once: each row gets one integer per distinct
 * combination, so FD, key and distinct work is a pass over typed arrays instead of string hashing.
 */
import type { Column } from './types.js';

export interface Codes {
    codes: Int32Array;
    cardinality: number;
}

/** A column's codes with its cardinality (its distinct count, without reading its values). */
export const columnCodes = (c: Column): Codes => ({ codes: c.codes, cardinality: Math.max(1, c.size) });

/**
 * Results already computed from columns, found by the identity of the columns' arrays (one level of `WeakMap` per
 * array, then `key` for the rest of the arguments): a built column's codes and values never change, and relations
 * over one source share their columns' arrays, so a key check, an FD check and a probe's violating rows over the
 * same columns — of one relation or of several — group the rows once. An entry lives as long as the first array.
 */
interface Remembered {
    next: WeakMap<object, Remembered>;
    results: Map<string, unknown>;
}
const remembered = new WeakMap<object, Remembered>();

/** `compute()`, once per identity of `arrays` (in order) and `key`; the result is shared, so callers only read it. */
export function byArrays<T>(arrays: readonly object[], key: string, compute: () => T): T {
    let level: WeakMap<object, Remembered> = remembered;
    let entry: Remembered | undefined;
    for (const a of arrays) {
        entry = level.get(a);
        if (!entry) level.set(a, (entry = { next: new WeakMap(), results: new Map() }));
        level = entry.next;
    }
    if (!entry) return compute();
    if (!entry.results.has(key)) entry.results.set(key, compute());
    return entry.results.get(key) as T;
}

/**
 * A combined code per row over `columns` (-1 when any of them is null); `cardinality` bounds the codes. With
 * `nullIsValue` a null is a value of its own in each column (its code is the column's codes + 1, so no row is
 * -1). The result is shared (`byArrays`): callers only read it.
 */
export function groupCodes(columns: Codes[], rowCount: number, nullIsValue = false): Codes {
    if (columns.length === 0) return { codes: new Int32Array(rowCount), cardinality: 1 };
    if (columns.length === 1 && !nullIsValue) return columns[0]!;
    const key = `${rowCount}|${nullIsValue}|${columns.map(c => c.cardinality).join(',')}`;
    return byArrays(
        columns.map(c => c.codes),
        key,
        () => {
            const parts = nullIsValue
                ? columns.map(c => ({ codes: c.codes.map(v => v + 1), cardinality: c.cardinality + 1 }))
                : columns;
            let current: Codes = parts[0]!;
            for (let c = 1; c < parts.length; c++) current = combine(current, parts[c]!, rowCount);
            return current;
        },
    );
}

function combine(a: Codes, b: Codes, rowCount: number): Codes {
    const out = new Int32Array(rowCount);
    const product = a.cardinality * b.cardinality;
    const ac = a.codes,
        bc = b.codes,
        width = b.cardinality;
    // A small product space is used as is (sparse codes are fine for arrays of that size); otherwise the
    // pairs seen are renumbered densely, which bounds the cardinality by the row count.
    if (product <= Math.max(4 * rowCount, 1 << 16) && product < 2 ** 31) {
        for (let r = 0; r < rowCount; r++) {
            const x = ac[r]!,
                y = bc[r]!;
            out[r] = x < 0 || y < 0 ? -1 : x * width + y;
        }
        return { codes: out, cardinality: product };
    }
    const dense = new PairIds(Math.min(rowCount, product));
    for (let r = 0; r < rowCount; r++) {
        const x = ac[r]!,
            y = bc[r]!;
        out[r] = x < 0 || y < 0 ? -1 : dense.id(x, y);
    }
    return { codes: out, cardinality: Math.max(1, dense.size) };
}

/**
 * Dense ids for pairs of non-negative int32s: an open-addressing hash table over typed arrays, several times
 * faster than a Map with number keys for the millions of pairs a composite FD side produces.
 */
export class PairIds {
    private keysA: Int32Array;
    private keysB: Int32Array;
    private ids: Int32Array;
    private mask: number;
    size = 0;

    constructor(expected: number) {
        let capacity = 16;
        while (capacity < expected * 2) capacity *= 2;
        this.keysA = new Int32Array(capacity).fill(-1);
        this.keysB = new Int32Array(capacity);
        this.ids = new Int32Array(capacity);
        this.mask = capacity - 1;
    }

    private slot(a: number, b: number): number {
        let h = Math.imul(a, 0x9e3779b1) ^ b;
        h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
        let i = (h ^ (h >>> 13)) & this.mask;
        while (this.keysA[i] !== -1 && (this.keysA[i] !== a || this.keysB[i] !== b)) i = (i + 1) & this.mask;
        return i;
    }

    /** The pair's id, or -1 when it was never added. */
    get(a: number, b: number): number {
        const i = this.slot(a, b);
        return this.keysA[i] === -1 ? -1 : this.ids[i]!;
    }

    /** The pair's id, adding it (as the next id) when new. */
    id(a: number, b: number): number {
        let i = this.slot(a, b);
        if (this.keysA[i] !== -1) return this.ids[i]!;
        if ((this.size + 1) * 2 > this.keysA.length) {
            this.grow();
            i = this.slot(a, b);
        }
        this.keysA[i] = a;
        this.keysB[i] = b;
        this.ids[i] = this.size;
        return this.size++;
    }

    private grow(): void {
        const { keysA, keysB, ids } = this;
        this.keysA = new Int32Array(keysA.length * 2).fill(-1);
        this.keysB = new Int32Array(keysA.length * 2);
        this.ids = new Int32Array(keysA.length * 2);
        this.mask = this.keysA.length - 1;
        for (let j = 0; j < keysA.length; j++) {
            if (keysA[j] === -1) continue;
            const i = this.slot(keysA[j]!, keysB[j]!);
            this.keysA[i] = keysA[j]!;
            this.keysB[i] = keysB[j]!;
            this.ids[i] = ids[j]!;
        }
    }
}

/**
 * The first row of each distinct combination, in row order. A null is a value of its own here, so (x, null)
 * is kept; a row that is null in every column is not an entity and is left out.
 */
export function firstOccurrences(columns: Codes[], rowCount: number): Int32Array {
    // Nulls take one extra code per column so that (x, null) rows are kept rather than dropped.
    const grouped = groupCodes(columns, rowCount, true);
    const seen = new Uint8Array(grouped.cardinality);
    const rows: number[] = [];
    for (let r = 0; r < rowCount; r++) {
        const g = grouped.codes[r]!;
        if (seen[g] || columns.every(c => c.codes[r]! < 0)) continue;
        seen[g] = 1;
        rows.push(r);
    }
    return Int32Array.from(rows);
}

/** The rows whose combination some other row shares, ascending, with a dense id per combination (`groups[i]` is `rows[i]`'s). */
export interface SharedRows {
    rows: Int32Array;
    groups: Int32Array;
    cardinality: number;
}

/**
 * The rows whose combination over `columns` (none of them null) some other row shares, grouped exactly: for an FD's
 * violations or a key's repeats, only the rows that repeat their left-hand side matter, and in most data they are few.
 * A column at a time (the most distinct first), a count per code that stops at 2 (2 bits per distinct value) keeps
 * the rows whose code another row also has — a superset of the rows sharing the whole combination, which shrinks with
 * each column — and only those rows are grouped by their whole combination. A million rows with a unique title cost
 * a quarter of a byte per title, briefly, where a group code per row (`groupCodes`) costs 4 bytes a row and its hash table 24 MB.
 */
export function sharedRows(columns: Codes[], rowCount: number): SharedRows {
    const none: SharedRows = { rows: new Int32Array(0), groups: new Int32Array(0), cardinality: 0 };
    if (columns.length === 0) {
        const all = Int32Array.from({ length: rowCount }, (_, r) => r);
        return rowCount > 1 ? { rows: all, groups: new Int32Array(rowCount), cardinality: 1 } : none;
    }
    const order = [...columns].sort((a, b) => b.cardinality - a.cardinality);
    let rows: Int32Array | undefined;
    for (const c of order) {
        rows = repeatedCodes(c, rows, rowCount);
        if (rows.length === 0) return none;
    }
    // The candidates share each column's code with some row; grouped by the whole combination, the groups of one
    // row are left out.
    const candidates = rows!;
    const ids = new Int32Array(candidates.length);
    for (const c of order) {
        const pairs = new PairIds(candidates.length);
        const codes = c.codes;
        for (let i = 0; i < candidates.length; i++) ids[i] = pairs.id(ids[i]!, codes[candidates[i]!]!);
    }
    const sizes = new Uint8Array(candidates.length);
    for (let i = 0; i < ids.length; i++) if (sizes[ids[i]!]! < 2) sizes[ids[i]!]!++;
    let kept = 0;
    for (let i = 0; i < ids.length; i++) if (sizes[ids[i]!] === 2) kept++;
    if (kept === 0) return none;
    const out = new Int32Array(kept);
    const groups = new Int32Array(kept);
    const renumber = new Int32Array(candidates.length).fill(-1);
    let cardinality = 0;
    for (let i = 0, j = 0; i < ids.length; i++) {
        const g = ids[i]!;
        if (sizes[g] !== 2) continue;
        if (renumber[g] === -1) renumber[g] = cardinality++;
        out[j] = candidates[i]!;
        groups[j++] = renumber[g]!;
    }
    return { rows: out, groups, cardinality };
}

/** Of `rows` (ascending; all rows when undefined), those whose code in `column` another of them has (no null). */
function repeatedCodes(column: Codes, rows: Int32Array | undefined, rowCount: number): Int32Array {
    const codes = column.codes;
    // A 2-bit count per code (0, 1, 2 = more), four codes a byte.
    const seen = new Uint8Array((column.cardinality >>> 2) + 1);
    const count = (code: number) => (seen[code >>> 2]! >>> ((code & 3) << 1)) & 3;
    const n = rows ? rows.length : rowCount;
    let kept = 0;
    for (let i = 0; i < n; i++) {
        const code = codes[rows ? rows[i]! : i]!;
        if (code < 0) continue;
        const c = count(code);
        if (c < 2) seen[code >>> 2]! += 1 << ((code & 3) << 1);
        // The second row of a code brings the first with it.
        if (c === 1) kept += 2;
        else if (c === 2) kept++;
    }
    const out = new Int32Array(kept);
    for (let i = 0, j = 0; i < n; i++) {
        const r = rows ? rows[i]! : i;
        const code = codes[r]!;
        if (code >= 0 && count(code) === 2) out[j++] = r;
    }
    return out;
}
