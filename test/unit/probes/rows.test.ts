/**
 * Which rows violate an FD and which repeat a key (probes/rows.ts), found from the rows that repeat their left-hand
 * side only (data/group.ts sharedRows, issue 39): the same rows as grouping every row by its values, and a table
 * whose left-hand side repeats nowhere keeps no array per row once answered.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as v8 from 'node:v8';
import * as vm from 'node:vm';
import { ColumnBuilder, makeTable } from '../../../src/core/data/table.js';
import type { CellValue, RelationTable } from '../../../src/core/data/types.js';
import { keyOccurrences, violatingRows } from '../../../src/core/probes/rows.js';
import { sharedRows } from '../../../src/core/data/group.js';
import { columnCodes } from '../../../src/core/data/group.js';
import { prng } from '../../../src/core/probes/sampling.js';

const text = { scalar: 'text', list: false } as const;

function build(columns: string[], rows: number, cell: (row: number, col: number) => CellValue): RelationTable {
    const builders = columns.map(c => new ColumnBuilder(c, text, rows));
    const lines = new Int32Array(rows);
    for (let r = 0; r < rows; r++) {
        for (let c = 0; c < columns.length; c++) builders[c]!.push(cell(r, c));
        lines[r] = r + 2;
    }
    return makeTable(
        'T',
        '/t.csv',
        builders.map(b => b.build()),
        lines,
    );
}

/** The reference: every row grouped by its values' text (a null left-hand side forms no group). */
function reference(t: RelationTable, lhs: string[], rhs: string[]) {
    const groups = new Map<string, number[]>();
    for (let r = 0; r < t.rowCount; r++) {
        const left = lhs.map(a => t.value(r, a));
        if (left.some(v => v === null)) continue;
        const k = JSON.stringify(left);
        groups.set(k, [...(groups.get(k) ?? []), r]);
    }
    const violating = new Set<number>();
    const occurrence = new Map<number, number>();
    for (const rows of groups.values()) {
        const rights = new Set(rows.map(r => JSON.stringify(rhs.map(a => t.value(r, a)))));
        if (rights.size > 1) for (const r of rows) violating.add(r);
        if (rows.length > 1) rows.forEach((r, i) => occurrence.set(r, i));
    }
    return { violating, occurrence };
}

test('violating rows and key repeats are those of grouping every row by its values (nulls included)', () => {
    for (let seed = 1; seed <= 40; seed++) {
        const random = prng(seed);
        const sizes = [2 + Math.floor(random() * 30), 1 + Math.floor(random() * 5), 1 + Math.floor(random() * 4)];
        const rows = 1 + Math.floor(random() * 60);
        const t = build(['a', 'b', 'c', 'd'], rows, (_, c) => {
            if (random() < 0.08) return null;
            return `v${Math.floor(random() * (sizes[c] ?? 3))}`;
        });
        for (const [lhs, rhs] of [
            [['a'], ['b', 'c']],
            [
                ['a', 'b'],
                ['c', 'd'],
            ],
            [['c', 'b', 'a'], ['d']],
        ] as const) {
            const want = reference(t, [...lhs], [...rhs]);
            const flags = violatingRows(t, [...lhs], [...rhs]);
            const got = new Set<number>();
            for (let r = 0; r < rows; r++) if (flags?.[r]) got.add(r);
            assert.deepEqual(got, want.violating, `seed ${seed}, ${lhs} -> ${rhs}`);
            assert.equal(flags === null, want.violating.size === 0);
            const occ = keyOccurrences(t, [...lhs]);
            assert.equal(occ === null, want.occurrence.size === 0, `seed ${seed}, key ${lhs}`);
            for (let r = 0; r < rows; r++) assert.equal(occ?.[r] ?? 0, want.occurrence.get(r) ?? 0, `seed ${seed}, row ${r}`);
        }
    }
});

test('sharedRows groups exactly the rows whose whole combination repeats', () => {
    // a and b each repeat, but their pair repeats only for rows 0 and 3.
    const t = build(
        ['a', 'b'],
        5,
        (r, c) =>
            [
                ['x', 'p'],
                ['x', 'q'],
                ['y', 'p'],
                ['x', 'p'],
                ['z', 'r'],
            ][r]![c]!,
    );
    const s = sharedRows(
        ['a', 'b'].map(a => columnCodes(t.column(a)!)),
        t.rowCount,
    );
    assert.deepEqual([...s.rows], [0, 3]);
    assert.deepEqual([...s.groups], [0, 0]);
    assert.equal(s.cardinality, 1);
});

test('a table whose key repeats nowhere keeps no array per row after its FD and key rows are asked', () => {
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as () => void;
    const rows = 200_000;
    const t = build(
        ['title', 'year', 'director'],
        rows,
        (r, c) => [`Movie ${r}`, `${1950 + (r % 70)}`, `Director ${r % 1000}`][c]!,
    );
    gc();
    const before = process.memoryUsage().arrayBuffers;
    assert.equal(violatingRows(t, ['title', 'year'], ['director']), null);
    assert.equal(keyOccurrences(t, ['title', 'year']), null);
    gc();
    const kept = process.memoryUsage().arrayBuffers - before;
    // A group code per row would be 4 bytes a row (800 kB here), kept as long as the columns.
    assert.ok(kept < rows, `${kept} bytes kept for ${rows} rows`);
});

test('relations sharing their columns group the rows once: the FD and key rows of the second are those of the first', () => {
    // Two relations over one source share its columns' arrays (data/load.ts), as the editor bench's 87 do (issue 39).
    const t = build(['title', 'director'], 6, (r, c) => [`Movie ${r % 3}`, `Director ${r % 2}`][c]!);
    const other = makeTable(
        'U',
        '/t.csv',
        ['title', 'director'].map(a => t.column(a)!),
        new Int32Array(6).map((_, r) => r + 2),
    );
    const flags = violatingRows(t, ['title'], ['director']);
    assert.ok(flags);
    assert.equal(violatingRows(other, ['title'], ['director']), flags);
    const occ = keyOccurrences(t, ['title']);
    assert.ok(occ);
    assert.equal(keyOccurrences(other, ['title']), occ);
    // Other columns, or the same columns split otherwise into left and right, are their own entries.
    assert.notEqual(violatingRows(other, ['director'], ['title']), flags);
    assert.equal(violatingRows(other, ['title', 'director'], []), null);
});
