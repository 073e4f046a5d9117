/**
 * Streaming CSV reading with csv-parse: the file is read in chunks and never held as one string, each record
 * comes with the 1-based line it starts on (quoted newlines included), and every format problem becomes a
 * plain message with line numbers instead of a parser exception.
 */
import * as fs from 'node:fs';
import { parse, CsvError } from 'csv-parse';
import type { SourceDecl } from '../spec/model.js';
import type { SourceProblem } from '../problem.js';
import { CSV_SETTINGS } from './settings.js';

/** The code of every problem of a CSV source's read: the file as a whole or some of its lines. */
const CODE = 'csv-format';

/** A problem with the file as a whole or with some of its lines (not with one typed value). */

export interface StreamResult {
    header: string[];
    problems: SourceProblem[];
    /** False when the file could not be read to the end (binary, unclosed quote, ...). */
    complete: boolean;
}

export type RowSink = (fields: string[], line: number) => void;

const SQLITE_MAGIC = 'SQLite format 3\u0000';
const REPLACEMENT = Buffer.from('\uFFFD', 'utf8');
const ENCODINGS: Record<string, string> = {
    'latin-1': 'latin1',
    'iso-8859-1': 'latin1',
    latin1: 'latin1',
    'utf-8': 'utf-8',
    utf8: 'utf-8',
    'utf-16': 'utf-16le',
    utf16: 'utf-16le',
};

/** The single-character setting as the user meant it: `"\t"` and `tab` both mean a tab. */
function character(value: string): string {
    return value === 'tab' || value === '\\t' ? '\t' : value;
}

function csvOptions(source: SourceDecl): { delimiter: string; quote: string | false; header: boolean; encoding: string } {
    const settings = CSV_SETTINGS.read(source.settings);
    const encoding = settings.encoding.toLowerCase();
    return {
        delimiter: character(settings.delimiter),
        quote: settings.quote === '' ? false : character(settings.quote),
        header: settings.header,
        encoding: ENCODINGS[encoding] ?? encoding,
    };
}

/** Why the first bytes show this is not a CSV text file, or undefined when it looks like text. */
function notText(head: Buffer, encoding: string): string | undefined {
    if (head.subarray(0, 16).toString('latin1') === SQLITE_MAGIC)
        return 'is an SQLite database, not a CSV file; declare the source as `sqlite` with a table or query';
    if (!encoding.startsWith('utf-16') && head.includes(0))
        return 'is not a text file (it contains binary data); point the source at a CSV file';
    return undefined;
}

/**
 * Reads a CSV source record by record. The header row (when `header` is on) is returned, not passed to
 * `onRow`; blank lines are skipped. Rows whose field count differs from the header are still passed on
 * (missing fields read as empty) and reported once, with their lines.
 */
export async function streamCsv(
    source: SourceDecl,
    onRow: RowSink,
    signal?: AbortSignal,
    headerOnly = false,
): Promise<StreamResult> {
    const options = csvOptions(source);
    const problems: SourceProblem[] = [];
    let decoder: TextDecoder;
    try {
        decoder = new TextDecoder(options.encoding);
    } catch {
        return {
            header: [],
            complete: false,
            problems: [
                {
                    severity: 'error',
                    code: CODE,
                    lines: [],
                    message: `unknown encoding '${options.encoding}'; use utf-8, latin1, windows-1252 or utf-16`,
                },
            ],
        };
    }
    const head = Buffer.alloc(4096);
    let headLength: number;
    try {
        const fd = fs.openSync(source.path, 'r');
        try {
            headLength = fs.readSync(fd, head, 0, head.length, 0);
        } finally {
            fs.closeSync(fd);
        }
    } catch (e) {
        return { header: [], complete: false, problems: [parseProblem(e, 1)] };
    }
    const binary = notText(head.subarray(0, headLength), options.encoding);
    if (binary) return { header: [], complete: false, problems: [{ severity: 'error', code: CODE, lines: [], message: binary }] };

    let header: string[] | undefined;
    let lastLine = 0;
    // csv-parse counts a \r\n inside a quoted field as two lines (one only between records): what it has
    // over-counted so far, and the line it last reported.
    let drift = 0;
    let lastReported = 0;
    let records = 0;
    const ragged: { line: number; fields: number }[] = [];
    let raggedCount = 0;
    let complete = true;
    let stop = false;
    // Records are handled synchronously as the parser finds them (not pushed through the stream), which
    // saves an object and a stream round trip per row.
    const onRecord = (record: string[], reported: number) => {
        const line = lastLine + 1;
        if (reported - lastReported > 1)
            for (const f of record) for (let i = f.indexOf('\r\n'); i >= 0; i = f.indexOf('\r\n', i + 2)) drift++;
        lastReported = reported;
        lastLine = reported - drift;
        if (stop || (record.length === 1 && record[0] === '')) return;
        if (++records % 8192 === 0 && signal?.aborted) {
            stop = true;
            return;
        }
        if (header === undefined) {
            header = options.header ? record.map(h => h.trim()) : record.map((_, i) => String(i + 1));
            if (headerOnly) {
                stop = true;
                return;
            }
            if (options.header) return;
        }
        if (record.length !== header.length) {
            raggedCount++;
            if (ragged.length < 5) ragged.push({ line, fields: record.length });
        }
        onRow(record, line);
    };
    const parser = parse({
        delimiter: options.delimiter,
        quote: options.quote,
        bom: true,
        relax_column_count: true,
        relax_quotes: true,
        // Every line end counts, even mixed in one file (csv-parse would otherwise settle on the first it meets).
        record_delimiter: ['\r\n', '\n', '\r'],
        on_record: (record: string[], context: { lines: number }) => {
            onRecord(record, context.lines);
            return undefined;
        },
    });
    const utf8 = options.encoding === 'utf-8';
    let invalidUtf8 = false;
    const finished = new Promise<void>((resolve, reject) => {
        parser.on('end', resolve);
        parser.on('error', reject);
        parser.resume();
    });
    const feeding = (async () => {
        try {
            for await (const chunk of fs.createReadStream(source.path, { highWaterMark: 1 << 20 })) {
                if (parser.destroyed || stop) break;
                const text = decoder.decode(chunk as Buffer, { stream: true });
                // A replacement character the file did not contain means bytes that are not valid UTF-8.
                if (!invalidUtf8 && utf8 && text.includes('\uFFFD') && !(chunk as Buffer).includes(REPLACEMENT))
                    invalidUtf8 = true;
                if (!parser.write(text)) {
                    await new Promise<void>(resolve => {
                        const done = () => {
                            parser.off('drain', done);
                            parser.off('close', done);
                            resolve();
                        };
                        parser.on('drain', done);
                        parser.on('close', done);
                    });
                }
            }
            if (!parser.destroyed) parser.end(stop ? undefined : decoder.decode());
        } catch (e) {
            parser.destroy(e as Error);
        }
    })();
    try {
        await finished;
    } catch (e) {
        complete = false;
        problems.push(parseProblem(e, lastLine + 1));
    } finally {
        await feeding;
    }
    signal?.throwIfAborted();
    if (header === undefined) {
        problems.push({ severity: 'error', code: CODE, lines: [], message: 'is empty: it has no header row' });
        return { header: [], problems, complete: false };
    }
    if (headerOnly) return { header, problems, complete };
    if (invalidUtf8) {
        problems.push({
            severity: 'warning',
            code: CODE,
            lines: [],
            message:
                'contains bytes that are not valid UTF-8 (shown as �); if it was saved as Latin-1 or Windows-1252, add `encoding "windows-1252"` to the source',
        });
    }
    if (records === (options.header ? 1 : 0) && complete)
        problems.push({ severity: 'warning', code: CODE, lines: [], message: 'has a header row but no data rows' });
    if (raggedCount > 0) {
        const shown = ragged.map(r => `line ${r.line} has ${r.fields}`).join(', ');
        problems.push({
            severity: 'error',
            code: CODE,
            lines: ragged.map(r => r.line),
            message:
                `has ${raggedCount} row${raggedCount === 1 ? '' : 's'} whose number of fields differs from the header's ${header.length} (${shown}${raggedCount > ragged.length ? ', …' : ''}); ` +
                'check the delimiter and quoting of those lines',
        });
    }
    return { header, problems, complete };
}

function parseProblem(e: unknown, line: number): SourceProblem {
    if (e instanceof CsvError && e.code === 'CSV_QUOTE_NOT_CLOSED') {
        return {
            severity: 'error',
            code: CODE,
            lines: [line],
            message: `has a quote opened on line ${line} that is never closed; the rows from there on could not be read`,
        };
    }
    if (e instanceof CsvError)
        return {
            severity: 'error',
            code: CODE,
            lines: [line],
            message: `could not be read from line ${line}: ${e.message.replace(/^Invalid Record Length: /, '')}`,
        };
    const err = e as NodeJS.ErrnoException;
    return {
        severity: 'error',
        code: CODE,
        lines: [],
        message: `could not be read: ${err.code ?? ''} ${err.message ?? String(e)}`.trim(),
    };
}

/** The column names of a CSV source (its first row, or 1, 2, … when `header false`); [] when unreadable. */
export async function readCsvHeader(source: SourceDecl): Promise<string[]> {
    return (await streamCsv(source, () => undefined, undefined, true)).header;
}
