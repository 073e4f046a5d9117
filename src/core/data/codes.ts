/**
 * The hash dictionaries behind ColumnBuilder: value → dense code over typed arrays, several times faster than a
 * Map per column when a column has a million distinct values. NumberCodes for numbers, TextCodes for texts known
 * by their UTF-8 bytes.
 */

/**
 * Dense codes for numbers: an open-addressing hash table over a Float64Array, several times faster than a Map
 * with number keys when a column has a million distinct numbers. Equality is SameValueZero, as in a Map
 * (0 and -0 are one key, NaN is one key).
 */
export class NumberCodes {
    private keys: Float64Array;
    private codes: Int32Array;
    private mask: number;
    private size = 0;
    private readonly scratch = new Float64Array(1);
    private readonly halves = new Int32Array(this.scratch.buffer);

    /** Rows expected in all: a table that passes 2^16 numbers grows straight to that size (see roomFor). */
    expectedRows = 0;

    constructor(expected = 1024) {
        let capacity = 16;
        while (capacity < expected * 2) capacity *= 2;
        this.keys = new Float64Array(capacity);
        this.codes = new Int32Array(capacity).fill(-1);
        this.mask = capacity - 1;
    }

    private hash(v: number): number {
        let h: number;
        if ((v | 0) === v) h = Math.imul(v | 0, 0x9e3779b1);
        else {
            this.scratch[0] = v !== v ? NaN : v;
            h = Math.imul(this.halves[0]! ^ Math.imul(this.halves[1]!, 0x85ebca6b), 0x9e3779b1);
        }
        return (h ^ (h >>> 15)) & this.mask;
    }

    private slot(v: number): number {
        const { keys, codes, mask } = this;
        let i = this.hash(v);
        while (codes[i] !== -1 && keys[i] !== v && !(v !== v && keys[i] !== keys[i])) i = (i + 1) & mask;
        return i;
    }

    /**
     * Small non-negative integers (ids, years, counts) are looked up by index in `direct` instead of hashed: as
     * long as every number seen is one and the largest stays within a few times the distinct count (so the array
     * stays small), lookups of increasing ids touch memory in order. The first other number moves every code into
     * the hash table for good. It holds code + 1 (0: none), so a new array needs no filling: a page of it costs
     * nothing until a number falls in it.
     */
    private direct: Int32Array | undefined = new Int32Array(1024);

    /** The number's code, or `next` (which the caller then owns) when it is new. */
    codeOr(v: number, next: number): number {
        const direct = this.direct;
        if (direct) {
            if (v >= 0 && v < direct.length && (v | 0) === v) {
                const code = direct[v]! - 1;
                if (code !== -1) return code;
                direct[v] = next + 1;
                this.size++;
                return next;
            }
            if ((v | 0) === v && v >= 0 && v < 4 * (this.size + 1) + 65536) {
                this.widen(v);
                return this.codeOr(v, next);
            }
            this.leaveDirect();
        }
        let i = this.slot(v);
        if (this.codes[i] !== -1) return this.codes[i]!;
        if ((this.size + 1) * 2 > this.keys.length) {
            this.grow();
            i = this.slot(v);
        }
        this.keys[i] = v;
        this.codes[i] = next;
        this.size++;
        return next;
    }

    /** The number's code, or -1 when it has none. */
    lookup(v: number): number {
        const direct = this.direct;
        if (direct) return v >= 0 && v < direct.length && (v | 0) === v ? direct[v]! - 1 : -1;
        return this.codes[this.slot(v)]!;
    }

    /** Writes each number into `values` at its code, where that slot is still empty. */
    writeValues(values: unknown[]): void {
        const direct = this.direct;
        if (direct) {
            for (let v = 0; v < direct.length; v++) {
                const code = direct[v]! - 1;
                if (code !== -1 && values[code] === undefined) values[code] = v;
            }
            return;
        }
        const { keys, codes } = this;
        for (let i = 0; i < codes.length; i++) {
            const code = codes[i]!;
            if (code !== -1 && values[code] === undefined) values[code] = keys[i]!;
        }
    }

    /** A direct array long enough for `v` (past 2^16, for every row expected: ids 1…n grow it once, not ten times). */
    private widen(v: number): void {
        let length = this.direct!.length;
        while (length <= v) length *= 2;
        if (length > 1 << 16 && this.expectedRows >= length) length = this.expectedRows + 1;
        const wider = new Int32Array(length);
        wider.set(this.direct!);
        this.direct = wider;
    }

    /** Moves the directly indexed codes into the hash table. */
    private leaveDirect(): void {
        const direct = this.direct!;
        this.direct = undefined;
        const count = this.size;
        let capacity = this.keys.length;
        while (capacity < (count + 1) * 2) capacity *= 2;
        this.keys = new Float64Array(capacity);
        this.codes = new Int32Array(capacity).fill(-1);
        this.mask = capacity - 1;
        for (let v = 0; v < direct.length; v++) {
            if (direct[v] === 0) continue;
            const i = this.slot(v);
            this.keys[i] = v;
            this.codes[i] = direct[v]! - 1;
        }
    }

    private grow(): void {
        const { keys, codes } = this;
        const capacity = roomFor(keys.length * 2, this.size, this.expectedRows);
        this.keys = new Float64Array(capacity);
        this.codes = new Int32Array(capacity).fill(-1);
        this.mask = this.keys.length - 1;
        for (let j = 0; j < keys.length; j++)
            if (codes[j] !== -1) {
                const i = this.slot(keys[j]!);
                this.keys[i] = keys[j]!;
                this.codes[i] = codes[j]!;
            }
    }
}

const UTF8 = new TextEncoder();

/**
 * The next capacity of a hash table (a power of two, kept at most half full): double, or — once it holds 2^16
 * values and the reader expects many more rows — room for all of them at once, which spares a dozen rehashes
 * of a column whose values are mostly distinct (ids, names).
 */
function roomFor(doubled: number, size: number, expectedRows: number): number {
    let capacity = doubled;
    if (size >= 1 << 16 && expectedRows > size * 2) while (capacity < expectedRows * 2) capacity *= 2;
    return capacity;
}

/** Whether bytes are all ASCII (then Latin-1 decoding, which is cheaper, gives the same text as UTF-8). */
function isAscii(buf: Uint8Array, start: number, end: number): boolean {
    for (let i = start; i < end; i++) if (buf[i]! >= 0x80) return false;
    return true;
}

/**
 * Dense codes for texts known by their UTF-8 bytes (as a binary reader has them): the bytes are hashed where
 * they lie and a JS string is made only for a text not seen before. A slot is two int32s (hash, code); the
 * bytes of each distinct text sit in an arena, found through `offsets[code]` only when a hash matches.
 */
export class TextCodes {
    private slots: Int32Array;
    private mask: number;
    private size = 0;
    private offsets = new Int32Array(1024);
    private lengths = new Int32Array(1024);
    private arena = Buffer.allocUnsafe(1 << 16);
    private used = 0;
    private readonly encoded = Buffer.allocUnsafe(4096);

    /** Rows expected in all: a table that passes 2^16 texts grows straight to that size (see roomFor). */
    expectedRows = 0;

    constructor(expected = 1024) {
        let capacity = 16;
        while (capacity < expected * 2) capacity *= 2;
        this.slots = new Int32Array(capacity * 2).fill(-1);
        this.mask = capacity - 1;
    }

    /** The code of the text in `buf[start, end)`, or `next` (which the caller then owns) when it is new. */
    codeOr(buf: Uint8Array, start: number, end: number, next: number): number {
        const length = end - start;
        let hash = 0x811c9dc5 ^ length;
        for (let k = start; k < end; k++) hash = Math.imul(hash ^ buf[k]!, 0x01000193);
        hash = (hash ^ (hash >>> 16)) & 0x7fffffff;
        let slots = this.slots,
            mask = this.mask,
            i = hash & mask;
        for (;;) {
            const code = slots[i * 2 + 1]!;
            if (code === -1) break;
            if (slots[i * 2] === hash && this.lengths[code] === length) {
                const arena = this.arena,
                    offset = this.offsets[code]!;
                let k = 0;
                while (k < length && arena[offset + k] === buf[start + k]) k++;
                if (k === length) return code;
            }
            i = (i + 1) & mask;
        }
        // Rare branches live in their own methods: the optimised loop never meets code it has not run yet.
        if ((this.size + 1) * 2 > mask + 1) i = this.growFor(hash);
        slots = this.slots;
        slots[i * 2] = hash;
        slots[i * 2 + 1] = next;
        this.keep(buf, start, end, next);
        this.size++;
        return next;
    }

    /** Grows the table; the free slot for `hash` in the new one. */
    private growFor(hash: number): number {
        this.grow();
        const slots = this.slots,
            mask = this.mask;
        let i = hash & mask;
        while (slots[i * 2 + 1] !== -1) i = (i + 1) & mask;
        return i;
    }

    /** Copies a new text's bytes into the arena. */
    private keep(buf: Uint8Array, start: number, end: number, code: number): void {
        const length = end - start;
        if (code >= this.offsets.length || this.used + length > this.arena.length) this.makeRoom(code, length);
        const arena = this.arena;
        // Short texts are copied by hand: a subarray per text costs an object.
        if (length > 64) arena.set(buf.subarray(start, end), this.used);
        else for (let k = start, j = this.used; k < end; k++, j++) arena[j] = buf[k]!;
        this.offsets[code] = this.used;
        this.lengths[code] = length;
        this.used += length;
    }

    /**
     * Room for one more text of `length` bytes under `code`. Doubling, or — past 2^16 texts when many more rows are
     * expected — room for them all at once (by the bytes per text so far, and a quarter more): each growth copies
     * what was kept into fresh memory, which costs far more than the copying itself where a page's first touch is
     * dear.
     */
    private makeRoom(code: number, length: number): void {
        const many = code >= 1 << 16 && this.expectedRows > code * 2;
        if (code >= this.offsets.length) {
            const room = many ? this.expectedRows : this.offsets.length * 2;
            const offsets = new Int32Array(room),
                lengths = new Int32Array(room);
            offsets.set(this.offsets);
            lengths.set(this.lengths);
            this.offsets = offsets;
            this.lengths = lengths;
        }
        if (this.used + length > this.arena.length) {
            const expected = many ? Math.ceil((this.used / code) * this.expectedRows * 1.25) : 0;
            const grown = Buffer.allocUnsafe(
                Math.max(this.arena.length * 2, this.used + length, Math.min(expected, 2 ** 31 - 1)),
            );
            this.arena.copy(grown, 0, 0, this.used);
            this.arena = grown;
        }
    }

    /** The text of a code given to bytes (as a JS string). */
    text(code: number): string {
        const start = this.offsets[code]!,
            end = start + this.lengths[code]!;
        return isAscii(this.arena, start, end)
            ? this.arena.toString('latin1', start, end)
            : this.arena.toString('utf8', start, end);
    }

    /** Drops the hash table once no more texts come (the texts themselves stay, for `text`). */
    seal(): void {
        this.slots = new Int32Array(0);
    }

    /** The code of a JS string, through its UTF-8 bytes. */
    codeOfString(text: string, next: number): number {
        if (text.length * 3 <= this.encoded.length) {
            const { written } = UTF8.encodeInto(text, this.encoded);
            return this.codeOr(this.encoded, 0, written, next);
        }
        const bytes = Buffer.from(text, 'utf8');
        return this.codeOr(bytes, 0, bytes.length, next);
    }

    private grow(): void {
        const old = this.slots;
        const slots = (this.slots = new Int32Array(roomFor(old.length, this.size, this.expectedRows) * 2).fill(-1));
        const mask = (this.mask = slots.length / 2 - 1);
        for (let j = 0; j < old.length; j += 2) {
            if (old[j + 1] === -1) continue;
            let i = old[j]! & mask;
            while (slots[i * 2 + 1] !== -1) i = (i + 1) & mask;
            slots[i * 2] = old[j]!;
            slots[i * 2 + 1] = old[j + 1]!;
        }
    }
}
