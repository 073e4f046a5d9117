/**
 * Importing a folder of CSV (or JSON / JSONL) files: one relation per file, attribute types inferred from the values, keys from
 * the minimal unique column combinations, and FKs from unary inclusion dependencies between the files.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { RelationTable } from '../data/types.js';
import type { ScalarType } from '../spec/model.js';
import { problem, type Problem } from '../errors.js';
import { Refiner, keyError, nullAsValue, partitionOfCodes, type Partition } from './partition.js';
import type { ImportedFk, ImportedRelation } from './spec-text.js';

const DELIMITERS = [',', ';', '\t', '|'];

/** Counts each candidate delimiter outside double quotes in one line. */
function delimiterCounts(line: string): number[] {
    const counts = DELIMITERS.map(() => 0);
    let quoted = false;
    for (const ch of line) {
        if (ch === '"') quoted = !quoted;
        else if (!quoted) {
            const i = DELIMITERS.indexOf(ch);
            if (i >= 0) counts[i]!++;
        }
    }
    return counts;
}

/**
 * The delimiter of a CSV file from its header line, checked against the next lines: a line that has none of it
 * but has another candidate means the file mixes delimiters.
 */
export function detectDelimiter(file: string): { delimiter: string } | Problem {
    let head: string;
    try {
        const fd = fs.openSync(file, 'r');
        try {
            const buffer = Buffer.alloc(64 * 1024);
            head = buffer.subarray(0, fs.readSync(fd, buffer, 0, buffer.length, 0)).toString('utf8');
        } finally {
            fs.closeSync(fd);
        }
    } catch (e) {
        return problem(
            'import-unreadable',
            `cannot read ${path.basename(file)}: ${(e as Error).message}`,
            'Check that the file exists and is readable.',
            { file },
        );
    }
    const lines = head
        .split(/\r\n|\n|\r/)
        .slice(0, 50)
        .filter(l => l.trim() !== '');
    if (lines.length === 0)
        return problem(
            'import-empty',
            `${path.basename(file)} is empty`,
            'Remove the file from the folder or give it a header row and data.',
            { file },
        );
    const header = delimiterCounts(lines[0]!);
    const best = header.indexOf(Math.max(...header));
    const delimiter = header[best]! > 0 ? DELIMITERS[best]! : ',';
    for (let i = 1; i < lines.length - 1; i++) {
        // the last line may be cut off by the 64 KiB window
        const counts = delimiterCounts(lines[i]!);
        const other = counts.findIndex((c, j) => c > 0 && j !== best && counts[best]! === 0);
        if (header[best]! > 0 && counts[best]! === 0 && other >= 0) {
            const show = (d: string) => (d === '\t' ? 'tab' : `'${d}'`);
            return problem(
                'import-mixed-delimiters',
                `${path.basename(file)} mixes delimiters: its header is split by ${show(delimiter)} but line ${i + 1} by ${show(DELIMITERS[other]!)}`,
                'Save the file with one delimiter throughout.',
                { file, range: { start: { line: i, character: 0 }, end: { line: i, character: lines[i]!.length } } },
            );
        }
    }
    return { delimiter };
}

/** The CSV, TSV, JSON and JSONL files of a folder, sorted. */
export function dataFiles(folder: string): string[] {
    return fs
        .readdirSync(folder)
        .filter(f => /\.(csv|tsv|jsonl|json)$/i.test(f))
        .sort()
        .map(f => path.join(folder, f));
}

/** The source format of a data file, by its extension. */
export function formatOf(file: string): 'csv' | 'json' | 'jsonl' {
    const ext = path.extname(file).toLowerCase();
    return ext === '.jsonl' ? 'jsonl' : ext === '.json' ? 'json' : 'csv';
}

const INT = /^[+-]?\d{1,15}$/,
    REAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/,
    BOOL = /^(true|false)$/i,
    DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The narrowest spec type every non-empty value of a text column fits (text when none fits). */
export function inferType(values: readonly unknown[]): ScalarType {
    const texts = values.filter((v): v is string => typeof v === 'string' && v !== '');
    if (texts.length === 0) return 'text';
    for (const [type, pattern] of [
        ['int', INT],
        ['real', REAL],
        ['bool', BOOL],
        ['date', DATE],
    ] as const) {
        if (texts.every(t => pattern.test(t))) return type;
    }
    return 'text';
}

/** Partitions of a table's columns, NULL as a value. */
function columnPartitions(table: RelationTable): Partition[] {
    return table.columns.map(c => partitionOfCodes(nullAsValue(c.codes, c.size), c.size + 1));
}

/**
 * Minimal unique column combinations of up to `maxSize` columns without NULLs (a key column must be
 * filled): at most `limit`, smallest first. Found level-wise from stripped partitions like the FDs.
 */
export function uniqueCombinations(table: RelationTable, maxSize = 2, limit = 3): number[][] {
    const filled = table.columns.map((c, i) => (c.codes.every(x => x >= 0) ? i : -1)).filter(i => i >= 0);
    const partitions = columnPartitions(table);
    const refiner = new Refiner(table.rowCount);
    const keys: number[][] = [];
    let level: { attrs: number[]; partition: Partition }[] = filled.map(i => ({ attrs: [i], partition: partitions[i]! }));
    for (let size = 1; size <= maxSize && level.length > 0; size++) {
        const open: typeof level = [];
        for (const node of level) {
            if (keyError(node.partition) === 0) keys.push(node.attrs);
            else open.push(node);
        }
        if (keys.length >= limit || size === maxSize) break;
        level = [];
        for (const node of open) {
            for (const i of filled) {
                if (i <= node.attrs[node.attrs.length - 1]!) continue;
                const attrs = [...node.attrs, i];
                // A combination containing a key is not minimal.
                if (keys.some(k => k.every(a => attrs.includes(a)))) continue;
                level.push({ attrs, partition: refiner.product(node.partition, partitions[i]!) });
            }
        }
    }
    return keys.slice(0, limit);
}

/** Distinct non-null values of a column, as text (so 1 and "1" meet). */
const valueSet = (table: RelationTable, attribute: string) =>
    new Set(
        table
            .column(attribute)!
            .values.filter(v => v !== null)
            .map(v => String(v)),
    );

/**
 * FKs from unary inclusion dependencies: a column whose values (two or more distinct) lie in another
 * relation's one-column key, of the same type. The referencing column must not be its own relation's only key
 * (identity columns numbered 1..n would otherwise all reference each other).
 */
export function inclusionFks(relations: ImportedRelation[], tables: Map<string, RelationTable>, minCoverage = 0.9): ImportedFk[] {
    const fks: ImportedFk[] = [];
    for (const to of relations) {
        const target = tables.get(to.name);
        for (const key of to.keys.filter(k => k.length === 1)) {
            if (!target) continue;
            const keyType = to.attributes.find(a => a.name === key[0])!.type;
            const referenced = valueSet(target, key[0]!);
            for (const from of relations) {
                const source = tables.get(from.name);
                if (!source) continue;
                for (const attr of from.attributes) {
                    if (from === to && attr.name === key[0]) continue;
                    if (attr.type !== keyType || from.keys.some(k => k.length === 1 && k[0] === attr.name)) continue;
                    const values = valueSet(source, attr.name);
                    if (values.size < 2) continue;
                    let present = 0;
                    for (const v of values) if (referenced.has(v)) present++;
                    const coverage = present / values.size;
                    if (coverage >= minCoverage)
                        fks.push({
                            from: { relation: from.name, attributes: [attr.name] },
                            to: { relation: to.name, attributes: key },
                            coverage,
                            declared: false,
                        });
                }
            }
        }
    }
    return fks;
}
