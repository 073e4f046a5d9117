/**
 * Loading one source for the relations declared on it: the file is read once, each mapped column is
 * coerced (once per distinct raw text) into a dictionary-encoded column, and `distinct` relations are
 * projected from the same rows. Problems are returned as data about the source and its attributes;
 * turning them into spec diagnostics happens later so that cached loads can be re-anchored after edits.
 */
import * as fs from 'node:fs';
import type { AttrType, RelationDecl, SourceDecl } from '../spec/model.js';
import type { CellValue, Column, RelationTable } from './types.js';
import { Int32Builder, deriveColumn, makeTable } from './table.js';
import { coerceSqlite, coerceText } from './coerce.js';
import { ColumnReader, maxCellChars, type CoercionExample } from './column-reader.js';
import { readCsvHeader, streamCsv } from './csv.js';
import type { SourceProblem } from '../problem.js';
import { streamSqlite } from './sqlite.js';
import { readJson } from './json.js';
import { streamPostgres } from './postgres.js';
import type { RowBatch } from './postgres-copy.js';
import { columnCodes, firstOccurrences } from './group.js';
import { CSV_SETTINGS, JSON_SETTINGS } from './settings.js';
import { fileStamp, type ColumnStore, type ReadColumn, type SourceRead } from './column-store.js';

export { plainNumber } from './column-reader.js';

export type LoadProblem =
    | { kind: 'missing-file'; source: string; file: string }
    | { kind: 'format'; source: string; file: string; problem: SourceProblem }
    | { kind: 'missing-column'; relation: string; attribute: string; column: string; columns: string[] }
    | {
          kind: 'coercion';
          relation: string;
          attribute: string;
          type: AttrType;
          file: string;
          count: number;
          examples: CoercionExample[];
      }
    | { kind: 'truncated'; relation: string; attribute: string; file: string; count: number; lines: number[]; limit: number };

export interface RelationLoad {
    /** Undefined when the source could not be read at all. */
    table?: RelationTable;
    problems: LoadProblem[];
    /** Attributes whose column is not in the source (their column is all null). */
    missing: string[];
}

function listSeparator(source: SourceDecl): string {
    // Lists in a database are its own arrays; a text cell of one splits on the default.
    if (source.format === 'csv') return CSV_SETTINGS.read(source.settings).list_separator;
    return source.format === 'json' || source.format === 'jsonl' ? JSON_SETTINGS.read(source.settings).list_separator : ',';
}

/** The header position of an attribute's column: exact name, then trimmed, then (without a header row) a 1-based number. */
function columnIndex(header: string[], column: string): number {
    const exact = header.indexOf(column);
    if (exact >= 0) return exact;
    return header.findIndex(h => h.trim() === column.trim());
}

/** What decides a file's read besides its content (for the column store): format, settings, the cell limit. */
function readSettings(source: SourceDecl): string {
    const settings = Object.entries(source.settings).sort(([a], [b]) => a.localeCompare(b));
    return JSON.stringify([source.format, settings, maxCellChars()]);
}

/** Sources read from a file whose size and modification time stand for its content (the column store keeps them). */
const STORABLE: ReadonlySet<SourceDecl['format']> = new Set(['csv', 'json', 'jsonl']);

/**
 * Loads every relation declared on `source` from one pass over its file. `store`: where the columns read are kept
 * between processes (the language server's); a valid entry holding every column mapped stands in for the read.
 */
export async function loadSource(
    source: SourceDecl,
    relations: RelationDecl[],
    signal?: AbortSignal,
    store?: ColumnStore,
): Promise<Map<string, RelationLoad>> {
    const result = new Map<string, RelationLoad>();
    if (source.format !== 'postgres' && (!fs.existsSync(source.path) || !fs.statSync(source.path).isFile())) {
        for (const r of relations)
            result.set(r.name, { problems: [{ kind: 'missing-file', source: source.name, file: source.path }], missing: [] });
        return result;
    }
    const problems = new Map<string, LoadProblem[]>(relations.map(r => [r.name, []]));
    const missing = new Map<string, string[]>(relations.map(r => [r.name, []]));
    /** Per relation, the key of each attribute's column (undefined: not in the source). */
    let plan: { relation: RelationDecl; keys: (string | undefined)[] }[] | undefined;
    /** The columns to read, by key: one per (column, type), shared by relations that map it alike. */
    const wanted = new Map<string, { index: number; type: AttrType }>();
    const makePlan = (header: string[]) => {
        plan = relations.map(relation => ({
            relation,
            keys: relation.attributes.map(a => {
                const index = columnIndex(header, a.column);
                if (index < 0) {
                    problems.get(relation.name)!.push({
                        kind: 'missing-column',
                        relation: relation.name,
                        attribute: a.name,
                        column: a.column,
                        columns: header,
                    });
                    missing.get(relation.name)!.push(a.name);
                    return undefined;
                }
                const key = `${index}|${a.type.scalar}|${a.type.list}`;
                wanted.set(key, { index, type: a.type });
                return key;
            }),
        }));
    };

    const storable = store && STORABLE.has(source.format) ? store : undefined;
    const settings = readSettings(source);
    const stamp = storable ? fileStamp(source.path) : undefined;
    const stored = storable?.read(source, settings);
    let read: SourceRead | undefined;
    if (stored) {
        makePlan(stored.header);
        if ([...wanted.keys()].every(k => stored.columns.has(k))) read = stored;
        // The columns stored before are read again beside the ones now mapped, so the entry keeps them.
        else for (const [key, c] of stored.columns) if (c.index < stored.header.length) wanted.set(key, c);
    }
    if (read) storable!.counts.hits++;
    else {
        if (storable) storable.counts.misses++;
        read = await readColumns(source, wanted, header => plan ?? makePlan(header), signal);
        if (storable && stamp && read.header.length > 0 && !signal?.aborted) storable.write(source, settings, stamp, read);
    }
    for (const r of relations)
        problems
            .get(r.name)!
            .push(...read.problems.map(p => ({ kind: 'format' as const, source: source.name, file: source.path, problem: p })));
    if (read.header.length === 0 || plan === undefined) {
        for (const r of relations) result.set(r.name, { problems: problems.get(r.name)!, missing: [] });
        return result;
    }

    const lineArray = read.lines;
    const nulls = new Int32Array(lineArray.length).fill(-1);
    const projections: Projections = new Map();
    for (const { relation, keys } of plan) {
        const relationProblems = problems.get(relation.name)!;
        const columns: Column[] = relation.attributes.map((a, i) => {
            const got = keys[i] === undefined ? undefined : read.columns.get(keys[i]);
            if (!got) return { attribute: a.name, type: a.type, codes: nulls, size: 0, values: [] as CellValue[] };
            if (got.failures > 0) {
                relationProblems.push({
                    kind: 'coercion',
                    relation: relation.name,
                    attribute: a.name,
                    type: a.type,
                    file: source.path,
                    count: got.failures,
                    examples: got.examples,
                });
            }
            if (got.truncated > 0) {
                relationProblems.push({
                    kind: 'truncated',
                    relation: relation.name,
                    attribute: a.name,
                    file: source.path,
                    count: got.truncated,
                    lines: got.truncatedLines,
                    limit: maxCellChars(),
                });
            }
            return deriveColumn(got.column, { attribute: a.name, type: a.type });
        });
        const table = relation.distinct
            ? project(relation.name, source.path, columns, lineArray, projections)
            : makeTable(relation.name, source.path, columns, lineArray);
        result.set(relation.name, { table, problems: relationProblems, missing: missing.get(relation.name)! });
    }
    return result;
}

/**
 * One pass over the source's rows: `onHeader` is told the header once it is known (and fills `wanted`), then one
 * reader per wanted column reads every row. With no header (an empty or unreadable source) only the problems.
 */
async function readColumns(
    source: SourceDecl,
    wanted: Map<string, { index: number; type: AttrType }>,
    onHeader: (header: string[]) => void,
    signal?: AbortSignal,
): Promise<SourceRead> {
    const separator = listSeparator(source);
    const readers = new Map<string, ColumnReader>();
    let all: ColumnReader[] = [];
    const lines = new Int32Builder();
    const makeReaders = (header: string[], expectedRows = 0) => {
        onHeader(header);
        lines.reserve(Math.min(expectedRows, 1 << 25));
        for (const [key, { index, type }] of wanted)
            readers.set(
                key,
                new ColumnReader(
                    index,
                    type,
                    source.format === 'csv'
                        ? raw => coerceText(raw as string, type, separator)
                        : raw => coerceSqlite(raw, type, separator),
                    source.format === 'postgres',
                    expectedRows,
                ),
            );
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
        if (known.length > 0) makeReaders(known);
        const res = await streamCsv(source, known.length > 0 ? onRow : () => undefined, signal);
        header = res.header.length > 0 ? res.header : undefined;
        formatProblems = res.problems;
    } else if (source.format === 'json' || source.format === 'jsonl') {
        const res = readJson(source, separator, undefined, signal);
        if (res.header.length > 0) {
            makeReaders(res.header);
            readJson(source, separator, onRow, signal);
            header = res.header;
        }
        formatProblems = res.problems;
    } else if (source.format === 'postgres') {
        const onBatch = (batch: RowBatch) => {
            for (const reader of all) reader.readBatch(batch, batch.columns[reader.index]!);
            lines.pushRange(batch.firstLine, batch.size);
        };
        const res = await streamPostgres(source, makeReaders, onBatch, signal);
        header = res.header.length > 0 ? res.header : undefined;
        formatProblems = res.problems;
    } else {
        const res = streamSqlite(source, () => undefined, signal, true);
        if (res.header.length > 0) {
            makeReaders(res.header);
            const full = streamSqlite(source, onRow, signal);
            header = res.header;
            formatProblems = full.problems;
        } else formatProblems = res.problems;
    }
    if (header === undefined) return { header: [], problems: formatProblems, lines: new Int32Array(0), columns: new Map() };
    const columns = new Map<string, ReadColumn>();
    for (const [key, r] of readers)
        columns.set(key, {
            index: r.index,
            type: r.type,
            column: r.builder.build(),
            failures: r.failures,
            examples: r.examples,
            truncated: r.truncated,
            truncatedLines: r.truncatedLines,
        });
    return { header, problems: formatProblems, lines: lines.build(), columns };
}

/**
 * The distinct projections of one load, by the code arrays they project (in order): relations projecting the same
 * columns of a source share the rows picked and the picked arrays, so their checks find one grouping (`groupCodes`).
 */
type Projections = Map<string, { lines: Int32Array; picked: Map<Int32Array, Int32Array> }>;
const arrayIds = new WeakMap<Int32Array, number>();
let nextArrayId = 0;
const arrayId = (a: Int32Array) => {
    let id = arrayIds.get(a);
    if (id === undefined) arrayIds.set(a, (id = nextArrayId++));
    return id;
};

/** A distinct projection: one row per distinct combination of the columns, at its first occurrence. */
function project(relation: string, file: string, columns: Column[], lines: Int32Array, projections: Projections): RelationTable {
    const key = columns.map(c => arrayId(c.codes)).join(',');
    let projection = projections.get(key);
    if (!projection) {
        const rows = firstOccurrences(columns.map(columnCodes), lines.length);
        const pick = (codes: Int32Array) => {
            const out = new Int32Array(rows.length);
            for (let i = 0; i < rows.length; i++) out[i] = codes[rows[i]!]!;
            return out;
        };
        projection = { lines: pick(lines), picked: new Map(columns.map(c => [c.codes, pick(c.codes)])) };
        projections.set(key, projection);
    }
    const picked = projection.picked;
    return makeTable(
        relation,
        file,
        columns.map(c => deriveColumn(c, { codes: picked.get(c.codes)! })),
        projection.lines,
    );
}
