/**
 * JSON and JSONL sources: an array of objects (`json`) or one object per line (`jsonl`). Nested fields are
 * columns named by their path (`evidence.text`, `answer.0`); arrays are values (list attributes). Each row
 * reports its line (JSONL) or its position in the array (JSON, 1-based) as its line.
 */
import * as fs from 'node:fs';
import type { SourceDecl } from '../spec/model.js';
import type { FormatProblem } from './csv.js';

export interface JsonRead { header: string[]; problems: FormatProblem[] }

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
    if (Array.isArray(v)) return v.map(x => (typeof x === 'object' && x !== null ? JSON.stringify(x) : String(x))).join(separator);
    if (typeof v === 'object') return JSON.stringify(v);
    return v;
}

/** Reads the records; `onRow` gets the values in header order. The header is the union of the first records' paths. */
export function readJson(source: SourceDecl, separator: string, onRow: ((fields: unknown[], line: number) => void) | undefined, signal?: AbortSignal): JsonRead {
    let text: string;
    try {
        text = fs.readFileSync(source.path, 'utf8');
    } catch (e) {
        return { header: [], problems: [{ severity: 'error', lines: [], message: `could not be read: ${e instanceof Error ? e.message : String(e)}` }] };
    }
    const records: { value: unknown; line: number }[] = [];
    const problems: FormatProblem[] = [];
    if (source.format === 'jsonl') {
        const lines = text.split(/\r?\n/);
        const bad: number[] = [];
        lines.forEach((l, i) => {
            if (l.trim() === '') return;
            try { records.push({ value: JSON.parse(l), line: i + 1 }); } catch { bad.push(i + 1); }
        });
        if (bad.length) problems.push({ severity: 'error', lines: bad.slice(0, 5), message: `has ${bad.length} line(s) that are not JSON (line ${bad.slice(0, 5).join(', ')}); each line must be one JSON object` });
    } else {
        let parsed: unknown;
        try {
            parsed = JSON.parse(text);
        } catch (e) {
            return { header: [], problems: [{ severity: 'error', lines: [], message: `is not valid JSON (${e instanceof Error ? e.message : String(e)}); write an array of objects, or use a jsonl source for one object per line` }] };
        }
        if (!Array.isArray(parsed)) return { header: [], problems: [{ severity: 'error', lines: [], message: 'is JSON but not an array of objects; write [ {…}, {…} ]' }] };
        parsed.forEach((value, i) => records.push({ value, line: i + 1 }));
    }
    const objects = records.filter(r => r.value !== null && typeof r.value === 'object' && !Array.isArray(r.value));
    if (objects.length < records.length) problems.push({ severity: 'warning', lines: records.filter(r => !objects.includes(r)).slice(0, 5).map(r => r.line), message: `has ${records.length - objects.length} record(s) that are not objects; they are skipped` });
    if (objects.length === 0) return { header: [], problems: [...problems, { severity: 'error', lines: [], message: 'holds no object records' }] };
    const paths = new Set<string>();
    for (const r of objects.slice(0, 1000)) leaves(r.value, '', paths);
    const header = [...paths];
    if (onRow) {
        const split = header.map(h => h.split('.'));
        for (let i = 0; i < objects.length; i++) {
            if ((i & 0x1fff) === 0 && signal?.aborted) break;
            const r = objects[i]!;
            onRow(split.map(p => cell(at(r.value, p), separator)), r.line);
        }
    }
    return { header, problems };
}
