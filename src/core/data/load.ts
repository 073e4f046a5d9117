/**
 * Loading one source for the relations declared on it: the file is read once, each mapped column is
 * coerced (once per distinct raw text) into a dictionary-encoded column, and `distinct` relations are
 * projected from the same rows. Problems are returned as data about the source and its attributes;
 * turning them into spec diagnostics happens later so that cached loads can be re-anchored after edits.
 */
import * as fs from 'node:fs';
import type { AttrType, RelationDecl, SourceDecl } from '../spec/model.js';
import type { CellValue, Column, RelationTable } from './types.js';
import { ColumnBuilder, Int32Builder, deriveColumn, makeTable } from './table.js';
import { NumberCodes } from './codes.js';
import { coerceSqlite, coerceText, type Coerced } from './coerce.js';
import { readCsvHeader, streamCsv } from './csv.js';
import type { SourceProblem } from '../problem.js';
import { streamSqlite } from './sqlite.js';
import { readJson } from './json.js';
import { streamPostgres } from './postgres.js';
import { Decode, fieldValue, isInteger, isNumeric, rawNumber, shortestFloat4, type FieldBatch, type RowBatch } from './postgres-copy.js';
import { columnCodes, firstOccurrences } from './group.js';

export interface CoercionExample { line: number; column: number; value: string; reason: string }

export type LoadProblem =
    | { kind: 'missing-file'; source: string; file: string }
    | { kind: 'format'; source: string; file: string; problem: SourceProblem }
    | { kind: 'missing-column'; relation: string; attribute: string; column: string; columns: string[] }
    | { kind: 'coercion'; relation: string; attribute: string; type: AttrType; file: string; count: number; examples: CoercionExample[] }
    | { kind: 'truncated'; relation: string; attribute: string; file: string; count: number; lines: number[]; limit: number };

/**
 * The longest cell kept, in characters: a question must not carry megabytes of one cell into every prompt,
 * stored question and report (50 cells of 1 MB made 12 MB of JSON per question). Longer cells are cut, and
 * a warning says where. HALLUPROBE_MAX_CELL_CHARS changes it.
 */
export function maxCellChars(env: NodeJS.ProcessEnv = process.env): number {
    const v = Number(env.HALLUPROBE_MAX_CELL_CHARS);
    return Number.isInteger(v) && v > 0 ? v : 10_000;
}

export interface RelationLoad {
    /** Undefined when the source could not be read at all. */
    table?: RelationTable;
    problems: LoadProblem[];
    /** Attributes whose column is not in the source (their column is all null). */
    missing: string[];
}

const EXAMPLES = 5;
const FAILED = -2;

/** Reads one column of every row: coercing each distinct raw value once, counting failures. */
class ColumnReader {
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
    constructor(readonly index: number, readonly type: AttrType, private readonly coerce: (raw: unknown) => Coerced, private readonly textBytes = false, expectedRows = 0, private readonly limit = maxCellChars()) {
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
            if (n !== undefined) { this.builder.pushCode(this.builder.numberCode(n)); return; }
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
                this.examples.push({ line, column: this.index + 1, value: value.length > 80 ? `${value.slice(0, 80)}…` : value, reason: c.ok ? '' : c.reason });
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
        const { size, firstLine, buffer: buf } = batch, { starts, ends, decode } = column, builder = this.builder;
        const scalar = this.type.list ? undefined : this.type.scalar;
        if (decode === Decode.Text && this.plainText && this.textBytes) {
            const limit = this.limit;
            for (let i = 0; i < size; i++) {
                let start = starts[i]!, end = ends[i]!;
                if (start < 0) { builder.pushCode(-1); continue; }
                while (start < end && isAsciiBlank(buf[start]!)) start++;
                while (end > start && isAsciiBlank(buf[end - 1]!)) end--;
                // A long cell (maybe cut) or one with non-ASCII at an edge (maybe a Unicode blank) takes the text path.
                if (end - start > limit || (end > start && (buf[start]! >= 0x80 || buf[end - 1]! >= 0x80))) this.read(buf.toString('utf8', starts[i], ends[i]), firstLine + i);
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
            for (let i = 0; i < size; i++) builder.pushCode(starts[i]! < 0 ? -1 : builder.code(buf[starts[i]!] !== 0));
        } else {
            for (let i = 0; i < size; i++) this.read(fieldValue(batch, column, i), firstLine + i);
        }
    }

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
    let i = raw.charCodeAt(0) === 45 ? 1 : 0, digits = 0, point = false;
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
function isAsciiBlank(byte: number): boolean { return byte === 0x20 || (byte >= 0x09 && byte <= 0x0d); }

function listSeparator(source: SourceDecl): string {
    const s = source.settings['list_separator'];
    return typeof s === 'string' ? s : ',';
}

/** The header position of an attribute's column: exact name, then trimmed, then (without a header row) a 1-based number. */
function columnIndex(header: string[], column: string): number {
    const exact = header.indexOf(column);
    if (exact >= 0) return exact;
    return header.findIndex(h => h.trim() === column.trim());
}

/** Loads every relation declared on `source` from one pass over its file. */
export async function loadSource(source: SourceDecl, relations: RelationDecl[], signal?: AbortSignal): Promise<Map<string, RelationLoad>> {
    const result = new Map<string, RelationLoad>();
    if (source.format !== 'postgres' && (!fs.existsSync(source.path) || !fs.statSync(source.path).isFile())) {
        for (const r of relations) result.set(r.name, { problems: [{ kind: 'missing-file', source: source.name, file: source.path }], missing: [] });
        return result;
    }
    const separator = listSeparator(source);
    const readers = new Map<string, ColumnReader>();
    let plan: { relation: RelationDecl; readers: (ColumnReader | undefined)[] }[] = [];
    const problems = new Map<string, LoadProblem[]>(relations.map(r => [r.name, []]));
    const missing = new Map<string, string[]>(relations.map(r => [r.name, []]));
    const lines = new Int32Builder();
    let all: ColumnReader[] = [];

    // The plan is made when the header is known: one reader per (column, type), shared by relations that map it alike.
    const makePlan = (header: string[], expectedRows = 0) => {
        lines.reserve(Math.min(expectedRows, 1 << 25));
        plan = relations.map(relation => ({
            relation,
            readers: relation.attributes.map(a => {
                const index = columnIndex(header, a.column);
                if (index < 0) {
                    problems.get(relation.name)!.push({ kind: 'missing-column', relation: relation.name, attribute: a.name, column: a.column, columns: header });
                    missing.get(relation.name)!.push(a.name);
                    return undefined;
                }
                const key = `${index}|${a.type.scalar}|${a.type.list}`;
                let reader = readers.get(key);
                if (!reader) {
                    const type = a.type;
                    reader = new ColumnReader(index, type, source.format === 'csv'
                        ? raw => coerceText(raw as string, type, separator)
                        : raw => coerceSqlite(raw, type, separator), source.format === 'postgres', expectedRows);
                    readers.set(key, reader);
                }
                return reader;
            }),
        }));
        all = [...readers.values()];
    };

    const onRow = (fields: unknown[], line: number) => {
        for (const reader of all) reader.read(fields[reader.index] ?? (source.format === 'csv' ? '' : null), line);
        lines.push(line);
    };

    let header: string[] | undefined;
    let formatProblems: SourceProblem[];
    if (source.format === 'csv') {
        // With no header there is nothing to map; the full read then only reports why (empty, binary, ...).
        const known = await readCsvHeader(source);
        if (known.length > 0) makePlan(known);
        const res = await streamCsv(source, known.length > 0 ? onRow : () => undefined, signal);
        header = res.header.length > 0 ? res.header : undefined;
        formatProblems = res.problems;
    } else if (source.format === 'json' || source.format === 'jsonl') {
        const res = readJson(source, separator, undefined, signal);
        if (res.header.length > 0) {
            makePlan(res.header);
            readJson(source, separator, onRow, signal);
            header = res.header;
        }
        formatProblems = res.problems;
    } else if (source.format === 'postgres') {
        const onBatch = (batch: RowBatch) => {
            for (const reader of all) reader.readBatch(batch, batch.columns[reader.index]!);
            lines.pushRange(batch.firstLine, batch.size);
        };
        const res = await streamPostgres(source, makePlan, onBatch, signal);
        header = res.header.length > 0 ? res.header : undefined;
        formatProblems = res.problems;
    } else {
        const res = streamSqlite(source, () => undefined, signal, true);
        if (res.header.length > 0) {
            makePlan(res.header);
            const full = streamSqlite(source, onRow, signal);
            header = res.header;
            formatProblems = full.problems;
        } else formatProblems = res.problems;
    }
    for (const r of relations) problems.get(r.name)!.push(...formatProblems.map(p => ({ kind: 'format' as const, source: source.name, file: source.path, problem: p })));
    if (header === undefined) {
        for (const r of relations) result.set(r.name, { problems: problems.get(r.name)!, missing: [] });
        return result;
    }

    const lineArray = lines.build();
    const built = new Map<ColumnReader, Column>([...readers.values()].map(r => [r, r.builder.build()]));
    const nulls = new Int32Array(lineArray.length).fill(-1);
    for (const { relation, readers: used } of plan) {
        const relationProblems = problems.get(relation.name)!;
        const columns: Column[] = relation.attributes.map((a, i) => {
            const reader = used[i];
            if (!reader) return { attribute: a.name, type: a.type, codes: nulls, size: 0, values: [] as CellValue[] };
            if (reader.failures > 0) {
                relationProblems.push({ kind: 'coercion', relation: relation.name, attribute: a.name, type: a.type, file: source.path, count: reader.failures, examples: reader.examples });
            }
            if (reader.truncated > 0) {
                relationProblems.push({ kind: 'truncated', relation: relation.name, attribute: a.name, file: source.path, count: reader.truncated, lines: reader.truncatedLines, limit: maxCellChars() });
            }
            const column = built.get(reader)!;
            return deriveColumn(column, { attribute: a.name, type: a.type });
        });
        const table = relation.distinct ? project(relation.name, source.path, columns, lineArray) : makeTable(relation.name, source.path, columns, lineArray);
        result.set(relation.name, { table, problems: relationProblems, missing: missing.get(relation.name)! });
    }
    return result;
}

/** A distinct projection: one row per distinct combination of the columns, at its first occurrence. */
function project(relation: string, file: string, columns: Column[], lines: Int32Array): RelationTable {
    const rows = firstOccurrences(columns.map(columnCodes), lines.length);
    const pick = (codes: Int32Array) => { const out = new Int32Array(rows.length); for (let i = 0; i < rows.length; i++) out[i] = codes[rows[i]!]!; return out; };
    return makeTable(relation, file, columns.map(c => deriveColumn(c, { codes: pick(c.codes) })), pick(lines));
}
