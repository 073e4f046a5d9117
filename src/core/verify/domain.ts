/**
 * The domain of one attribute (every distinct value in the data), indexed once per run so that a rationale
 * can be scanned for *other* values of the same attribute — the contradiction check — in one pass over its
 * tokens: a hash lookup on each token's text finds the values that start with it (longest first).
 */
import type { CellValue, RelationTable } from '../data/types.js';
import { stripValue } from './normalise.js';

export interface DomainEntry {
    /** The value as in the data. */
    value: string;
    /** Its stripped form (what is matched). */
    key: string;
    tokens: number;
    /** 0-based row where the value first occurs. */
    row: number;
}

export interface Domain {
    relation: string;
    attribute: string;
    file: string;
    lines: Int32Array;
    numeric: boolean;
    /** First token of the stripped value → entries, longest first. */
    byFirst: Map<string, DomainEntry[]>;
    /** Numeric domains: canonical number text → entry. */
    numbers: Map<string, DomainEntry>;
}

function texts(v: CellValue): string[] {
    if (v === null) return [];
    if (Array.isArray(v)) return v.flatMap(texts);
    return [String(v)];
}

export function canonicalNumber(text: string): string | undefined {
    const n = Number(text.replace(/,/g, ''));
    return Number.isFinite(n) ? String(n) : undefined;
}

export function buildDomain(table: RelationTable, attribute: string): Domain | undefined {
    const col = table.column(attribute);
    if (!col) return undefined;
    const firstRow = new Int32Array(col.values.length).fill(-1);
    for (let r = 0; r < table.rowCount; r++) {
        const c = col.codes[r]!;
        if (c >= 0 && firstRow[c] === -1) firstRow[c] = r;
    }
    const numeric = col.type.scalar === 'int' || col.type.scalar === 'real';
    const byFirst = new Map<string, DomainEntry[]>();
    const numbers = new Map<string, DomainEntry>();
    col.values.forEach((v, code) => {
        const row = Math.max(0, firstRow[code]!);
        for (const value of texts(v)) {
            if (numeric) {
                const key = canonicalNumber(value);
                if (key !== undefined && !numbers.has(key)) numbers.set(key, { value, key, tokens: 1, row });
                continue;
            }
            const key = stripValue(value);
            if (key.length < 2) continue;
            const first = key.split(' ', 1)[0]!;
            const list = byFirst.get(first) ?? [];
            if (!list.some(e => e.key === key)) list.push({ value, key, tokens: key.split(' ').length, row });
            byFirst.set(first, list);
        }
    });
    for (const list of byFirst.values()) list.sort((a, b) => b.key.length - a.key.length);
    return { relation: table.relation, attribute, file: table.file, lines: table.lines, numeric, byFirst, numbers };
}

/** Leftmost-longest occurrences of domain values in a stripped text, as [start, end, entry]. */
export function scanDomain(domain: Domain, text: string): [number, number, DomainEntry][] {
    const out: [number, number, DomainEntry][] = [];
    let p = 0;
    const n = text.length;
    while (p < n) {
        let sp = text.indexOf(' ', p);
        if (sp < 0) sp = n;
        const list = domain.byFirst.get(text.slice(p, sp));
        let next = sp + 1;
        if (list) {
            for (const e of list) {
                const end = p + e.key.length;
                if (end <= n && (end === n || text.charCodeAt(end) === 32) && text.startsWith(e.key, p)) {
                    out.push([p, end, e]);
                    next = end + 1;
                    break;
                }
            }
        }
        p = next;
    }
    return out;
}
