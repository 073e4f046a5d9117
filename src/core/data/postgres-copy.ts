/**
 * Reading PostgreSQL rows as `COPY (…) TO STDOUT (FORMAT binary)`: the server's fastest way out. The decoder
 * only finds where each field lies; a reader then decodes one column at a time, straight from the bytes
 * (numbers without an object, texts keyed by their bytes), which keeps a million-row load to tight loops.
 * Types with an exact binary form (integers, floats, booleans, text) are read as such; every other type is
 * cast to text by the server (`::text`), which spells it as PostgreSQL's text output does (dates as
 * written, arrays as `{…}`).
 */

/** How a field's bytes are read (numeric ones first). */
export const Decode = { Int2: 0, Int4: 1, Int8: 2, Oid: 3, Float4: 4, Float8: 5, NumericText: 6, Bool: 7, Text: 8 } as const;
export type Decode = (typeof Decode)[keyof typeof Decode];

/** Where one column's fields lie in the batch's buffer; a start of -1 is null. */
export interface FieldBatch {
    decode: Decode;
    starts: Int32Array;
    ends: Int32Array;
}

/**
 * Up to `batchSize` rows, all from one buffer. The decoder reuses a batch's arrays for the next one: read it
 * during the callback, keep nothing of it.
 */
export interface RowBatch {
    size: number;
    /** The 1-based position of the batch's first row in the result. */
    firstLine: number;
    buffer: Buffer;
    columns: FieldBatch[];
}

const BINARY: Record<number, Decode> = {
    21: Decode.Int2,
    23: Decode.Int4,
    20: Decode.Int8,
    26: Decode.Oid,
    700: Decode.Float4,
    701: Decode.Float8,
    16: Decode.Bool,
    25: Decode.Text,
    1043: Decode.Text,
    1042: Decode.Text,
    19: Decode.Text,
};

export interface Field {
    name: string;
    dataTypeID: number;
}

function decodeOf(oid: number): Decode {
    return BINARY[oid] ?? (oid === 1700 ? Decode.NumericText : Decode.Text);
}

/** Whether a field's number is whole by its type. */
export function isInteger(decode: Decode): boolean {
    return decode === Decode.Int2 || decode === Decode.Int4 || decode === Decode.Int8 || decode === Decode.Oid;
}

/** Whether a field reads as a number (else as text or a boolean). */
export function isNumeric(decode: Decode): boolean {
    return decode <= Decode.NumericText;
}

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * The COPY statement for a query whose columns are `fields`: the columns are renamed by position (a query may
 * name two columns alike) and those without an exact binary form are cast to text.
 */
export function copyStatement(statement: string, fields: Field[]): string {
    const names = fields.map((_, i) => quoteIdent(`c${i + 1}`));
    const select = fields.map((f, i) => (BINARY[f.dataTypeID] !== undefined ? names[i]! : `${names[i]!}::text`));
    return `COPY (SELECT ${select.join(', ')} FROM (${statement}) AS q(${names.join(', ')})) TO STDOUT (FORMAT binary)`;
}

/** Trailing semicolons and blanks, which a statement inside COPY ( … ) cannot have. */
export function withoutTerminator(statement: string): string {
    return statement.replace(/[\s;]+$/, '');
}

const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');
const TWO_32 = 2 ** 32;

/**
 * The shortest decimal that reads back as the same float4 — what PostgreSQL prints for a `real` — so 12.3
 * stays 12.3 and does not become 12.300000190734863.
 */
export function shortestFloat4(f: number): number {
    if (!Number.isFinite(f)) return f;
    for (let digits = 1; digits < 9; digits++) {
        const shortest = Number(f.toPrecision(digits));
        if (Math.fround(shortest) === f) return shortest;
    }
    return Number(f.toPrecision(9));
}

/**
 * The number in a numeric field, or undefined for an int8 beyond 2^53 (read it with `fieldValue`, as text).
 * A float4 comes back as its raw float; `shortestFloat4` gives what PostgreSQL would print.
 */
export function rawNumber(buf: Buffer, decode: Decode, start: number, end: number): number | undefined {
    switch (decode) {
        case Decode.Int4:
            return buf.readInt32BE(start);
        case Decode.Int2:
            return buf.readInt16BE(start);
        case Decode.Float8:
            return buf.readDoubleBE(start);
        case Decode.Oid:
            return buf.readUInt32BE(start);
        case Decode.Float4:
            return buf.readFloatBE(start);
        case Decode.Int8: {
            const value = buf.readInt32BE(start) * TWO_32 + buf.readUInt32BE(start + 4);
            return Number.isSafeInteger(value) ? value : undefined;
        }
        default:
            return Number(buf.toString('latin1', start, end));
    }
}

/** A field's value: null, a number, a boolean or a text (an int8 beyond 2^53 as its digits). */
export function fieldValue(batch: RowBatch, column: FieldBatch, row: number): unknown {
    const start = column.starts[row]!,
        end = column.ends[row]!,
        buf = batch.buffer;
    if (start < 0) return null;
    switch (column.decode) {
        case Decode.Text:
            return buf.toString('utf8', start, end);
        case Decode.Bool:
            return buf[start] !== 0;
        case Decode.Float4:
            return shortestFloat4(buf.readFloatBE(start));
        default:
            return rawNumber(buf, column.decode, start, end) ?? buf.readBigInt64BE(start).toString();
    }
}

/**
 * Splits a binary COPY stream, chunk by chunk, into batches of up to `batchSize` rows. A row may span chunks:
 * its start is kept until the rest arrives.
 */
export class BinaryCopyDecoder {
    private pending: Buffer | undefined;
    private headerRead = false;
    private readonly batch: RowBatch;
    private line = 0;
    private done = false;

    constructor(
        fields: Field[],
        private readonly onBatch: (batch: RowBatch) => void,
        private readonly batchSize = 8192,
    ) {
        this.batch = {
            size: 0,
            firstLine: 1,
            buffer: Buffer.alloc(0),
            columns: fields.map(f => ({
                decode: decodeOf(f.dataTypeID),
                starts: new Int32Array(batchSize),
                ends: new Int32Array(batchSize),
            })),
        };
    }

    /**
     * Takes bytes `[start, end)` of `buf`, the next piece of the stream. Rows decoded in place point into `buf`:
     * call `flush` before `buf` is reused (a piece from another buffer flushes by itself).
     */
    take(buf: Buffer, start: number, end: number): void {
        if (this.pending) {
            const joined = Buffer.concat([this.pending, buf.subarray(start, end)]);
            this.pending = undefined;
            this.parse(joined, 0, joined.length);
        } else {
            this.parse(buf, start, end);
        }
    }

    /** Checks that the stream ended after a whole row, and sends the last batch. */
    end(): void {
        this.flush();
        if (this.pending && !this.done) throw new Error('the COPY stream ended inside a row');
    }

    private parse(buf: Buffer, pos: number, length: number): void {
        if (this.done) return;
        if (!this.headerRead) {
            if (length - pos < 19) {
                this.pending = Buffer.from(buf.subarray(pos, length));
                return;
            }
            if (!buf.subarray(pos, pos + 11).equals(SIGNATURE)) throw new Error('not a binary COPY stream (bad signature)');
            pos += 19 + buf.readInt32BE(pos + 15);
            this.headerRead = true;
        }
        const batch = this.batch,
            columns = batch.columns,
            width = columns.length;
        if (batch.size > 0 && batch.buffer !== buf) this.flush();
        batch.buffer = buf;
        while (pos + 2 <= length) {
            const count = ((buf[pos]! << 24) >> 16) | buf[pos + 1]!;
            if (count === -1) {
                this.done = true;
                pos += 2;
                break;
            }
            if (count !== width) throw new Error(`a COPY row has ${count} fields, expected ${width}`);
            // The row's fields go into the batch; it counts only once it is whole in this piece.
            const row = batch.size;
            let at = pos + 2,
                whole = true;
            for (let c = 0; c < width; c++) {
                if (at + 4 > length) {
                    whole = false;
                    break;
                }
                const len = (buf[at]! << 24) | (buf[at + 1]! << 16) | (buf[at + 2]! << 8) | buf[at + 3]!;
                at += 4;
                const column = columns[c]!;
                column.starts[row] = len < 0 ? -1 : at;
                if (len > 0) at += len;
                column.ends[row] = at;
            }
            if (!whole || at > length) break;
            pos = at;
            this.line++;
            if (++batch.size === this.batchSize) this.flush();
        }
        if (pos < length && !this.done) this.pending = Buffer.from(buf.subarray(pos, length));
    }

    /** Sends the rows decoded so far. */
    flush(): void {
        if (this.batch.size === 0) return;
        const batch = this.batch;
        batch.firstLine = this.line - batch.size + 1;
        this.onBatch(batch);
        batch.size = 0;
    }
}
