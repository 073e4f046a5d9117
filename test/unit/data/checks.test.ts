import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTable } from '../../../src/core/data/table.js';
import { checkFd, checkFk, checkKey, columnStats } from '../../../src/core/data/checks.js';
import { firstOccurrences, groupCodes } from '../../../src/core/data/group.js';
import type { CellValue } from '../../../src/core/data/types.js';

const text = { scalar: 'text', list: false } as const;
const int = { scalar: 'int', list: false } as const;

function movies(rows: CellValue[][]) {
    return createTable(
        'Movie',
        '/data/movies.csv',
        [
            { name: 'title', type: text },
            { name: 'year', type: int },
            { name: 'director', type: text },
            { name: 'birth_year', type: int },
        ],
        rows,
    );
}

test('checkFd finds groups that share the left-hand side but not the right, with their rows', () => {
    const table = movies([
        ['Avatar', 2009, 'James Cameron', 1954],
        ['Titanic', 1997, 'James Cameron', 1954],
        ['Spectre', 2015, 'Sam Mendes', 1965],
        ['Aliens', 1986, 'James Cameron', 1955],
        ['Skyfall', 2012, 'Sam Mendes', 1965],
        ['Terminator', 1984, 'James Cameron', 1955],
    ]);
    const violations = checkFd(table, { lhs: ['director'], rhs: ['birth_year'] });
    assert.deepEqual(violations, [
        {
            lhs: ['James Cameron'],
            variants: [
                { rhs: [1954], count: 2, rows: [0, 1] },
                { rhs: [1955], count: 2, rows: [3, 5] },
            ],
        },
    ]);
    assert.deepEqual(checkFd(table, { lhs: ['title', 'year'], rhs: ['director'] }), []);
});

test('checkFd compares composite sides and leaves rows with nulls out', () => {
    const table = movies([
        ['Avatar', 2009, 'James Cameron', 1954],
        ['Avatar', 2009, 'Someone', 1954],
        ['Avatar', 2010, 'Other', 1954],
        ['Avatar', null, 'Nobody', 1954],
        ['Up', 2009, null, 1954],
        ['Up', 2009, 'Pete Docter', 1968],
    ]);
    const v = checkFd(table, { lhs: ['title', 'year'], rhs: ['director', 'birth_year'] });
    assert.equal(v.length, 1);
    assert.deepEqual(v[0]!.lhs, ['Avatar', 2009]);
    assert.deepEqual(
        v[0]!.variants.map(x => x.rhs),
        [
            ['James Cameron', 1954],
            ['Someone', 1954],
        ],
    );
    assert.throws(() => checkFd(table, { lhs: ['nope'], rhs: ['year'] }), /no attribute 'nope'/);
});

test('checkFd on many rows with a sparse and a dense combined left-hand side', () => {
    const rows: CellValue[][] = [];
    for (let i = 0; i < 20_000; i++) rows.push([`t${i % 5000}`, 1900 + (i % 97), `d${i % 5000}`, 1900 + ((i % 5000) % 60)]);
    rows.push(['t1', 1901, 'd1', 1234]);
    const table = movies(rows);
    const byDirector = checkFd(table, { lhs: ['director'], rhs: ['birth_year'] });
    assert.deepEqual(
        byDirector.map(v => v.lhs),
        [['d1']],
    );
    assert.equal(byDirector[0]!.variants[1]!.rows[0], 20_000);
    const byTitleYear = checkFd(table, { lhs: ['title', 'year', 'director'], rhs: ['birth_year'] });
    assert.deepEqual(
        byTitleYear.map(v => v.lhs),
        [['t1', 1901, 'd1']],
    );
});

test('checkKey reports key values held by several rows', () => {
    const table = movies([
        ['Avatar', 2009, 'A', 1],
        ['Avatar', 2010, 'B', 2],
        ['Avatar', 2009, 'C', 3],
        ['Up', 2009, 'D', 4],
        ['Avatar', 2009, 'E', 5],
    ]);
    assert.deepEqual(checkKey(table, ['title', 'year']), [{ values: ['Avatar', 2009], count: 3, rows: [0, 2, 4], exact: false }]);
    assert.deepEqual(checkKey(table, ['director']), []);
    assert.deepEqual(checkKey(table, ['title']), [{ values: ['Avatar'], count: 4, rows: [0, 1, 2], exact: false }]);
});

test('checkKey tells rows repeated exactly from rows that disagree under one key', () => {
    const table = movies([
        ['Avatar', 2009, 'A', 1],
        ['Up', 2009, 'D', 4],
        ['Avatar', 2009, 'A', 1],
        ['Up', 2009, 'E', 4],
    ]);
    assert.deepEqual(checkKey(table, ['title', 'year']), [
        { values: ['Avatar', 2009], count: 2, rows: [0, 2], exact: true },
        { values: ['Up', 2009], count: 2, rows: [1, 3], exact: false },
    ]);
});

test('checkFk lists referencing values with no match, typed', () => {
    const movie = movies([
        ['Avatar', 2009, 'James Cameron', 0],
        ['Heat', 1995, 'Michael Mann', 0],
        ['Ali', 2001, 'Michael Mann', 0],
        ['X', 1, null, 0],
        ['Y', 2, 'Ghost', 0],
    ]);
    const director = createTable(
        'Director',
        '/data/directors.csv',
        [
            { name: 'name', type: text },
            { name: 'born', type: int },
        ],
        [
            ['James Cameron', 1954],
            ['Sofia Coppola', 1971],
        ],
    );
    assert.deepEqual(checkFk(movie, director, { from: { attributes: ['director'] }, to: { attributes: ['name'] } }), [
        { values: ['Michael Mann'], count: 2, rows: [1, 2] },
        { values: ['Ghost'], count: 1, rows: [4] },
    ]);
    const years = createTable('Years', '/y.csv', [{ name: 'year', type: text }], [['2009']]);
    assert.equal(
        checkFk(movie, years, { from: { attributes: ['year'] }, to: { attributes: ['year'] } }).length,
        5,
        'int 2009 is not text "2009"',
    );
});

test('checkFk with a composite reference', () => {
    const from = createTable(
        'Cast',
        '/c.csv',
        [
            { name: 'title', type: text },
            { name: 'year', type: int },
        ],
        [
            ['Avatar', 2009],
            ['Avatar', 2010],
            ['Up', 2009],
        ],
    );
    const to = createTable(
        'Movie',
        '/m.csv',
        [
            { name: 'title', type: text },
            { name: 'year', type: int },
        ],
        [
            ['Avatar', 2009],
            ['Up', 2009],
            ['Avatar', 2011],
        ],
    );
    assert.deepEqual(checkFk(from, to, { from: { attributes: ['title', 'year'] }, to: { attributes: ['title', 'year'] } }), [
        { values: ['Avatar', 2010], count: 1, rows: [1] },
    ]);
});

test('columnStats counts rows, nulls and distinct values, samples by frequency and gives the numeric range', () => {
    const table = movies([
        ['A', 2009, 'x', null],
        ['B', 1997, 'x', null],
        ['C', 2009, 'y', null],
        ['D', null, 'z', null],
        ['E', 2009, 'y', null],
    ]);
    assert.deepEqual(columnStats(table, 'year'), {
        attribute: 'year',
        rows: 5,
        nulls: 1,
        distinct: 2,
        samples: [2009, 1997],
        min: 1997,
        max: 2009,
    });
    assert.deepEqual(columnStats(table, 'director'), {
        attribute: 'director',
        rows: 5,
        nulls: 0,
        distinct: 3,
        samples: ['x', 'y', 'z'],
    });
    assert.deepEqual(columnStats(table, 'birth_year'), { attribute: 'birth_year', rows: 5, nulls: 5, distinct: 0, samples: [] });
});

test('groupCodes and firstOccurrences', () => {
    const a = { codes: Int32Array.from([0, 1, 0, -1, 0]), cardinality: 2 };
    const b = { codes: Int32Array.from([0, 0, 0, 1, 1]), cardinality: 2 };
    const g = groupCodes([a, b], 5);
    assert.equal(g.codes[0], g.codes[2]);
    assert.notEqual(g.codes[0], g.codes[4]);
    assert.equal(g.codes[3], -1);
    assert.deepEqual([...firstOccurrences([a, b], 5)], [0, 1, 3, 4]);
    const allNull = { codes: Int32Array.from([-1, 0]), cardinality: 1 };
    assert.deepEqual([...firstOccurrences([allNull], 2)], [1]);
});

test('checkFk takes each element of a list-valued attribute as a reference of its own', () => {
    const textList = { scalar: 'text', list: true } as const;
    const films = createTable(
        'Movie',
        '/data/movies.csv',
        [
            { name: 'title', type: text },
            { name: 'genres', type: textList },
        ],
        [
            ['Avatar', ['Drama', 'Sci-Fi']],
            ['Heat', ['Drama']],
            ['Unforgiven', ['Western', 'Drama', 'Western']],
            ['Tombstone', ['Western']],
            ['Blank', null],
        ],
    );
    const genres = createTable('Genre', '/data/genres.csv', [{ name: 'name', type: text }], [['Drama'], ['Sci-Fi']]);
    assert.deepEqual(checkFk(films, genres, { from: { attributes: ['genres'] }, to: { attributes: ['name'] } }), [
        { values: ['Western'], count: 2, rows: [2, 3] },
    ]);
    const all = createTable('Genre', '/data/genres.csv', [{ name: 'name', type: text }], [['Drama'], ['Sci-Fi'], ['Western']]);
    assert.deepEqual(checkFk(films, all, { from: { attributes: ['genres'] }, to: { attributes: ['name'] } }), []);
});
