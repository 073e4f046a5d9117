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

/**
 * Dense codes for numbers: an open-addressing hash table over a Float64Array, several times faster than a Map
 * with number keys when a column has a million distinct numbers. Equality is SameValueZero, as in a Map
 * (0 and -0 are one key, NaN is one key).
 */
export class NumberCodes {
    private keys: Float64Array;
    private codes: Int32Array;
    private mask: number;
    private size = 0;
    private readonly scratch = new Float64Array(1);
    private readonly halves = new Int32Array(this.scratch.buffer);

    constructor(expected = 1024) {
        let capacity = 16;
        while (capacity < expected * 2) capacity *= 2;
        this.keys = new Float64Array(capacity);
        this.codes = new Int32Array(capacity).fill(-1);
        this.mask = capacity - 1;
    }

    private hash(v: number): number {
        let h: number;
        if ((v | 0) === v) h = Math.imul(v | 0, 0x9e3779b1);
        else {
            this.scratch[0] = v !== v ? NaN : v;
            h = Math.imul(this.halves[0]! ^ Math.imul(this.halves[1]!, 0x85ebca6b), 0x9e3779b1);
        }
        return (h ^ (h >>> 15)) & this.mask;
    }

    private slot(v: number): number {
        const { keys, codes, mask } = this;
        let i = this.hash(v);
        while (codes[i] !== -1 && keys[i] !== v && !(v !== v && keys[i] !== keys[i])) i = (i + 1) & mask;
        return i;
    }

    /** The number's code, or `next` (which the caller then owns) when it is new. */
    codeOr(v: number, next: number): number {
        let i = this.slot(v);
        if (this.codes[i] !== -1) return this.codes[i]!;
        if ((this.size + 1) * 2 > this.keys.length) { this.grow(); i = this.slot(v); }
        this.keys[i] = v;
        this.codes[i] = next;
        this.size++;
        return next;
    }

    private grow(): void {
        const { keys, codes } = this;
        this.keys = new Float64Array(keys.length * 2);
        this.codes = new Int32Array(keys.length * 2).fill(-1);
        this.mask = this.keys.length - 1;
        for (let j = 0; j < keys.length; j++) if (codes[j] !== -1) { const i = this.slot(keys[j]!); this.keys[i] = keys[j]!; this.codes[i] = codes[j]!; }
    }
}

const UTF8 = new TextEncoder();

/** Whether bytes are all ASCII (then Latin-1 decoding, which is cheaper, gives the same text as UTF-8). */
function isAscii(buf: Uint8Array, start: number, end: number): boolean {
    for (let i = start; i < end; i++) if (buf[i]! >= 0x80) return false;
    return true;
}

/**
 * Dense codes for texts known by their UTF-8 bytes (as a binary reader has them): the bytes are hashed where
 * they lie and a JS string is made only for a text not seen before. A slot is two int32s (hash, code); the
 * bytes of each distinct text sit in an arena, found through `offsets[code]` only when a hash matches.
 */
export class TextCodes {
    private slots: Int32Array;
    private mask: number;
    private size = 0;
    private offsets = new Int32Array(1024);
    private lengths = new Int32Array(1024);
    private arena = Buffer.allocUnsafe(1 << 16);
    private used = 0;
    private readonly encoded = Buffer.allocUnsafe(4096);

    constructor(expected = 1024) {
        let capacity = 16;
        while (capacity < expected * 2) capacity *= 2;
        this.slots = new Int32Array(capacity * 2).fill(-1);
        this.mask = capacity - 1;
    }

    /** The code of the text in `buf[start, end)`, or `next` (which the caller then owns) when it is new. */
    codeOr(buf: Uint8Array, start: number, end: number, next: number): number {
        const length = end - start;
        let hash = 0x811c9dc5 ^ length;
        for (let k = start; k < end; k++) hash = Math.imul(hash ^ buf[k]!, 0x01000193);
        hash = (hash ^ (hash >>> 16)) & 0x7fffffff;
        let slots = this.slots, mask = this.mask, i = hash & mask;
        for (;;) {
            const code = slots[i * 2 + 1]!;
            if (code === -1) break;
            if (slots[i * 2] === hash && this.lengths[code] === length) {
                const arena = this.arena, offset = this.offsets[code]!;
                let k = 0;
                while (k < length && arena[offset + k] === buf[start + k]) k++;
                if (k === length) return code;
            }
            i = (i + 1) & mask;
        }
        if ((this.size + 1) * 2 > mask + 1) {
            this.grow();
            slots = this.slots; mask = this.mask; i = hash & mask;
            while (slots[i * 2 + 1] !== -1) i = (i + 1) & mask;
        }
        slots[i * 2] = hash;
        slots[i * 2 + 1] = next;
        this.keep(buf, start, end, next);
        this.size++;
        return next;
    }

    /** Copies a new text's bytes into the arena. */
    private keep(buf: Uint8Array, start: number, end: number, code: number): void {
        const length = end - start;
        if (code >= this.offsets.length) {
            const offsets = new Int32Array(this.offsets.length * 2), lengths = new Int32Array(this.offsets.length * 2);
            offsets.set(this.offsets); lengths.set(this.lengths);
            this.offsets = offsets; this.lengths = lengths;
        }
        if (this.used + length > this.arena.length) {
            const grown = Buffer.allocUnsafe(Math.max(this.arena.length * 2, this.used + length));
            this.arena.copy(grown, 0, 0, this.used);
            this.arena = grown;
        }
        const arena = this.arena;
        // Short texts are copied by hand: a subarray per text costs an object.
        if (length > 64) arena.set(buf.subarray(start, end), this.used);
        else for (let k = start, j = this.used; k < end; k++, j++) arena[j] = buf[k]!;
        this.offsets[code] = this.used;
        this.lengths[code] = length;
        this.used += length;
    }

    /** The code of a JS string, through its UTF-8 bytes. */
    codeOfString(text: string, next: number): number {
        if (text.length * 3 <= this.encoded.length) {
            const { written } = UTF8.encodeInto(text, this.encoded);
            return this.codeOr(this.encoded, 0, written, next);
        }
        const bytes = Buffer.from(text, 'utf8');
        return this.codeOr(bytes, 0, bytes.length, next);
    }

    private grow(): void {
        const old = this.slots;
        const slots = this.slots = new Int32Array(old.length * 2).fill(-1);
        const mask = this.mask = slots.length / 2 - 1;
        for (let j = 0; j < old.length; j += 2) {
            if (old[j + 1] === -1) continue;
            let i = old[j]! & mask;
            while (slots[i * 2 + 1] !== -1) i = (i + 1) & mask;
            slots[i * 2] = old[j]!;
            slots[i * 2 + 1] = old[j + 1]!;
        }
    }
}

/** Appends values to one column, reusing dictionary codes for values seen before. */
export class ColumnBuilder {
    private readonly codes: Int32Builder;
    private readonly values: CellValue[] = [];
    private readonly index = new Map<string | boolean, number>();
    private readonly numbers = new NumberCodes();
    /** With `textBytes`, texts are keyed by their UTF-8 bytes (for readers that have bytes, not strings). */
    private readonly texts: TextCodes | undefined;

    constructor(readonly attribute: string, readonly type: AttrType, capacity = 1024, textBytes = false) {
        this.codes = new Int32Builder(capacity);
        this.texts = textBytes ? new TextCodes() : undefined;
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
        if (typeof value === 'number') return this.numberCode(value);
        if (this.texts && typeof value === 'string') {
            const code = this.texts.codeOfString(value, this.values.length);
            if (code === this.values.length) this.values.push(value);
            return code;
        }
        // Plain strings are their own map key (cheap, no concatenation); lists go through JSON.
        const key = Array.isArray(value) ? cellKey(value) : typeof value === 'string' ? value : (value ? 'true\u0000' : 'false\u0000');
        let code = this.index.get(key);
        if (code === undefined) {
            code = this.values.length;
            this.values.push(value);
            this.index.set(key, code);
        }
        return code;
    }

    /** The dictionary code of a number (adding it when new). */
    numberCode(value: number): number {
        const code = this.numbers.codeOr(value, this.values.length);
        if (code === this.values.length) this.values.push(value);
        return code;
    }

    /** The dictionary code of the text in `buf[start, end)` (UTF-8; adding it when new). Needs `textBytes`. */
    textCode(buf: Buffer, start: number, end: number): number {
        const code = this.texts!.codeOr(buf, start, end, this.values.length);
        if (code === this.values.length) this.values.push(isAscii(buf, start, end) ? buf.toString('latin1', start, end) : buf.toString('utf8', start, end));
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
