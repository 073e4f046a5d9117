/**
 * Reading one column of a source's rows into a dictionary-encoded column: each distinct raw value coerced once to
 * the attribute's type (failures counted, with examples), over-long cells cut, and PostgreSQL's binary rows read
 * straight from their bytes. The loader (load.ts) makes one reader per mapped column and feeds it every row.
 */
import type { AttrType } from '../spec/model.js';
import { ColumnBuilder } from './table.js';
import { NumberCodes } from './codes.js';
import type { Coerced } from './coerce.js';
import {
    Decode,
    fieldValue,
    isInteger,
    isNumeric,
    rawNumber,
    shortestFloat4,
    type FieldBatch,
    type RowBatch,
} from './postgres-copy.js';

/** A value that could not be read as its attribute's type: where it is, what it was, and why. */
export interface CoercionExample {
    line: number;
    column: number;
    value: string;
    reason: string;
}

/**
 * The longest cell kept, in characters: a question must not carry megabytes of one cell into every prompt,
 * stored question and report (50 cells of 1 MB made 12 MB of JSON per question). Longer cells are cut, and
 * a warning says where. HALLUPROBE_MAX_CELL_CHARS changes it.
 */
export function maxCellChars(env: NodeJS.ProcessEnv = process.env): number {
    const v = Number(env.HALLUPROBE_MAX_CELL_CHARS);
    return Number.isInteger(v) && v > 0 ? v : 10_000;
}

const EXAMPLES = 5;
const FAILED = -2;

/** Reads one column of every row: coercing each distinct raw value once, counting failures. */
export class ColumnReader {
    readonly builder: ColumnBuilder;
    private readonly seen = new Map<unknown, number>();
    failures = 0;
    readonly examples: CoercionExample[] = [];
    truncated = 0;
    readonly truncatedLines: number[] = [];

    private readonly plainText: boolean;
    /** An int or real attribute (not a list): plain digits skip the per-value memo (see plainNumber). */
    private readonly numeric: 'int' | 'real' | undefined;

    /**
     * `textBytes` (a binary reader): texts are keyed by their bytes, see readBatch. `expectedRows`: the reader's
     * estimate of the rows to come (0: unknown), to size the column once.
     */
    constructor(
        readonly index: number,
        readonly type: AttrType,
        private readonly coerce: (raw: unknown) => Coerced,
        private readonly textBytes = false,
        expectedRows = 0,
        private readonly limit = maxCellChars(),
    ) {
        this.builder = new ColumnBuilder('', type, Math.max(1024, Math.min(expectedRows, 1 << 25)), textBytes);
        this.plainText = type.scalar === 'text' && !type.list;
        this.numeric = !type.list && (type.scalar === 'int' || type.scalar === 'real') ? type.scalar : undefined;
    }

    read(raw: unknown, line: number): void {
        if (typeof raw === 'string' && raw.length > this.limit) {
            this.truncated++;
            if (this.truncatedLines.length < EXAMPLES) this.truncatedLines.push(line);
            raw = `${raw.slice(0, this.limit)}…`;
        }
        if (this.plainText && typeof raw === 'string') {
            // Text needs no coercion beyond trimming: go straight to the dictionary (one map lookup, not two).
            const text = raw.trim();
            this.builder.pushCode(text === '' ? -1 : this.builder.code(text));
            return;
        }
        if (this.numeric && typeof raw === 'string') {
            // A column of a million distinct ids would otherwise fill the memo with a million strings.
            const n = plainNumber(raw, this.numeric === 'int');
            if (n !== undefined) {
                this.builder.pushCode(this.builder.numberCode(n));
                return;
            }
        }
        let code = this.seen.get(raw);
        if (code === undefined) {
            const c = this.coerce(raw);
            code = c.ok ? this.builder.code(c.value) : FAILED;
            this.seen.set(raw, code);
        }
        if (code === FAILED) {
            this.failures++;
            if (this.examples.length < EXAMPLES) {
                const c = this.coerce(raw);
                const value = String(raw);
                this.examples.push({
                    line,
                    column: this.index + 1,
                    value: value.length > 80 ? `${value.slice(0, 80)}…` : value,
                    reason: c.ok ? '' : c.reason,
                });
            }
            code = -1;
        }
        this.builder.pushCode(code);
    }

    /**
     * Reads one column of a PostgreSQL batch straight from its bytes when no coercion is due: numbers into the
     * number dictionary, texts (when trimming ASCII blanks is all they need) by their bytes, booleans as
     * such. Anything else takes the general path, value by value.
     */
    readBatch(batch: RowBatch, column: FieldBatch): void {
        const { size, firstLine, buffer: buf } = batch,
            { starts, ends, decode } = column,
            builder = this.builder;
        const scalar = this.type.list ? undefined : this.type.scalar;
        if (decode === Decode.Text && this.plainText && this.textBytes) {
            const limit = this.limit;
            for (let i = 0; i < size; i++) {
                let start = starts[i]!,
                    end = ends[i]!;
                if (start < 0) {
                    builder.pushCode(-1);
                    continue;
                }
                while (start < end && isAsciiBlank(buf[start]!)) start++;
                while (end > start && isAsciiBlank(buf[end - 1]!)) end--;
                // A long cell (maybe cut) or one with non-ASCII at an edge (maybe a Unicode blank) takes the text path.
                if (end - start > limit || (end > start && (buf[start]! >= 0x80 || buf[end - 1]! >= 0x80)))
                    this.read(buf.toString('utf8', starts[i], ends[i]), firstLine + i);
                else builder.pushCode(start === end ? -1 : builder.textCode(buf, start, end));
            }
        } else if (isNumeric(decode) && (scalar === 'real' || (scalar === 'int' && isInteger(decode)))) {
            for (let i = 0; i < size; i++) {
                const start = starts[i]!;
                const value = start < 0 ? null : rawNumber(buf, decode, start, ends[i]!);
                if (value === null) builder.pushCode(-1);
                else if (value === undefined) this.read(fieldValue(batch, column, i), firstLine + i);
                else builder.pushCode(decode === Decode.Float4 ? this.float4Code(value) : builder.numberCode(value));
            }
        } else if (decode === Decode.Bool && scalar === 'bool') {
            // Each of the two values is looked up in the dictionary once (on its first row, so codes come in the same order).
            const codes = this.boolCodes;
            for (let i = 0; i < size; i++) {
                const start = starts[i]!;
                if (start < 0) builder.pushCode(-1);
                else {
                    const v = buf[start] !== 0 ? 1 : 0;
                    builder.pushCode(codes[v] !== -1 ? codes[v]! : (codes[v] = builder.code(v === 1)));
                }
            }
        } else {
            for (let i = 0; i < size; i++) this.read(fieldValue(batch, column, i), firstLine + i);
        }
    }

    /** A boolean column's codes of false and true (-1 until first read). */
    private readonly boolCodes = new Int32Array([-1, -1]);

    /** Raw float4 → code (the builder keeps the shortest decimal; two raw floats never share one). */
    private readonly float4 = new NumberCodes();

    /** A float4's code: the value kept is the shortest decimal PostgreSQL prints (worked out once per float). */
    private float4Code(raw: number): number {
        const code = this.float4.lookup(raw);
        return code !== -1 ? code : this.float4.codeOr(raw, this.builder.numberCode(shortestFloat4(raw)));
    }
}

/**
 * The number a plain decimal text stands for — optional minus, digits, and for a real at most one point; at
 * most 15 characters, so the double is exact — or undefined for anything else (blanks, exponents, signs, NaN,
 * thousands separators…), which then takes the full coercion. Gives what coerceText gives for the same text.
 */
export function plainNumber(raw: string, integer: boolean): number | undefined {
    const length = raw.length;
    if (length === 0 || length > 15) return undefined;
    let i = raw.charCodeAt(0) === 45 ? 1 : 0,
        digits = 0,
        point = false;
    for (; i < length; i++) {
        const c = raw.charCodeAt(i);
        if (c >= 48 && c <= 57) digits++;
        else if (c === 46 && !integer && !point) point = true;
        else return undefined;
    }
    if (digits === 0) return undefined;
    const n = Number(raw);
    return n === 0 ? 0 : n;
}

/** Space, tab, line feed, vertical tab, form feed, carriage return: the ASCII blanks `trim()` removes. */
function isAsciiBlank(byte: number): boolean {
    return byte === 0x20 || (byte >= 0x09 && byte <= 0x0d);
}
