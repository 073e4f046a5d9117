/**
 * Grouping rows by several dictionary-encoded columns at once: each row gets one integer per distinct
 * combination, so FD, key and distinct work is a pass over typed arrays instead of string hashing.
 */
export interface Codes { codes: Int32Array; cardinality: number }

/** A combined code per row over `columns` (-1 when any of them is null); `cardinality` bounds the codes. */
export function groupCodes(columns: Codes[], rowCount: number): Codes {
    if (columns.length === 0) return { codes: new Int32Array(rowCount), cardinality: 1 };
    let current: Codes = columns[0]!;
    for (let c = 1; c < columns.length; c++) current = combine(current, columns[c]!, rowCount);
    return current;
}

function combine(a: Codes, b: Codes, rowCount: number): Codes {
    const out = new Int32Array(rowCount);
    const product = a.cardinality * b.cardinality;
    const ac = a.codes, bc = b.codes, width = b.cardinality;
    // A small product space is used as is (sparse codes are fine for arrays of that size); otherwise the
    // pairs seen are renumbered densely, which bounds the cardinality by the row count.
    if (product <= Math.max(4 * rowCount, 1 << 16) && product < 2 ** 31) {
        for (let r = 0; r < rowCount; r++) {
            const x = ac[r]!, y = bc[r]!;
            out[r] = x < 0 || y < 0 ? -1 : x * width + y;
        }
        return { codes: out, cardinality: product };
    }
    const dense = new Map<number, number>();
    for (let r = 0; r < rowCount; r++) {
        const x = ac[r]!, y = bc[r]!;
        if (x < 0 || y < 0) { out[r] = -1; continue; }
        const key = x * width + y;
        let code = dense.get(key);
        if (code === undefined) { code = dense.size; dense.set(key, code); }
        out[r] = code;
    }
    return { codes: out, cardinality: Math.max(1, dense.size) };
}

/**
 * The first row of each distinct combination, in row order. A null is a value of its own here, so (x, null)
 * is kept; a row that is null in every column is not an entity and is left out.
 */
export function firstOccurrences(columns: Codes[], rowCount: number): Int32Array {
    // Nulls take one extra code per column so that (x, null) rows are kept rather than dropped.
    const shifted = columns.map(c => ({ codes: c.codes.map(v => v + 1), cardinality: c.cardinality + 1 }));
    const grouped = groupCodes(shifted, rowCount);
    const seen = new Uint8Array(grouped.cardinality);
    const rows: number[] = [];
    for (let r = 0; r < rowCount; r++) {
        const g = grouped.codes[r]!;
        if (seen[g] || columns.every(c => c.codes[r]! < 0)) continue;
        seen[g] = 1;
        rows.push(r);
    }
    return Int32Array.from(rows);
}
