import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { createTable } from '../../../src/core/data/table.js';
import { discoverFds, discoverFdsAsync } from '../../../src/core/schema/discover.js';
import type { CellValue } from '../../../src/core/data/types.js';

const int = { scalar: 'int', list: false } as const;
const text = { scalar: 'text', list: false } as const;

function table(rows: CellValue[][], width: number) {
    return createTable(
        'R',
        '/r.csv',
        Array.from({ length: width }, (_, i) => ({ name: `c${i}`, type: int })),
        rows,
    );
}

/** Rows to delete for X → A to hold, by plain grouping (NULL equal to NULL). */
function g3(rows: CellValue[][], lhs: number[], a: number): number {
    const groups = new Map<string, Map<string, number>>();
    for (const row of rows) {
        const key = JSON.stringify(lhs.map(i => row[i] ?? null));
        const counts = groups.get(key) ?? new Map<string, number>();
        const value = JSON.stringify(row[a] ?? null);
        counts.set(value, (counts.get(value) ?? 0) + 1);
        groups.set(key, counts);
    }
    let removed = 0;
    for (const counts of groups.values()) {
        const sizes = [...counts.values()];
        removed += sizes.reduce((s, x) => s + x, 0) - Math.max(...sizes);
    }
    return removed;
}

/** Brute force: every subset X of the other columns (|X| ≤ cap) that passes, and none of whose subsets passes. */
function reference(rows: CellValue[][], width: number, cap: number, maxError: number): string[] {
    const allowed = Math.floor(maxError * rows.length + 1e-9);
    const result: string[] = [];
    for (let a = 0; a < width; a++) {
        const others = Array.from({ length: width }, (_, i) => i).filter(i => i !== a);
        const valid: number[][] = [];
        for (let mask = 0; mask < 1 << others.length; mask++) {
            const lhs = others.filter((_, i) => mask & (1 << i));
            if (lhs.length <= cap && g3(rows, lhs, a) <= allowed) valid.push(lhs);
        }
        for (const lhs of valid) {
            const minimal = !valid.some(s => s.length < lhs.length && s.every(x => lhs.includes(x)));
            if (minimal) result.push(`${lhs.map(i => `c${i}`).join(',')}->c${a}`);
        }
    }
    return result.sort();
}

const found = (r: ReturnType<typeof discoverFds>) => r.fds.map(f => `${f.lhs.join(',')}->${f.rhs}`).sort();

const randomTable = fc.integer({ min: 1, max: 10 }).chain(width =>
    fc.record({
        width: fc.constant(width),
        rows: fc.array(fc.array(fc.option(fc.integer({ min: 0, max: 3 }), { freq: 8 }), { minLength: width, maxLength: width }), {
            maxLength: 30,
        }),
        cap: fc.integer({ min: 0, max: 4 }),
        maxError: fc.constantFrom(0, 0, 0.05, 0.1, 0.2),
    }),
);

test('discoverFds returns exactly the minimal FDs of a brute-force reference (random tables up to 10 columns, NULLs included)', () => {
    fc.assert(
        fc.property(randomTable, ({ width, rows, cap, maxError }) => {
            const result = discoverFds(table(rows, width), { maxLhs: cap, maxError, budgetMs: Infinity });
            assert.equal(result.complete, true);
            assert.deepEqual(found(result), reference(rows, width, cap, maxError));
        }),
        { numRuns: 300, seed: 18 },
    );
});

/** A deterministic generator (xorshift) so that the larger tables are the same on every run. */
function random(seed: number) {
    let s = seed >>> 0 || 1;
    return (limit: number) => {
        s ^= s << 13;
        s >>>= 0;
        s ^= s >>> 17;
        s ^= s << 5;
        s >>>= 0;
        return s % limit;
    };
}

test('planted exact and approximate FDs are found on a larger table, with their error, groups and key flags', () => {
    const next = random(7);
    const rows: CellValue[][] = [];
    for (let i = 0; i < 20000; i++) {
        const city = next(500),
            shop = next(50),
            day = next(30);
        const country = `country ${city % 40}`; // city -> country (exact)
        const region = `region ${(shop * 31 + day) % 97}`; // shop, day -> region (exact, 2 attributes)
        let price = (shop * 7) % 13; // shop -> price, 2 % noise
        if (next(100) < 2) price = 100 + next(5);
        rows.push([i, city, country, shop, day, region, price, next(1000)]);
    }
    const t = createTable(
        'Sale',
        '/sales.csv',
        [
            { name: 'id', type: int },
            { name: 'city', type: int },
            { name: 'country', type: text },
            { name: 'shop', type: int },
            { name: 'day', type: int },
            { name: 'region', type: text },
            { name: 'price', type: int },
            { name: 'noise', type: int },
        ],
        rows,
    );
    const exact = discoverFds(t, { maxLhs: 2 });
    const has = (r: ReturnType<typeof discoverFds>, s: string) => r.fds.find(f => `${f.lhs.join(',')}->${f.rhs}` === s);
    assert.ok(has(exact, 'city->country')?.exact);
    assert.ok(has(exact, 'shop,day->region')?.exact);
    assert.equal(has(exact, 'shop->price'), undefined, 'noisy dependency is not exact');
    assert.ok(!exact.fds.some(f => f.rhs === 'noise' && !f.keyLike), 'random noise is determined by no non-key left-hand side');
    const idFd = has(exact, 'id->city');
    assert.ok(idFd?.keyLike, 'id is a key: flagged');
    assert.equal(idFd.coveredRows, 0);
    // Ranked by covered rows: the key-like ones come last.
    assert.ok(exact.fds.findIndex(f => f.keyLike) > exact.fds.findIndex(f => f.rhs === 'country'));

    const approximate = discoverFds(t, { maxLhs: 2, maxError: 0.03 });
    const price = has(approximate, 'shop->price');
    assert.ok(price && !price.exact, 'shop -> price found as approximate');
    assert.ok(price.error > 0.01 && price.error < 0.03, `g3 ${price.error}`);
    assert.equal(price.groups, 50);
    assert.equal(price.coveredRows, 20000);
});

test('a zero time budget stops early and says so', () => {
    const rows = Array.from({ length: 2000 }, (_, i) => [i % 7, i % 11, i % 13, i % 17, i % 19]);
    const result = discoverFds(table(rows, 5), { budgetMs: -1 });
    assert.equal(result.complete, false);
});

test("discoverFdsAsync (the editor's sliced search) finds what discoverFds finds, and stops when aborted", async () => {
    await fc.assert(
        fc.asyncProperty(randomTable, async ({ rows, width, cap, maxError }) => {
            const t = table(rows, width);
            const [sync, sliced] = [
                discoverFds(t, { maxLhs: cap, maxError }),
                await discoverFdsAsync(t, { maxLhs: cap, maxError }),
            ];
            assert.deepEqual(sliced.fds, sync.fds);
            assert.equal(sliced.complete, true);
        }),
        { numRuns: 100 },
    );
    const wide = table(
        Array.from({ length: 3000 }, (_, r) => Array.from({ length: 8 }, (_, c) => (r * (c + 3) * 2654435761) % (5 + c * 40))),
        8,
    );
    const controller = new AbortController();
    controller.abort(new Error('the request was cancelled'));
    await assert.rejects(discoverFdsAsync(wide, {}, controller.signal), /the request was cancelled/);
});
