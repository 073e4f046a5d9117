import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { discoverFds } from '../../../src/core/schema/fds.js';
import { ColumnBuilder, makeTable } from '../../../src/core/data/table.js';
import type { RelationTable } from '../../../src/core/data/types.js';

const text = { scalar: 'text', list: false } as const;

function tableOf(columns: number[][]): RelationTable {
    const rows = columns[0]?.length ?? 0;
    const builders = columns.map((col, i) => {
        const b = new ColumnBuilder(`c${i}`, text, rows);
        for (const v of col) b.push(v < 0 ? '' : `v${v}`);
        return b.build();
    });
    return makeTable('T', '/t.csv', builders, Int32Array.from({ length: rows }, (_, r) => r + 2));
}

/** Every minimal, non-trivial exact FD X → A with |X| ≤ cap, by trying every subset (the reference). */
function bruteForce(columns: number[][], cap: number): Set<string> {
    const n = columns.length;
    const rows = columns[0]!.length;
    const holds = (mask: number, a: number) => {
        const seen = new Map<string, number>();
        for (let r = 0; r < rows; r++) {
            const key = columns.filter((_, i) => mask & (1 << i)).map(c => c[r]).join(',');
            const v = columns[a]![r]!;
            const prev = seen.get(key);
            if (prev !== undefined && prev !== v) return false;
            seen.set(key, v);
        }
        return true;
    };
    const bits = (m: number) => { let c = 0; for (let x = m; x; x &= x - 1) c++; return c; };
    const valid: { mask: number; a: number }[] = [];
    const masks = Array.from({ length: 1 << n }, (_, m) => m).filter(m => m > 0 && bits(m) <= cap).sort((x, y) => bits(x) - bits(y));
    for (const mask of masks) {
        for (let a = 0; a < n; a++) {
            if (mask & (1 << a)) continue;
            if (valid.some(v => v.a === a && (v.mask & mask) === v.mask)) continue;
            if (holds(mask, a)) valid.push({ mask, a });
        }
    }
    return new Set(valid.map(v => `${columns.map((_, i) => i).filter(i => v.mask & (1 << i)).map(i => `c${i}`).join(',')}->c${v.a}`));
}

describe('FD discovery', () => {
    it('finds exactly the minimal FDs of a brute-force reference on random tables of up to 10 columns', () => {
        fc.assert(fc.property(
            fc.integer({ min: 2, max: 10 }).chain(n => fc.array(fc.array(fc.integer({ min: -1, max: 3 }), { minLength: n, maxLength: n }), { minLength: 1, maxLength: 30 }).map(rows => ({ n, rows }))),
            fc.integer({ min: 1, max: 3 }),
            ({ n, rows }, cap) => {
                const columns = Array.from({ length: n }, (_, i) => rows.map(r => r[i]!));
                const found = discoverFds(tableOf(columns), { maxLhs: cap });
                assert.equal(found.complete, true);
                const got = new Set(found.fds.map(f => `${f.lhs.join(',')}->${f.rhs}`));
                assert.deepEqual([...got].sort(), [...bruteForce(columns, cap)].sort());
            }), { numRuns: 150 });
    });

    it('finds planted exact and approximate FDs on a larger table, and flags a key', () => {
        const rows = 20_000;
        const id = Array.from({ length: rows }, (_, r) => r);
        const city = id.map(r => r % 50);
        const country = city.map(c => Math.floor(c / 10));                    // city → country (exact)
        const zone = city.map((c, r) => (r % 200 === 0 ? (c + 1) % 7 : c % 7)); // city → zone, 0.5 % noise
        const noise = id.map(r => (r * 7919) % 13);
        const found = discoverFds(tableOf([id, city, country, zone, noise]), { maxLhs: 2, maxError: 0.01 });
        const fd = (lhs: string, rhs: string) => found.fds.find(f => f.lhs.join(',') === lhs && f.rhs === rhs);
        assert.equal(fd('c1', 'c2')?.error, 0);
        const approx = fd('c1', 'c3')!;
        assert.ok(approx.error > 0 && approx.error <= 0.01, `${approx.error}`);
        assert.equal(fd('c1', 'c4'), undefined, 'noise is not determined by the city');
        assert.deepEqual(found.keys[0], ['c0']);
        assert.ok(fd('c0', 'c1')!.nearKey, 'a key left-hand side is flagged');
        assert.equal(found.fds[0]!.error, 0, 'exact FDs first');
    });
});
