/**
 * The data checks as pure functions over loaded tables: FDs (rows that agree on the left-hand side but not
 * on the right), keys (duplicate key values), FKs (references with no match) and column statistics.
 * Rows with an empty (null) value in the attributes compared are not compared: an unknown value neither
 * breaks nor confirms a dependency, as in SQL's COUNT(DISTINCT …).
 */
import type { CellValue, Column, ColumnStats, RelationTable } from './types.js';
import { cellKey } from './table.js';
import { byArrays, columnCodes, groupCodes, PairIds } from './group.js';

/** How many example rows each group keeps. */
const ROWS_KEPT = 3;

interface FdVariant {
    /** The right-hand-side values of these rows. */
    rhs: CellValue[];
    /** How many rows have them. */
    count: number;
    /** The first few rows (indices into the table) that have them. */
    rows: number[];
}

export interface FdViolation {
    /** The left-hand-side values shared by the rows that disagree. */
    lhs: CellValue[];
    /** Two or more right-hand sides, in order of first appearance. */
    variants: FdVariant[];
}

/** `exact`: every row holding the key value is identical on every attribute (a repeated row, not a conflict). */
export interface KeyViolation {
    values: CellValue[];
    count: number;
    rows: number[];
    exact: boolean;
}
export interface FkViolation {
    values: CellValue[];
    count: number;
    rows: number[];
}

function columnsOf(table: RelationTable, attributes: string[]): Column[] {
    return attributes.map(a => {
        const column = table.column(a);
        if (!column) throw new Error(`${table.relation} has no attribute '${a}'`);
        return column;
    });
}

function valuesAt(columns: Column[], row: number): CellValue[] {
    return columns.map(c => {
        const code = c.codes[row]!;
        return code < 0 ? null : c.values[code]!;
    });
}

/** Groups of rows sharing the FD's left-hand side but not its right-hand side, in order of first row. */
export function checkFd(table: RelationTable, fd: { lhs: string[]; rhs: string[] }): FdViolation[] {
    const lhsColumns = columnsOf(table, fd.lhs),
        rhsColumns = columnsOf(table, fd.rhs);
    // Tables sharing these columns (relations over one source) share the result (`byArrays`).
    return byArrays(
        [...lhsColumns, ...rhsColumns].map(c => c.codes),
        `fd ${lhsColumns.length} ${table.rowCount}`,
        () => fdViolations(lhsColumns, rhsColumns, table.rowCount),
    );
}

function fdViolations(lhsColumns: Column[], rhsColumns: Column[], n: number): FdViolation[] {
    const lhs = groupCodes(lhsColumns.map(columnCodes), n),
        rhs = groupCodes(rhsColumns.map(columnCodes), n);
    const first = new Int32Array(lhs.cardinality).fill(-1);
    const broken = new Uint8Array(lhs.cardinality);
    const lc = lhs.codes,
        rc = rhs.codes;
    let any = false;
    for (let r = 0; r < n; r++) {
        const g = lc[r]!,
            v = rc[r]!;
        if (g < 0 || v < 0) continue;
        const f = first[g]!;
        if (f === -1) first[g] = v;
        else if (f !== v && broken[g] === 0) {
            broken[g] = 1;
            any = true;
        }
    }
    if (!any) return [];
    // Second pass over the rows of broken groups only; a group has few variants, so they are scanned.
    const index = new Int32Array(lhs.cardinality).fill(-1);
    const found: { violation: FdViolation; codes: number[] }[] = [];
    for (let r = 0; r < n; r++) {
        const g = lc[r]!,
            v = rc[r]!;
        if (g < 0 || v < 0 || broken[g] === 0) continue;
        let k = index[g]!;
        if (k < 0) {
            k = index[g] = found.length;
            found.push({ violation: { lhs: valuesAt(lhsColumns, r), variants: [] }, codes: [] });
        }
        const entry = found[k]!;
        let j = entry.codes.indexOf(v);
        if (j < 0) {
            j = entry.codes.push(v) - 1;
            entry.violation.variants.push({ rhs: valuesAt(rhsColumns, r), count: 0, rows: [] });
        }
        const variant = entry.violation.variants[j]!;
        variant.count++;
        if (variant.rows.length < ROWS_KEPT) variant.rows.push(r);
    }
    return found.map(f => f.violation);
}

/** Key values held by more than one row, in order of first row. */
export function checkKey(table: RelationTable, key: string[]): KeyViolation[] {
    const columns = columnsOf(table, key);
    const all = [...columns, ...table.columns].map(c => c.codes);
    return byArrays(all, `key ${columns.length} ${table.rowCount}`, () => keyViolations(table, columns));
}

function keyViolations(table: RelationTable, columns: Column[]): KeyViolation[] {
    const n = table.rowCount;
    const grouped = groupCodes(columns.map(columnCodes), n);
    const counts = new Int32Array(grouped.cardinality);
    for (let r = 0; r < n; r++) {
        const g = grouped.codes[r]!;
        if (g >= 0) counts[g]++;
    }
    let repeated = false;
    for (let g = 0; g < counts.length && !repeated; g++) repeated = counts[g]! > 1;
    if (!repeated) return [];
    // Whole rows as one code each, to tell a repeated row from two rows that disagree under one key.
    const whole = groupCodes(table.columns.map(columnCodes), n);
    const found = new Map<number, KeyViolation & { wholeCode: number }>();
    for (let r = 0; r < n; r++) {
        const g = grouped.codes[r]!;
        if (g < 0 || counts[g]! < 2) continue;
        let v = found.get(g);
        if (!v) {
            v = { values: valuesAt(columns, r), count: counts[g]!, rows: [], exact: true, wholeCode: whole.codes[r]! };
            found.set(g, v);
        }
        if (whole.codes[r] !== v.wholeCode) v.exact = false;
        if (v.rows.length < ROWS_KEPT) v.rows.push(r);
    }
    return [...found.values()].map(({ wholeCode: _w, ...v }) => v);
}

/** Each value of `from` as its code in `to` (-1 where `to` never has it), once per pair of dictionaries. */
const translation = (from: readonly CellValue[], to: readonly CellValue[]): Int32Array =>
    byArrays([from, to], 'translation', () => {
        const index = new Map<string, number>(to.map((v, code) => [cellKey(v), code]));
        return Int32Array.from(from, v => index.get(cellKey(v)) ?? -1);
    });

/**
 * Values of `from` (per distinct referencing tuple) with no row of `to` holding them, in order of first row.
 * Values are compared typed: the int 1954 does not match the text '1954'.
 */
export function checkFk(
    from: RelationTable,
    to: RelationTable,
    fk: { from: { attributes: string[] }; to: { attributes: string[] } },
): FkViolation[] {
    const fromColumns = columnsOf(from, fk.from.attributes),
        toColumns = columnsOf(to, fk.to.attributes);
    if (fromColumns.length !== toColumns.length) throw new Error('an fk needs as many attributes on each side');
    const arrays = [...fromColumns, ...toColumns].map(c => c.codes);
    return byArrays(arrays, `fk ${fromColumns.length} ${from.rowCount} ${to.rowCount}`, () =>
        fkViolations(from, to, fromColumns, toColumns),
    );
}

function fkViolations(from: RelationTable, to: RelationTable, fromColumns: Column[], toColumns: Column[]): FkViolation[] {
    if (fromColumns.length === 1 && fromColumns[0]!.type.list && !toColumns[0]!.type.list)
        return checkListFk(from.rowCount, fromColumns[0]!, toColumns[0]!);
    // Translate each `from` dictionary into `to` codes once; -1 marks a value `to` never has.
    const translated = fromColumns.map((fc, i) => translation(fc.values, toColumns[i]!.values));
    // The tuples `to` holds, as ids built column by column (pairs of the id so far and the next code).
    const first = toColumns[0]!;
    const present = new Uint8Array(Math.max(1, first.size));
    const pairs = toColumns.slice(1).map(() => new PairIds(to.rowCount));
    for (let r = 0; r < to.rowCount; r++) {
        let id = first.codes[r]!;
        for (let c = 1; c < toColumns.length && id >= 0; c++) {
            const code = toColumns[c]!.codes[r]!;
            id = code < 0 ? -1 : pairs[c - 1]!.id(id, code);
        }
        if (id >= 0 && toColumns.length === 1) present[id] = 1;
    }
    const grouped = groupCodes(fromColumns.map(columnCodes), from.rowCount);
    const found = new Map<number, FkViolation>();
    for (let r = 0; r < from.rowCount; r++) {
        const g = grouped.codes[r]!;
        if (g < 0) continue;
        let id = translated[0]![fromColumns[0]!.codes[r]!]!;
        for (let c = 1; c < fromColumns.length && id >= 0; c++) {
            const code = translated[c]![fromColumns[c]!.codes[r]!]!;
            id = code < 0 ? -1 : pairs[c - 1]!.get(id, code);
        }
        if (id >= 0 && (fromColumns.length > 1 || present[id] === 1)) continue;
        let v = found.get(g);
        if (!v) {
            v = { values: valuesAt(fromColumns, r), count: 0, rows: [] };
            found.set(g, v);
        }
        v.count++;
        if (v.rows.length < ROWS_KEPT) v.rows.push(r);
    }
    return [...found.values()];
}

/**
 * A list-valued attribute referencing a scalar one (`fk Movie.genres -> Genre.name`): each element is a
 * reference, so each element `to` never holds is a violation of its own, counted once per row that lists it.
 */
function checkListFk(rowCount: number, list: Column, target: Column): FkViolation[] {
    const present = new Set(target.values.map(cellKey));
    // The missing elements of each distinct list, worked out once per list.
    const missingOf = new Map<number, CellValue[]>();
    const found = new Map<string, FkViolation>();
    for (let r = 0; r < rowCount; r++) {
        const code = list.codes[r]!;
        if (code < 0) continue;
        let missing = missingOf.get(code);
        if (!missing) {
            const seen = new Set<string>();
            missing = [];
            for (const element of list.values[code] as CellValue[]) {
                const key = cellKey(element);
                if (!present.has(key) && !seen.has(key)) {
                    seen.add(key);
                    missing.push(element);
                }
            }
            missingOf.set(code, missing);
        }
        for (const element of missing) {
            const key = cellKey(element);
            let v = found.get(key);
            if (!v) {
                v = { values: [element], count: 0, rows: [] };
                found.set(key, v);
            }
            v.count++;
            if (v.rows.length < ROWS_KEPT) v.rows.push(r);
        }
    }
    return [...found.values()];
}

/** Row, null and distinct counts of one attribute, its most frequent values and (for numbers) its range. */
export function columnStats(table: RelationTable, attribute: string): ColumnStats {
    const column = columnsOf(table, [attribute])[0]!;
    const counts = new Int32Array(column.size);
    let nulls = 0;
    for (let r = 0; r < table.rowCount; r++) {
        const code = column.codes[r]!;
        if (code < 0) nulls++;
        else counts[code]++;
    }
    const used: number[] = [];
    for (let code = 0; code < counts.length; code++) if (counts[code]! > 0) used.push(code);
    const samples = [...used]
        .sort((a, b) => counts[b]! - counts[a]! || a - b)
        .slice(0, 5)
        .map(code => column.values[code]!);
    const stats: ColumnStats = { attribute, rows: table.rowCount, nulls, distinct: used.length, samples };
    if ((column.type.scalar === 'int' || column.type.scalar === 'real') && !column.type.list && used.length > 0) {
        let min = Infinity,
            max = -Infinity;
        for (const code of used) {
            const v = column.values[code] as number;
            if (v < min) min = v;
            if (v > max) max = v;
        }
        stats.min = min;
        stats.max = max;
    }
    return stats;
}
