/**
 * Row-level facts generation needs: which rows are in an FD-violating group and which repeat a key.
 * Computed once per table and attribute set from the dictionary codes, with the data layer's typed-array
 * grouping (no per-row objects or maps, so a million rows cost a few Int32Arrays, briefly).
 */
import type { RelationTable } from '../data/types.js';
import { columnCodes, groupCodes, type Codes } from '../data/group.js';

const cache = new WeakMap<RelationTable, Map<string, Uint8Array | Int32Array | null>>();

function cached<T extends Uint8Array | Int32Array>(table: RelationTable, id: string, compute: () => T | null): T | null {
    let perTable = cache.get(table);
    if (!perTable) {
        perTable = new Map();
        cache.set(table, perTable);
    }
    if (!perTable.has(id)) perTable.set(id, compute());
    return perTable.get(id) as T | null;
}

/** Group codes of the rows over some attributes (-1 where one is null); undefined if an attribute is missing. */
function grouped(table: RelationTable, attrs: string[]): Codes | undefined {
    const cols = attrs.map(a => table.column(a));
    if (cols.some(c => c === undefined)) return undefined;
    return groupCodes(
        cols.map(c => columnCodes(c!)),
        table.rowCount,
    );
}

/**
 * Flags (1) the rows of every group with equal `lhs` values but more than one distinct `rhs` combination —
 * the FD `lhs -> rhs` is violated there and the ground truth is ambiguous. Null when no row is flagged.
 * Rows with a null on the left-hand side form no group; a null on the right is a value of its own.
 */
export function violatingRows(table: RelationTable, lhs: string[], rhs: string[]): Uint8Array | null {
    return cached(table, `fd:${lhs.join(',')}->${rhs.join(',')}`, () => {
        const left = grouped(table, lhs);
        const rightCols = rhs.map(a => table.column(a));
        if (!left || rightCols.some(c => c === undefined)) return null;
        const right = groupCodes(
            rightCols.map(c => columnCodes(c!)),
            table.rowCount,
            true,
        );
        const UNSEEN = -1,
            CONFLICT = -2;
        const first = new Int32Array(left.cardinality).fill(UNSEEN);
        let any = false;
        for (let row = 0; row < table.rowCount; row++) {
            const g = left.codes[row]!;
            if (g < 0) continue;
            const r = right.codes[row]!;
            const seen = first[g]!;
            if (seen === UNSEEN) first[g] = r;
            else if (seen !== CONFLICT && seen !== r) {
                first[g] = CONFLICT;
                any = true;
            }
        }
        if (!any) return null;
        const flags = new Uint8Array(table.rowCount);
        for (let row = 0; row < table.rowCount; row++) {
            const g = left.codes[row]!;
            if (g >= 0 && first[g] === CONFLICT) flags[row] = 1;
        }
        return flags;
    });
}

/**
 * For each row, how many earlier rows have the same key (0 for the first occurrence). Null when no key
 * repeats. Repeats get their own question ids (key + occurrence) instead of colliding.
 */
export function keyOccurrences(table: RelationTable, key: string[]): Int32Array | null {
    if (key.length === 0) return null;
    return cached(table, `key:${key.join(',')}`, () => {
        const g = grouped(table, key);
        if (!g) return null;
        const counts = new Int32Array(g.cardinality);
        let repeated = false;
        for (let row = 0; row < table.rowCount; row++) {
            const k = g.codes[row]!;
            if (k >= 0 && counts[k]++ > 0) repeated = true;
        }
        if (!repeated) return null;
        counts.fill(0);
        const occ = new Int32Array(table.rowCount);
        for (let row = 0; row < table.rowCount; row++) {
            const k = g.codes[row]!;
            if (k >= 0) occ[row] = counts[k]++;
        }
        return occ;
    });
}
