/**
 * Row-level facts generation needs: which rows are in an FD-violating group, which repeat a key, and a
 * fast composite code per row. All computed from the dictionary codes once per table and attribute set.
 */
import type { RelationTable } from '../data/types.js';

/** A function giving each row one number (or string) that is equal exactly when the attributes' values are. */
export function compositeKey(table: RelationTable, attrs: string[]): ((row: number) => number | string) | undefined {
    const cols = attrs.map(a => table.column(a));
    if (cols.some(c => c === undefined)) return undefined;
    const codes = cols.map(c => c!.codes);
    if (codes.length === 1) { const c0 = codes[0]!; return row => c0[row]!; }
    // Mixed radix over the dictionary sizes (+1 for null) while it fits a double exactly; else text.
    const radix = cols.map(c => c!.values.length + 1);
    if (radix.reduce((a, b) => a * b, 1) < Number.MAX_SAFE_INTEGER) {
        return row => {
            let k = 0;
            for (let i = 0; i < codes.length; i++) k = k * radix[i]! + codes[i]![row]! + 1;
            return k;
        };
    }
    return row => codes.map(c => c[row]!).join(',');
}

const cache = new WeakMap<RelationTable, Map<string, Uint8Array | null>>();

function cached(table: RelationTable, id: string, compute: () => Uint8Array | null): Uint8Array | null {
    let perTable = cache.get(table);
    if (!perTable) { perTable = new Map(); cache.set(table, perTable); }
    if (!perTable.has(id)) perTable.set(id, compute());
    return perTable.get(id)!;
}

/**
 * Flags (1) the rows of every group with equal `lhs` values but more than one distinct `rhs` combination —
 * the FD `lhs -> rhs` is violated there and the ground truth is ambiguous. Null when no row is flagged.
 * Rows with a null on the left-hand side form no group.
 */
export function violatingRows(table: RelationTable, lhs: string[], rhs: string[]): Uint8Array | null {
    return cached(table, `fd:${lhs.join(',')}->${rhs.join(',')}`, () => {
        const left = compositeKey(table, lhs);
        const right = compositeKey(table, rhs);
        if (!left || !right) return null;
        const lhsCols = lhs.map(a => table.column(a)!.codes);
        const hasNull = (row: number) => lhsCols.some(c => c[row]! < 0);
        const CONFLICT = Symbol('conflict');
        const groups = new Map<number | string, number | string | typeof CONFLICT>();
        let any = false;
        for (let row = 0; row < table.rowCount; row++) {
            if (hasNull(row)) continue;
            const k = left(row);
            const r = right(row);
            const seen = groups.get(k);
            if (seen === undefined) groups.set(k, r);
            else if (seen !== CONFLICT && seen !== r) { groups.set(k, CONFLICT); any = true; }
        }
        if (!any) return null;
        const flags = new Uint8Array(table.rowCount);
        for (let row = 0; row < table.rowCount; row++) if (!hasNull(row) && groups.get(left(row)) === CONFLICT) flags[row] = 1;
        return flags;
    });
}

/** Flags every row whose key repeats an earlier row's key (the entity is ambiguous). Null when none. */
export function repeatedKeyRows(table: RelationTable, key: string[]): Uint8Array | null {
    return cached(table, `key:${key.join(',')}`, () => {
        const k = compositeKey(table, key);
        if (!k) return null;
        const seen = new Set<number | string>();
        let flags: Uint8Array | null = null;
        for (let row = 0; row < table.rowCount; row++) {
            const v = k(row);
            if (!seen.has(v)) { seen.add(v); continue; }
            flags ??= new Uint8Array(table.rowCount);
            flags[row] = 1;
        }
        return flags;
    });
}
