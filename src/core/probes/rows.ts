/**
 * Row-level facts generation needs: which rows are in an FD-violating group and which repeat a key.
 * Computed once per set of columns (of one relation or of several sharing them) from the dictionary codes, with the data layer's typed-array
 * grouping (no per-row objects or maps, so a million rows cost a few Int32Arrays, briefly).
 */
import type { RelationTable } from '../data/types.js';
import { byArrays, columnCodes, sharedRows, type SharedRows } from '../data/group.js';

/**
 * `compute()` once per identity of the columns' code arrays (data/group.ts `byArrays`), not per table: relations
 * over one source share their columns' arrays, and a spec with many relations over one file (the editor bench's 87
 * over one CSV, issue 39) grouped the same rows once per relation before its first diagnostics. Null without
 * remembering when an attribute is missing.
 */
function cached<T extends Uint8Array | Int32Array>(
    table: RelationTable,
    attrs: string[],
    id: string,
    compute: () => T | null,
): T | null {
    const arrays = attrs.map(a => table.column(a)?.codes);
    if (arrays.some(c => c === undefined)) return null;
    return byArrays(arrays as Int32Array[], id, compute);
}

/** The rows that share their values of `attrs` with another row (data/group.ts sharedRows); undefined if an attribute is missing. */
function shared(table: RelationTable, attrs: string[]): SharedRows | undefined {
    const cols = attrs.map(a => table.column(a));
    if (cols.some(c => c === undefined)) return undefined;
    return sharedRows(
        cols.map(c => columnCodes(c!)),
        table.rowCount,
    );
}

/**
 * Flags (1) the rows of every group with equal `lhs` values but more than one distinct `rhs` combination —
 * the FD `lhs -> rhs` is violated there and the ground truth is ambiguous. Null when no row is flagged.
 * Rows with a null on the left-hand side form no group; a null on the right is a value of its own.
 * Only the rows that repeat their left-hand side are looked at (sharedRows), so a table whose left-hand side
 * repeats nowhere costs one byte per distinct value of one column, briefly, not a group code per row.
 */
export function violatingRows(table: RelationTable, lhs: string[], rhs: string[]): Uint8Array | null {
    return cached(table, [...lhs, ...rhs], `violating rows, ${lhs.length} on the left`, () => {
        const left = shared(table, lhs);
        const right = rhs.map(a => table.column(a)?.codes);
        if (!left || right.some(c => c === undefined) || left.rows.length === 0) return null;
        // Per group, its first row; a group whose rows do not all hold the first row's right-hand codes conflicts.
        const first = new Int32Array(left.cardinality).fill(-1);
        const conflict = new Uint8Array(left.cardinality);
        let any = false;
        for (let i = 0; i < left.rows.length; i++) {
            const g = left.groups[i]!,
                row = left.rows[i]!;
            const f = first[g]!;
            if (f < 0) first[g] = row;
            else if (!conflict[g] && right.some(codes => codes![row] !== codes![f])) {
                conflict[g] = 1;
                any = true;
            }
        }
        if (!any) return null;
        const flags = new Uint8Array(table.rowCount);
        for (let i = 0; i < left.rows.length; i++) if (conflict[left.groups[i]!]) flags[left.rows[i]!] = 1;
        return flags;
    });
}

/**
 * For each row, how many earlier rows have the same key (0 for the first occurrence). Null when no key
 * repeats. Repeats get their own question ids (key + occurrence) instead of colliding.
 */
export function keyOccurrences(table: RelationTable, key: string[]): Int32Array | null {
    if (key.length === 0) return null;
    return cached(table, key, 'key occurrences', () => {
        const g = shared(table, key);
        if (!g || g.rows.length === 0) return null;
        const counts = new Int32Array(g.cardinality);
        const occ = new Int32Array(table.rowCount);
        for (let i = 0; i < g.rows.length; i++) occ[g.rows[i]!] = counts[g.groups[i]!]++;
        return occ;
    });
}
