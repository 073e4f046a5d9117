/**
 * Building dictionary-encoded relation tables. Every column keeps each distinct value once (`values`) and one
 * Int32 code per row, so a million rows cost a few megabytes per column and grouping compares integers.
 */
import type { AttrType } from '../spec/model.js';
import type { CellValue, Column, RelationTable } from './types.js';
import { NumberCodes, TextCodes } from './codes.js';

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

    get length(): number {
        return this.size;
    }

    /** Makes room for `count` numbers in all (when a reader knows roughly how many rows come). */
    reserve(count: number): void {
        if (count > this.data.length) this.resize(count);
    }

    push(value: number): void {
        if (this.size === this.data.length) this.resize(this.data.length * 2);
        this.data[this.size++] = value;
    }

    /** Adds `first`, `first + 1`, … (`count` numbers). */
    pushRange(first: number, count: number): void {
        let length = this.data.length;
        while (this.size + count > length) length *= 2;
        if (length > this.data.length) this.resize(length);
        for (let i = 0; i < count; i++) this.data[this.size++] = first + i;
    }

    private resize(length: number): void {
        const grown = new Int32Array(length);
        grown.set(this.data.subarray(0, this.size));
        this.data = grown;
    }

    at(i: number): number {
        return this.data[i]!;
    }

    /**
     * The numbers. When they fill all but an eighth of the array (a reader that knew its row count reserved it),
     * a view of it, not a copy: copying a million-row column touches 4 MB of fresh memory.
     */
    build(): Int32Array {
        const data = this.data;
        return this.size >= data.length - (data.length >> 3) ? data.subarray(0, this.size) : data.slice(0, this.size);
    }
}

/** Appends values to one column, reusing dictionary codes for values seen before. */
export class ColumnBuilder {
    private readonly codes: Int32Builder;
    /**
     * The distinct values by code. With `textBytes`, a holey array, grown ahead (see `room`) and only for values
     * given as such: a text taken as bytes leaves its slot a hole until `build`'s getter reads it. A million-row
     * column then costs no million-slot array while it loads (pushing a million values one by one cost more than
     * dictionary-coding them: each growth copies the array into fresh memory). Otherwise packed, pushed in turn.
     */
    private values: CellValue[] = [];
    /** How many distinct values (codes) there are. */
    private size = 0;
    /** The rows expected in all (grow straight to room for them once past 2^16 values, as the dictionaries do). */
    private readonly expectedRows: number;
    private readonly index = new Map<string | boolean, number>();
    private readonly numbers = new NumberCodes();
    /** With `textBytes`, texts are keyed by their UTF-8 bytes (for readers that have bytes, not strings). */
    private readonly texts: TextCodes | undefined;

    constructor(
        readonly attribute: string,
        readonly type: AttrType,
        capacity = 1024,
        textBytes = false,
    ) {
        this.codes = new Int32Builder(capacity);
        this.expectedRows = capacity;
        this.texts = textBytes ? new TextCodes() : undefined;
        this.numbers.expectedRows = capacity;
        if (this.texts) this.texts.expectedRows = capacity;
    }

    get length(): number {
        return this.codes.length;
    }

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
        if (typeof value === 'number') return this.numberCode(value);
        if (this.texts && typeof value === 'string') {
            const code = this.texts.codeOfString(value, this.size);
            if (code === this.size) this.add(value);
            return code;
        }
        // Plain strings are their own map key (cheap, no concatenation); lists go through JSON.
        const key = Array.isArray(value)
            ? cellKey(value)
            : typeof value === 'string'
              ? value
              : value
                ? 'true\u0000'
                : 'false\u0000';
        let code = this.index.get(key);
        if (code === undefined) {
            code = this.size;
            this.add(value);
            this.index.set(key, code);
        }
        return code;
    }

    /** Gives the next code to `value` (undefined: a text kept as bytes, read at `build`). */
    private add(value: CellValue | undefined): void {
        if (!this.texts) this.values.push(value!);
        else if (value !== undefined) {
            if (this.size >= this.values.length) this.room(this.size + 1);
            this.values[this.size] = value;
        }
        this.size++;
    }

    /** A holey values array of at least `min` slots: doubled, or room for every row expected once past 2^16. */
    private room(min: number): void {
        let length = Math.max(1024, this.values.length * 2, min);
        if (min > 1 << 16 && this.expectedRows > length) length = this.expectedRows;
        const grown = new Array<CellValue>(length),
            values = this.values;
        for (let i = 0; i < values.length; i++) if (values[i] !== undefined) grown[i] = values[i]!;
        this.values = grown;
    }

    /**
     * The dictionary code of a number (adding it when new). With `textBytes`, a new number stays in the number
     * dictionary until the column's values are first read (see build), as a text stays as bytes; -0, which the
     * dictionary may keep as 0, is written at once.
     */
    numberCode(value: number): number {
        const code = this.numbers.codeOr(value, this.size);
        if (code === this.size) {
            if (this.texts && !Object.is(value, -0)) {
                this.size++;
                this.deferred++;
            } else this.add(value);
        }
        return code;
    }

    /**
     * The dictionary code of the text in `buf[start, end)` (UTF-8; adding it when new). Needs `textBytes`. The
     * text stays as bytes until the column's values are first read (see build).
     */
    textCode(buf: Buffer, start: number, end: number): number {
        const code = this.texts!.codeOr(buf, start, end, this.size);
        if (code === this.size) {
            this.add(undefined);
            this.deferred++;
        }
        return code;
    }

    /** Values left in their dictionary (texts as bytes, numbers) until `values` is first read. */
    private deferred = 0;

    /**
     * The column. Texts taken as bytes become JS strings, and numbers (with `textBytes`) come out of their
     * dictionary, on the first read of `values`, all at once: checking keys, FDs and FKs reads codes and `size`
     * only, so a million distinct names or ids a check never shows cost no million-slot array while loading.
     */
    build(): Column {
        const { attribute, type, texts, size } = this;
        const codes = this.codes.build();
        let values = this.values;
        if (values.length > size) values.length = size;
        if (this.deferred === 0 || !texts) return { attribute, type, codes, size, values };
        texts.seal();
        const numbers = this.numbers;
        let ready = false;
        return {
            attribute,
            type,
            codes,
            size,
            get values() {
                if (!ready) {
                    if (values.length < size) {
                        const all = new Array<CellValue>(size);
                        for (let code = 0; code < values.length; code++) all[code] = values[code]!;
                        values = all;
                    }
                    numbers.writeValues(values);
                    for (let code = 0; code < size; code++) if (values[code] === undefined) values[code] = texts.text(code);
                    ready = true;
                }
                return values;
            },
        };
    }
}

/** A column under another name, type or codes, sharing its values without reading them. */
export function deriveColumn(column: Column, changes: Partial<Pick<Column, 'attribute' | 'type' | 'codes'>>): Column {
    return {
        attribute: changes.attribute ?? column.attribute,
        type: changes.type ?? column.type,
        codes: changes.codes ?? column.codes,
        size: column.size,
        get values() {
            return column.values;
        },
    };
}

/** Wraps finished columns as a RelationTable with by-name access. */
export function makeTable(relation: string, file: string, columns: Column[], lines: Int32Array): RelationTable {
    const byName = new Map(columns.map(c => [c.attribute, c]));
    const rowCount = lines.length;
    return {
        relation,
        file,
        rowCount,
        columns,
        lines,
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
    relation: string,
    file: string,
    attributes: { name: string; type: AttrType }[],
    rows: CellValue[][],
    lines?: number[],
): RelationTable {
    const builders = attributes.map(a => new ColumnBuilder(a.name, a.type, rows.length));
    for (const row of rows) builders.forEach((b, i) => b.push(row[i] ?? null));
    const lineArray = Int32Array.from(lines ?? rows.map((_, i) => i + 2));
    if (lineArray.length !== rows.length) throw new Error(`createTable: ${rows.length} rows but ${lineArray.length} lines`);
    return makeTable(
        relation,
        file,
        builders.map(b => b.build()),
        lineArray,
    );
}
