/**
 * The linker's alphabet (link.ts): every token the spec's names use, each with a code of `width` ASCII
 * characters — the first from the "lead" range, the rest from the "trail" range — so a pattern of codes can only
 * match where a token starts and end where one ends. Tokens are looked up by their FNV-1a hash: a bit filter
 * (256 KiB, cache-warm) passes over most tokens no name uses, an open-addressed table (ids) with the token
 * characters in one pool confirms the rest. With 100k names the vocabulary is large and cold in the cache; a
 * `Map<string, …>` look-up per answer word cost more than the automaton's scan.
 */

/** Tokens of a folded text as [start, end, hash] triples, flattened: runs of letters and digits, and every other non-space character. */
export function tokens(t: string, out: number[]): number[] {
    out.length = 0;
    const n = t.length;
    for (let i = 0; i < n;) {
        const c = t.charCodeAt(i);
        if (c === 32) {
            i++;
            continue;
        }
        let h = Math.imul(0x811c9dc5 ^ c, 0x01000193);
        let j = i + 1;
        if (isAlnum(c)) {
            for (let d = t.charCodeAt(j); j < n && isAlnum(d); d = t.charCodeAt(++j)) h = Math.imul(h ^ d, 0x01000193);
        }
        out.push(i, j, h >>> 0);
        i = j;
    }
    return out;
}

function isAlnum(c: number): boolean {
    return (c >= 48 && c <= 57) || (c >= 97 && c <= 122);
}

const LEADS: number[] = [];
for (let c = 2; c < 64; c++) if (c !== 10 && c !== 13) LEADS.push(c);
const TRAIL_BASE = 64,
    TRAILS = 64;
/** A run of tokens no name uses: one character no code has, so no pattern spans it. */
export const OTHER_CODE = 1;

const FILTER_BITS = 21;
const FILTER_MASK = (1 << FILTER_BITS) - 1;

export class Vocabulary {
    readonly size: number;
    /** Characters per code. */
    readonly width: number;
    private readonly filter = new Uint32Array(1 << (FILTER_BITS - 5));
    private readonly slots: Int32Array;
    private readonly mask: number;
    private readonly pool: Uint8Array;
    private readonly offsets: Int32Array;

    /** `words`: distinct tokens (folded, so ASCII), each with its hash as `tokens` computes it. */
    constructor(words: ReadonlyMap<string, number>) {
        this.size = words.size;
        let width = 1;
        for (let room = LEADS.length; room < words.size; room *= TRAILS) width++;
        this.width = width;
        let slots = 8;
        while (slots < words.size * 4) slots *= 2;
        this.slots = new Int32Array(slots);
        this.mask = slots - 1;
        let chars = 0;
        for (const w of words.keys()) chars += w.length;
        this.pool = new Uint8Array(chars);
        this.offsets = new Int32Array(words.size + 1);
        let id = 0,
            at = 0;
        for (const [w, h] of words) {
            this.offsets[id] = at;
            for (let k = 0; k < w.length; k++) this.pool[at++] = w.charCodeAt(k);
            const f = h & FILTER_MASK;
            this.filter[f >>> 5]! |= 1 << (f & 31);
            let s = h & this.mask;
            while (this.slots[s] !== 0) s = (s + 1) & this.mask;
            this.slots[s] = ++id;
        }
        this.offsets[id] = at;
    }

    /** The id of t[a, b) (hash `h`), or -1 when no name uses it. */
    find(t: string, a: number, b: number, h: number): number {
        const f = h & FILTER_MASK;
        if ((this.filter[f >>> 5]! & (1 << (f & 31))) === 0) return -1;
        const len = b - a;
        for (let s = h & this.mask; ; s = (s + 1) & this.mask) {
            const v = this.slots[s]!;
            if (v === 0) return -1;
            const from = this.offsets[v - 1]!;
            if (this.offsets[v]! - from !== len) continue;
            let k = 0;
            while (k < len && this.pool[from + k] === t.charCodeAt(a + k)) k++;
            if (k === len) return v - 1;
        }
    }

    /** Writes the code of `id` into `out` at `at`; returns the next free position. */
    write(id: number, out: Uint8Array, at: number): number {
        out[at++] = LEADS[id % LEADS.length]!;
        for (let rest = Math.floor(id / LEADS.length), k = 1; k < this.width; k++, rest = Math.floor(rest / TRAILS))
            out[at++] = TRAIL_BASE + (rest % TRAILS);
        return at;
    }
}
