/**
 * Building dictionary-encoded relation tables. Every column keeps each distinct value once (`values`) and one
 * Int32 code per row, so a million rows cost a few megabytes per column and grouping compares integers.
 */
import type { AttrType } from '../spec/model.js';
import type { CellValue, Column, RelationTable } from './types.js';

/** A stable text key for a cell, used to share one dictionary entry between equal values (lists included). */
export function cellKey(value: CellValue): string {
    if (Array.isArray(value)) return 'l' + JSON.stringify(value);
    return typeof value === 'string' ? 's' + value : typeof value === 'number' ? 'n' + value : 'b' + value;
}

/** Appends values to one column, reusing dictionary codes for values seen before. */
export class ColumnBuilder {
    private codes: Int32Array;
    private readonly values: CellValue[] = [];
    private readonly index = new Map<string | number | boolean, number>();
    private size = 0;

    constructor(readonly attribute: string, readonly type: AttrType, capacity = 1024) {
        this.codes = new Int32Array(Math.max(16, capacity));
    }

    get length(): number { return this.size; }

    /** Adds one row's value; null (or undefined) becomes code -1. */
    push(value: CellValue | undefined): void {
        if (this.size === this.codes.length) {
            const grown = new Int32Array(this.codes.length * 2);
            grown.set(this.codes);
            this.codes = grown;
        }
        this.codes[this.size++] = this.code(value);
    }

    /** The dictionary code of a value (adding it when new); -1 for null. */
    code(value: CellValue | undefined): number {
        if (value === null || value === undefined) return -1;
        // Plain strings and numbers are their own map key (cheap, no concatenation); lists go through JSON.
        const key = Array.isArray(value) ? cellKey(value) : typeof value === 'string' ? value : typeof value === 'number' ? value : (value ? 'true\u0000' : 'false\u0000');
        let code = this.index.get(key);
        if (code === undefined) {
            code = this.values.length;
            this.values.push(value);
            this.index.set(key, code);
        }
        return code;
    }

    /** Adds a row by an already known code (used by projections). */
    pushCode(code: number): void {
        if (this.size === this.codes.length) {
            const grown = new Int32Array(this.codes.length * 2);
            grown.set(this.codes);
            this.codes = grown;
        }
        this.codes[this.size++] = code;
    }

    build(): Column {
        return { attribute: this.attribute, type: this.type, codes: this.codes.slice(0, this.size), values: this.values };
    }
}

/** Wraps finished columns as a RelationTable with by-name access. */
export function makeTable(relation: string, file: string, columns: Column[], lines: Int32Array): RelationTable {
    const byName = new Map(columns.map(c => [c.attribute, c]));
    const rowCount = lines.length;
    return {
        relation, file, rowCount, columns, lines,
        column: (attribute: string) => byName.get(attribute),
        value(row: number, attribute: string): CellValue {
            const column = byName.get(attribute);
            if (!column || row < 0 || row >= rowCount) return null;
            const code = column.codes[row]!;
            return code < 0 ? null : column.values[code]!;
        },
    };
}

/**
 * Builds a table from already typed rows (each row in attribute order). `lines` defaults to 2, 3, … (the
 * lines of a CSV file with a header row).
 */
export function createTable(
    relation: string, file: string, attributes: { name: string; type: AttrType }[], rows: CellValue[][], lines?: number[],
): RelationTable {
    const builders = attributes.map(a => new ColumnBuilder(a.name, a.type, rows.length));
    for (const row of rows) builders.forEach((b, i) => b.push(row[i] ?? null));
    const lineArray = Int32Array.from(lines ?? rows.map((_, i) => i + 2));
    if (lineArray.length !== rows.length) throw new Error(`createTable: ${rows.length} rows but ${lineArray.length} lines`);
    return makeTable(relation, file, builders.map(b => b.build()), lineArray);
}
