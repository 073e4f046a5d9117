/**
 * The columns read from a data file, kept on disk between server processes (issue 39): after a window reload the
 * language server reads the typed, dictionary-encoded columns it built last time instead of parsing and coercing
 * the file again. One entry per file (`<sha256 of the path>.bin`, written with v8.serialize), valid for the file's
 * size and modification time, the source's read settings, the cell limit and FORMAT; anything else (a stale, an
 * unreadable or a corrupt entry, or one lacking a column now mapped) is a miss and the file is read again. Only
 * the editor's server keeps one (the extension gives it a folder of its workspace storage); the CLI reads its
 * files each time.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as v8 from 'node:v8';
import type { AttrType, SourceDecl } from '../spec/model.js';
import type { SourceProblem } from '../problem.js';
import type { CellValue, Column } from './types.js';
import type { CoercionExample } from './column-reader.js';

/** Raised whenever what is stored, or what it means, changes: older entries are then misses. */
const FORMAT = 1;

/** One column as read: the built column and what its reader met (coercion failures, cut cells). */
export interface ReadColumn {
    index: number;
    type: AttrType;
    column: Column;
    failures: number;
    examples: CoercionExample[];
    truncated: number;
    truncatedLines: number[];
}

/** One read of a source: its header, format problems, each row's line and the columns read, by reader key. */
export interface SourceRead {
    header: string[];
    problems: SourceProblem[];
    lines: Int32Array;
    columns: Map<string, ReadColumn>;
}

/** The file's state that an entry is valid for (taken before reading it, so a write during the read is a miss). */
export interface FileStamp {
    size: number;
    mtimeMs: number;
}

interface Entry {
    format: number;
    file: string;
    stamp: FileStamp;
    settings: string;
    header: string[];
    problems: SourceProblem[];
    lines: Int32Array;
    columns: [string, Omit<ReadColumn, 'column'> & { values: CellValue[]; codes: Int32Array }][];
}

export function fileStamp(file: string): FileStamp | undefined {
    try {
        const stat = fs.statSync(file);
        return { size: stat.size, mtimeMs: stat.mtimeMs };
    } catch {
        return undefined;
    }
}

export class ColumnStore {
    /**
     * Loads answered from an entry, loads that read the file (no entry, a stale or corrupt one, or one lacking a
     * column now mapped), and entries written: for tests and the server's log.
     */
    readonly counts = { hits: 0, misses: 0, writes: 0 };

    constructor(readonly dir: string) {}

    private entryPath(file: string): string {
        return path.join(this.dir, `${createHash('sha256').update(file).digest('hex').slice(0, 32)}.bin`);
    }

    /**
     * The stored read of `source` when it is still valid (same file state, `settings`: what else decides the read,
     * as one string, and FORMAT); otherwise undefined. It may lack columns the caller now maps.
     */
    read(source: SourceDecl, settings: string): SourceRead | undefined {
        const stamp = fileStamp(source.path);
        let entry: Entry;
        try {
            entry = v8.deserialize(fs.readFileSync(this.entryPath(source.path))) as Entry;
        } catch {
            return undefined;
        }
        const valid =
            stamp !== undefined &&
            entry !== null &&
            typeof entry === 'object' &&
            entry.format === FORMAT &&
            entry.file === source.path &&
            entry.settings === settings &&
            entry.stamp?.size === stamp.size &&
            entry.stamp?.mtimeMs === stamp.mtimeMs &&
            Array.isArray(entry.columns) &&
            entry.lines instanceof Int32Array &&
            entry.columns.every(
                ([, c]) => c.codes instanceof Int32Array && c.codes.length === entry.lines.length && Array.isArray(c.values),
            );
        if (!valid) return undefined;
        const columns = new Map(
            entry.columns.map(([key, { codes, values, ...read }]): [string, ReadColumn] => [
                key,
                { ...read, column: { attribute: '', type: read.type, codes, size: values.length, values } },
            ]),
        );
        return { header: entry.header, problems: entry.problems, lines: entry.lines, columns };
    }

    /** Stores a complete read of `source`, valid for `stamp`; a failure to write only costs the next start a read. */
    write(source: SourceDecl, settings: string, stamp: FileStamp, read: SourceRead): void {
        const entry: Entry = {
            format: FORMAT,
            file: source.path,
            stamp,
            settings,
            header: read.header,
            problems: read.problems,
            lines: read.lines,
            columns: [...read.columns].map(([key, { column, ...rest }]) => [
                key,
                { ...rest, codes: column.codes, values: column.values },
            ]),
        };
        const target = this.entryPath(source.path);
        const temporary = `${target}.${process.pid}.tmp`;
        try {
            fs.mkdirSync(this.dir, { recursive: true });
            fs.writeFileSync(temporary, v8.serialize(entry));
            fs.renameSync(temporary, target);
            this.counts.writes++;
        } catch {
            fs.rmSync(temporary, { force: true });
        }
    }
}
