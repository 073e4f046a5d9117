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
    /** `bySecond`, looked up by a word's place in a text (built with the domain; absent: use `bySecond`). */
    second?: WordTable<DomainEntry[]>;
}

/**
 * Words → values, looked up by where a word stands in a text: no substring is cut out of the text and no string
 * is hashed by the engine (a rationale's words are new strings each time, so each Map lookup hashed a new copy).
 * Open addressing over a power-of-two table; a slot holds 1 + the entry's index.
 */
class WordTable<V> {
    private readonly keys: string[] = [];
    private readonly values: V[] = [];
    private readonly slots: Int32Array;
    private readonly mask: number;

    constructor(entries: Map<string, V>) {
        let size = 8;
        while (size < entries.size * 2) size *= 2;
        this.slots = new Int32Array(size);
        this.mask = size - 1;
        for (const [key, value] of entries) {
            let h = hashWord(key, 0, key.length) & this.mask;
            while (this.slots[h] !== 0) h = (h + 1) & this.mask;
            this.keys.push(key);
            this.values.push(value);
            this.slots[h] = this.keys.length;
        }
    }

    /** The value of the word text[start, end), if it is a key; `hash`: its `hashWord`. */
    get(hash: number, text: string, start: number, end: number): V | undefined {
        const len = end - start;
        for (let h = hash & this.mask; ; h = (h + 1) & this.mask) {
            const slot = this.slots[h]!;
            if (slot === 0) return undefined;
            const key = this.keys[slot - 1]!;
            if (key.length !== len) continue;
            let i = 0;
            while (i < len && key.charCodeAt(i) === text.charCodeAt(start + i)) i++;
            if (i === len) return this.values[slot - 1];
        }
    }
}

function hashWord(text: string, start: number, end: number): number {
    let h = 0;
    for (let i = start; i < end; i++) h = (Math.imul(h, 31) + text.charCodeAt(i)) | 0;
    h = Math.imul(h ^ (h >>> 16), 0x45d9f3b);
    return h ^ (h >>> 16);
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
    /** `byFirst`, looked up by a word's place in a text (built with the domain; absent: scans split the text). */
    first?: WordTable<FirstToken>;
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
    for (const slot of byFirst.values()) {
        for (const list of slot.bySecond.values()) list.sort((a, b) => b.key.length - a.key.length);
        if (slot.bySecond.size > 0) slot.second = new WordTable(slot.bySecond);
    }
    const first = new WordTable(byFirst);
    return { relation: table.relation, attribute, file: table.file, lines: table.lines, numeric, byFirst, first, numbers };
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

/**
 * Does a scan of `domain` over `text` look at every word of it (the domain has at least as many first words as
 * the text has words)? Then `scanDomain` needs no tokens.
 */
function scansEveryWord(domain: Domain, text: string): boolean {
    const size = domain.byFirst.size;
    if (text.length < size) return true; // fewer words than characters (+1)
    // a text of ordinary length has its words found now (the scan that follows uses them), a huge one counted
    if (text.length <= 1 << 16) return wordsOf(text).count <= size;
    let words = 1;
    for (let i = text.indexOf(' '); i >= 0 && words <= size; i = text.indexOf(' ', i + 1)) words++;
    return words <= size;
}

/**
 * Where a scan found values: value `entries[i]` at [starts[i], ends[i]) of the stripped text, for i < count. One set,
 * reused by every scan (`scanHits`): read it before the next scan.
 */
export interface Hits {
    count: number;
    starts: Int32Array;
    ends: Int32Array;
    /** (entries past `count` are left from earlier scans) */
    entries: DomainEntry[];
}

const hits: Hits = { count: 0, starts: new Int32Array(64), ends: new Int32Array(64), entries: [] };

/** Adds a hit to `hits` (growing its arrays when full). */
function addHit(start: number, end: number, entry: DomainEntry): void {
    const i = hits.count;
    if (i === hits.starts.length) {
        const starts = new Int32Array(i * 2);
        const ends = new Int32Array(i * 2);
        starts.set(hits.starts);
        ends.set(hits.ends);
        hits.starts = starts;
        hits.ends = ends;
    }
    hits.starts[i] = start;
    hits.ends[i] = end;
    hits.entries[i] = entry;
    hits.count = i + 1;
}

/**
 * `scanHits` over every word of `text`, without splitting it: each word is looked up where it stands in the domain's
 * word tables (`first`, `second`).
 */
function scanEveryWord(first: WordTable<FirstToken>, text: string): void {
    const { count, starts, ends, hashes } = wordsOf(text);
    let covered = 0;
    for (let i = 0; i < count; i++) {
        const p = starts[i]!;
        const q = ends[i]!;
        if (p < covered || q === p) continue;
        const slot = first.get(hashes[i]!, text, p, q);
        if (!slot) continue;
        const list = i + 1 < count ? slot.second?.get(hashes[i + 1]!, text, starts[i + 1]!, ends[i + 1]!) : undefined;
        const hit = valueAt(text, p, list, slot.single);
        if (hit) {
            covered = p + hit.key.length;
            addHit(p, covered, hit); // leftmost-longest: the words this value covers start no other
        }
    }
}

/**
 * The words of the text last scanned word by word (as `split(' ')` cuts them, empty ones too): where each starts
 * and ends, and its `hashWord`. A rationale is scanned against each attribute's domain; its words are found once.
 */
const words = { text: '', count: 0, starts: new Int32Array(64), ends: new Int32Array(64), hashes: new Int32Array(64) };

function wordsOf(text: string): typeof words {
    if (words.text === text) return words;
    const n = text.length;
    if (words.starts.length < n + 1) {
        const size = Math.max(n + 1, words.starts.length * 2);
        words.starts = new Int32Array(size);
        words.ends = new Int32Array(size);
        words.hashes = new Int32Array(size);
    }
    const { starts, ends, hashes } = words;
    let count = 0;
    if (n > 0) {
        for (let p = 0; ;) {
            let q = p;
            while (q < n && text.charCodeAt(q) !== 32) q++;
            starts[count] = p;
            ends[count] = q;
            hashes[count] = hashWord(text, p, q);
            count++;
            if (q >= n) break;
            p = q + 1;
        }
    }
    words.text = text;
    words.count = count;
    return words;
}

/**
 * The longest value of a first word's slot written at `p` (its two-word values `list`, longest first, then its
 * one-word value `single`), ending at a space or the text's end.
 */
function valueAt(
    text: string,
    p: number,
    list: DomainEntry[] | undefined,
    single: DomainEntry | undefined,
): DomainEntry | undefined {
    if (list)
        for (const e of list) {
            const end = p + e.key.length;
            if (end <= text.length && (end === text.length || text.charCodeAt(end) === 32) && text.startsWith(e.key, p)) return e;
        }
    return single;
}

/**
 * Leftmost-longest occurrences of domain values in a stripped text, in the shared `Hits` (valid until the next scan:
 * no array is made per scan or per hit). A scan that looks at every word of the text uses the domain's word tables and
 * needs no tokens; else it reads the text's tokens: `tokens` when given, else those `kept` (made on first need and
 * kept there for the caller's next scan of the text).
 */
export function scanHits(domain: Domain, text: string, tokens?: Tokens, kept?: { tokens?: Tokens }): Hits {
    hits.count = 0;
    if (!tokens) {
        if (domain.first && scansEveryWord(domain, text)) {
            scanEveryWord(domain.first, text);
            return hits;
        }
        tokens = kept ? (kept.tokens ??= tokenize(text)) : tokenize(text);
    }
    const { words, starts } = tokens;
    let covered = 0;
    for (const i of candidateTokens(domain, tokens)) {
        if (starts[i]! < covered) continue; // inside the previous value found
        const slot = domain.byFirst.get(words[i]!);
        if (!slot) continue;
        const p = starts[i]!;
        const list = i + 1 < words.length ? slot.bySecond.get(words[i + 1]!) : undefined;
        const hit = valueAt(text, p, list, slot.single);
        if (!hit) continue;
        covered = p + hit.key.length;
        addHit(p, covered, hit); // leftmost-longest: the tokens this value covers start no other
    }
    return hits;
}

/** `scanHits` as [start, end, entry] triples (a copy: kept past the next scan). */
export function scanDomain(domain: Domain, text: string, tokens?: Tokens): [number, number, DomainEntry][] {
    const found = scanHits(domain, text, tokens);
    const out: [number, number, DomainEntry][] = [];
    for (let i = 0; i < found.count; i++) out.push([found.starts[i]!, found.ends[i]!, found.entries[i]!]);
    return out;
}
