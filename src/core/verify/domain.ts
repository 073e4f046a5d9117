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

interface FirstToken {
    single?: DomainEntry;
    bySecond: Map<string, DomainEntry[]>;
}

export interface Domain {
    relation: string;
    attribute: string;
    file: string;
    lines: Int32Array;
    numeric: boolean;
    /**
     * First token of the stripped value → the one-token value, and the longer values by their second token,
     * longest first (a two-level index, so the 300 titles starting with "the" are not all tried at each "the").
     */
    byFirst: Map<string, FirstToken>;
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
    const firstRow = new Int32Array(col.size).fill(-1);
    for (let r = 0; r < table.rowCount; r++) {
        const c = col.codes[r]!;
        if (c >= 0 && firstRow[c] === -1) firstRow[c] = r;
    }
    const numeric = col.type.scalar === 'int' || col.type.scalar === 'real';
    const byFirst = new Map<string, FirstToken>();
    const seen = new Set<string>();
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
            if (key.length < 2 || seen.has(key)) continue;
            seen.add(key);
            const words = key.split(' ');
            let slot = byFirst.get(words[0]!);
            if (!slot) {
                slot = { bySecond: new Map() };
                byFirst.set(words[0]!, slot);
            }
            const entry = { value, key, tokens: words.length, row };
            if (words.length === 1) {
                slot.single = entry;
                continue;
            }
            const list = slot.bySecond.get(words[1]!) ?? [];
            list.push(entry);
            slot.bySecond.set(words[1]!, list);
        }
    });
    for (const slot of byFirst.values())
        for (const list of slot.bySecond.values()) list.sort((a, b) => b.key.length - a.key.length);
    return { relation: table.relation, attribute, file: table.file, lines: table.lines, numeric, byFirst, numbers };
}

/** The tokens of a stripped text (split at its single spaces) with their offsets: computed once per response. */
export interface Tokens {
    words: string[];
    starts: number[];
    /** Word → its token indexes, built on first use (scanning many small domains over one long text). */
    index?: Map<string, number[]>;
}

function wordIndex(tokens: Tokens): Map<string, number[]> {
    if (tokens.index) return tokens.index;
    const index = new Map<string, number[]>();
    tokens.words.forEach((w, i) => {
        const at = index.get(w);
        if (at) at.push(i);
        else index.set(w, [i]);
    });
    tokens.index = index;
    return index;
}

/**
 * The token indexes where a domain value may start, in order. A domain smaller than the text is looked up
 * word by word in the text's index, so checking every hop of a long path against its own attribute's values
 * costs the size of those domains, not hops × text length (which made a 2,000-hop path take half a minute).
 */
function candidateTokens(domain: Domain, tokens: Tokens): Iterable<number> {
    if (domain.byFirst.size >= tokens.words.length) return tokens.words.keys();
    const index = wordIndex(tokens);
    const at: number[] = [];
    for (const first of domain.byFirst.keys()) {
        const hits = index.get(first);
        if (hits) at.push(...hits);
    }
    return at.sort((a, b) => a - b);
}

export function tokenize(text: string): Tokens {
    const words = text.length ? text.split(' ') : [];
    const starts: number[] = new Array(words.length);
    let p = 0;
    for (let i = 0; i < words.length; i++) {
        starts[i] = p;
        p += words[i]!.length + 1;
    }
    return { words, starts };
}

/** Leftmost-longest occurrences of domain values in a stripped text, as [start, end, entry]. */
export function scanDomain(domain: Domain, text: string, tokens: Tokens = tokenize(text)): [number, number, DomainEntry][] {
    const out: [number, number, DomainEntry][] = [];
    const n = text.length;
    const { words, starts } = tokens;
    let covered = 0;
    for (const i of candidateTokens(domain, tokens)) {
        if (starts[i]! < covered) continue; // inside the previous value found
        const slot = domain.byFirst.get(words[i]!);
        if (!slot) continue;
        const p = starts[i]!;
        let hit: DomainEntry | undefined;
        const list = i + 1 < words.length ? slot.bySecond.get(words[i + 1]!) : undefined;
        if (list) {
            for (const e of list) {
                const end = p + e.key.length;
                if (end <= n && (end === n || text.charCodeAt(end) === 32) && text.startsWith(e.key, p)) {
                    hit = e;
                    break;
                }
            }
        }
        hit ??= slot.single;
        if (!hit) continue;
        const end = p + hit.key.length;
        out.push([p, end, hit]);
        covered = end; // leftmost-longest: the tokens this value covers start no other
    }
    return out;
}
