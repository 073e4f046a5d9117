/**
 * JSON and JSONL sources: an array of objects (`json`) or one object per line (`jsonl`). Nested fields are
 * columns named by their path (`evidence.text`, `answer.0`); arrays are values (list attributes). Each row
 * reports its line (JSONL) or its position in the array (JSON, 1-based) as its line.
 */
import * as fs from 'node:fs';
import type { SourceDecl } from '../spec/model.js';
import type { SourceProblem } from '../problem.js';

/** The code of every problem of a json source's read. */
const CODE = 'json-format';

export interface JsonRead {
    header: string[];
    problems: SourceProblem[];
}

/** Leaf paths of a record: nested objects are walked, arrays and scalars are leaves. */
function leaves(value: unknown, prefix: string, out: Set<string>): void {
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
        for (const [k, v] of Object.entries(value)) leaves(v, prefix ? `${prefix}.${k}` : k, out);
    } else if (prefix) out.add(prefix);
}

function at(record: unknown, path: string[]): unknown {
    let v = record;
    for (const p of path) {
        if (v === null || typeof v !== 'object') return undefined;
        v = (v as Record<string, unknown>)[p];
    }
    return v;
}

/** A value as the column readers take it: text, number or null; true/false as words; a list joined. */
function cell(v: unknown, separator: string): unknown {
    if (v === undefined || v === null) return null;
    if (typeof v === 'boolean') return v ? 'true' : 'false';
    if (Array.isArray(v))
        return v.map(x => (typeof x === 'object' && x !== null ? JSON.stringify(x) : String(x))).join(separator);
    if (typeof v === 'object') return JSON.stringify(v);
    return v;
}

/** Deepest nesting read; past it a record is refused (a recursive walk of 6,000 levels overflows the stack). */
const MAX_JSON_DEPTH = 1000;
const CHUNK = 1 << 20;
const BOM = [0xef, 0xbb, 0xbf];

interface Scan {
    problems: SourceProblem[];
    badUtf8: boolean;
}

/**
 * The file's records one at a time, read in 1 MB chunks: memory holds one record, never the whole file (a JSON
 * array is split at its top-level commas by a byte scanner that knows strings and escapes). A UTF-8 byte-order
 * mark is skipped, as CSV does; bytes that are not UTF-8 are read as � and reported once.
 */
function* recordsOf(file: string, jsonl: boolean, scan: Scan, signal?: AbortSignal): Generator<{ value: unknown; line: number }> {
    const fd = fs.openSync(file, 'r');
    const strict = new TextDecoder('utf-8', { fatal: true });
    const lossy = new TextDecoder('utf-8');
    const decode = (b: Buffer) => {
        try {
            return strict.decode(b);
        } catch {
            scan.badUtf8 = true;
            return lossy.decode(b);
        }
    };
    const bad: number[] = [];
    let badCount = 0;
    const tooDeep: number[] = [];
    try {
        const buf = Buffer.allocUnsafe(CHUNK);
        let parts: Buffer[] = [];
        let first = true,
            line = 1,
            record = 0,
            depth = 0,
            deepest = 0,
            inString = false,
            escaped = false,
            opened = false,
            ended = false;
        const take = (end: Buffer): string => {
            parts.push(end);
            const b = Buffer.concat(parts);
            parts = [];
            return decode(b);
        };
        const parse = (text: string, at: number) => {
            if (deepest > MAX_JSON_DEPTH) {
                tooDeep.push(at);
                deepest = 0;
                return undefined;
            }
            deepest = 0;
            try {
                return { value: JSON.parse(text) as unknown };
            } catch {
                badCount++;
                if (bad.length < 5) bad.push(at);
                return undefined;
            }
        };
        for (let n; (n = fs.readSync(fd, buf, 0, CHUNK, null)) > 0;) {
            if (signal?.aborted) return;
            let chunk = buf.subarray(0, n);
            if (first) {
                first = false;
                if (BOM.every((b, i) => chunk[i] === b)) chunk = chunk.subarray(3);
            }
            let from = 0;
            for (let i = 0; i < chunk.length; i++) {
                const c = chunk[i]!;
                if (jsonl) {
                    if (c === 0x22 && !escaped) inString = !inString;
                    escaped = inString && c === 0x5c && !escaped;
                    if (!inString && (c === 0x7b || c === 0x5b)) deepest = Math.max(deepest, ++depth);
                    else if (!inString && (c === 0x7d || c === 0x5d)) depth--;
                    if (c !== 0x0a) continue;
                    const text = take(chunk.subarray(from, i));
                    from = i + 1;
                    inString = false;
                    escaped = false;
                    depth = 0;
                    if (text.trim() !== '') {
                        const r = parse(text, line);
                        if (r) yield { value: r.value, line };
                    }
                    line++;
                    continue;
                }
                if (ended) continue;
                if (!opened) {
                    // Before the array: white space, then '[' (a top-level object or anything else is not an array).
                    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) {
                        from = i + 1;
                        continue;
                    }
                    if (c !== 0x5b) throw new NotAnArray();
                    opened = true;
                    from = i + 1;
                    continue;
                }
                if (inString) {
                    if (escaped) escaped = false;
                    else if (c === 0x5c) escaped = true;
                    else if (c === 0x22) inString = false;
                    continue;
                }
                if (c === 0x22) inString = true;
                else if (c === 0x5b || c === 0x7b) deepest = Math.max(deepest, ++depth);
                else if (depth > 0 && (c === 0x5d || c === 0x7d)) depth--;
                else if (depth === 0 && (c === 0x2c || c === 0x5d)) {
                    // A top-level comma or the closing bracket ends a record.
                    const text = take(chunk.subarray(from, i));
                    from = i + 1;
                    if (c === 0x5d) ended = true;
                    if (c === 0x5d && text.trim() === '') continue;
                    record++;
                    const r = parse(text, record);
                    if (r) yield { value: r.value, line: record };
                }
            }
            if (from < chunk.length) parts.push(Buffer.from(chunk.subarray(from)));
        }
        if (jsonl) {
            const text = take(Buffer.alloc(0));
            if (text.trim() !== '') {
                const r = parse(text, line);
                if (r) yield { value: r.value, line };
            }
        } else if (!ended) {
            throw new NotAnArray();
        }
    } finally {
        fs.closeSync(fd);
        if (bad.length) {
            scan.problems.push(
                jsonl
                    ? {
                          severity: 'error',
                          code: CODE,
                          lines: bad,
                          message: `has ${badCount} line(s) that are not JSON (line ${bad.join(', ')}); each line must be one JSON object`,
                      }
                    : {
                          severity: 'error',
                          code: CODE,
                          lines: [],
                          message: `is not valid JSON (record ${bad.join(', ')} of the array does not parse); write an array of objects, or use a jsonl source for one object per line`,
                      },
            );
        }
        if (tooDeep.length)
            scan.problems.push({
                severity: 'error',
                code: CODE,
                lines: jsonl ? tooDeep.slice(0, 5) : [],
                message: `nests deeper than ${MAX_JSON_DEPTH} levels (${jsonl ? 'line' : 'record'} ${tooDeep.slice(0, 5).join(', ')}); flatten those records — they are skipped`,
            });
    }
}

class NotAnArray extends Error {}

/** Reads the records; `onRow` gets the values in header order. The header is the union of the first records' paths. */
export function readJson(
    source: SourceDecl,
    separator: string,
    onRow: ((fields: unknown[], line: number) => void) | undefined,
    signal?: AbortSignal,
): JsonRead {
    const scan: Scan = { problems: [], badUtf8: false };
    const jsonl = source.format === 'jsonl';
    const paths = new Set<string>();
    let records = 0,
        objects = 0;
    const notObjects: number[] = [];
    let header: string[] | undefined;
    let split: string[][] = [];
    const pending: { value: unknown; line: number }[] = [];
    const emit = (r: { value: unknown; line: number }) =>
        onRow!(
            split.map(p => cell(at(r.value, p), separator)),
            r.line,
        );
    try {
        for (const r of recordsOf(source.path, jsonl, scan, signal)) {
            records++;
            if (r.value === null || typeof r.value !== 'object' || Array.isArray(r.value)) {
                if (notObjects.length < 5) notObjects.push(r.line);
                continue;
            }
            objects++;
            // The header is the union of the first 1,000 objects' paths; rows wait for it (at most 1,000 of them).
            if (header === undefined) {
                leaves(r.value, '', paths);
                if (onRow) pending.push(r);
                if (objects >= 1000) {
                    header = [...paths];
                    split = header.map(h => h.split('.'));
                    if (onRow) pending.splice(0).forEach(emit);
                }
                continue;
            }
            if (onRow) emit(r);
        }
    } catch (e) {
        if (e instanceof NotAnArray) {
            if (records === 0)
                return {
                    header: [],
                    problems: [
                        ...scan.problems,
                        {
                            severity: 'error',
                            code: CODE,
                            lines: [],
                            message:
                                'is not an array of objects (it must start with [ and end with ]); write [ {…}, {…} ], or use a jsonl source for one object per line',
                        },
                    ],
                };
            scan.problems.push({
                severity: 'error',
                code: CODE,
                lines: [],
                message: 'ends before its closing ]: the file is cut short or has text after the array',
            });
        } else {
            return {
                header: [],
                problems: [
                    {
                        severity: 'error',
                        code: CODE,
                        lines: [],
                        message: `could not be read: ${e instanceof Error ? e.message : String(e)}`,
                    },
                ],
            };
        }
    }
    if (header === undefined) {
        header = [...paths];
        split = header.map(h => h.split('.'));
        if (onRow) pending.splice(0).forEach(emit);
    }
    const problems = scan.problems;
    if (scan.badUtf8)
        problems.push({
            severity: 'warning',
            code: CODE,
            lines: [],
            message: 'contains bytes that are not valid UTF-8 (shown as �); save it as UTF-8 — JSON is always UTF-8',
        });
    if (notObjects.length)
        problems.push({
            severity: 'warning',
            code: CODE,
            lines: notObjects,
            message: `has ${records - objects} record(s) that are not objects; they are skipped`,
        });
    if (objects === 0)
        return {
            header: [],
            problems: [...problems, { severity: 'error', code: CODE, lines: [], message: 'holds no object records' }],
        };
    return { header, problems };
}
