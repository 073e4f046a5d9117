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

/** A growable Int32Array (rows arrive one by one from a stream of unknown length). */
export class Int32Builder {
    private data: Int32Array;
    private size = 0;

    constructor(capacity = 1024) {
        this.data = new Int32Array(Math.max(16, capacity));
    }

    get length(): number { return this.size; }

    push(value: number): void {
        if (this.size === this.data.length) {
            const grown = new Int32Array(this.data.length * 2);
            grown.set(this.data);
            this.data = grown;
        }
        this.data[this.size++] = value;
    }

    at(i: number): number { return this.data[i]!; }

    build(): Int32Array { return this.data.slice(0, this.size); }
}

/** Appends values to one column, reusing dictionary codes for values seen before. */
export class ColumnBuilder {
    private readonly codes: Int32Builder;
    private readonly values: CellValue[] = [];
    private readonly index = new Map<string | number | boolean, number>();

    constructor(readonly attribute: string, readonly type: AttrType, capacity = 1024) {
        this.codes = new Int32Builder(capacity);
    }

    get length(): number { return this.codes.length; }

    /** Adds one row's value; null (or undefined) becomes code -1. */
    push(value: CellValue | undefined): void {
        this.codes.push(this.code(value));
    }

    /** Adds a row by an already known code (from `code`, or -1 for null). */
    pushCode(code: number): void {
        this.codes.push(code);
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

    build(): Column {
        return { attribute: this.attribute, type: this.type, codes: this.codes.build(), values: this.values };
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
