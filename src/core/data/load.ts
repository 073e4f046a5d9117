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

/** Loads every relation declared on `source` from one pass over its file. */
export async function loadSource(
    source: SourceDecl,
    relations: RelationDecl[],
    signal?: AbortSignal,
): Promise<Map<string, RelationLoad>> {
    const result = new Map<string, RelationLoad>();
    if (source.format !== 'postgres' && (!fs.existsSync(source.path) || !fs.statSync(source.path).isFile())) {
        for (const r of relations)
            result.set(r.name, { problems: [{ kind: 'missing-file', source: source.name, file: source.path }], missing: [] });
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
                let reader = readers.get(key);
                if (!reader) {
                    const type = a.type;
                    reader = new ColumnReader(
                        index,
                        type,
                        source.format === 'csv'
                            ? raw => coerceText(raw as string, type, separator)
                            : raw => coerceSqlite(raw, type, separator),
                        source.format === 'postgres',
                        expectedRows,
                    );
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
    for (const r of relations)
        problems
            .get(r.name)!
            .push(...formatProblems.map(p => ({ kind: 'format' as const, source: source.name, file: source.path, problem: p })));
    if (header === undefined) {
        for (const r of relations) result.set(r.name, { problems: problems.get(r.name)!, missing: [] });
        return result;
    }

    const lineArray = lines.build();
    const built = new Map<ColumnReader, Column>([...readers.values()].map(r => [r, r.builder.build()]));
    const nulls = new Int32Array(lineArray.length).fill(-1);
    const projections: Projections = new Map();
    for (const { relation, readers: used } of plan) {
        const relationProblems = problems.get(relation.name)!;
        const columns: Column[] = relation.attributes.map((a, i) => {
            const reader = used[i];
            if (!reader) return { attribute: a.name, type: a.type, codes: nulls, size: 0, values: [] as CellValue[] };
            if (reader.failures > 0) {
                relationProblems.push({
                    kind: 'coercion',
                    relation: relation.name,
                    attribute: a.name,
                    type: a.type,
                    file: source.path,
                    count: reader.failures,
                    examples: reader.examples,
                });
            }
            if (reader.truncated > 0) {
                relationProblems.push({
                    kind: 'truncated',
                    relation: relation.name,
                    attribute: a.name,
                    file: source.path,
                    count: reader.truncated,
                    lines: reader.truncatedLines,
                    limit: maxCellChars(),
                });
            }
            const column = built.get(reader)!;
            return deriveColumn(column, { attribute: a.name, type: a.type });
        });
        const table = relation.distinct
            ? project(relation.name, source.path, columns, lineArray, projections)
            : makeTable(relation.name, source.path, columns, lineArray);
        result.set(relation.name, { table, problems: relationProblems, missing: missing.get(relation.name)! });
    }
    return result;
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
