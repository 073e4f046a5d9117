import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTable } from '../../../src/core/data/table.js';
import { checkFd, checkFk } from '../../../src/core/data/checks.js';
import { fdDiagnostic, fkDiagnostic, shownFile } from '../../../src/core/data/diagnostics.js';
import type { FdDecl, FkDecl, SpecLocation } from '../../../src/core/spec/model.js';

const loc: SpecLocation = {
    file: '/home/u/project/spec.probe',
    range: { start: { line: 4, character: 0 }, end: { line: 4, character: 30 } },
};
const text = { scalar: 'text', list: false } as const;
const int = { scalar: 'int', list: false } as const;

test('shownFile: relative to the spec, absolute when far outside it', () => {
    assert.equal(shownFile('/home/u/project/data/movies.csv', loc), 'data/movies.csv');
    assert.equal(shownFile('/home/u/shared/movies.csv', loc), '../shared/movies.csv');
    assert.equal(shownFile('/work/shared/data/erbench/movies.csv', loc), '/work/shared/data/erbench/movies.csv');
});

test('fd-violated: several rows per value, more than three groups, composite sides', () => {
    const rows = [];
    for (let d = 0; d < 5; d++) rows.push([`D${d}`, 1950], [`D${d}`, 1951]);
    rows.push(['D0', 1950], ['D0', 1950], ['D0', 1950]);
    const table = createTable(
        'Director',
        '/home/u/project/data/d.csv',
        [
            { name: 'name', type: text },
            { name: 'born', type: int },
        ],
        rows,
    );
    const fd: FdDecl = { id: 'x', relation: 'Director', lhs: ['name'], rhs: ['born'], loc };
    const d = fdDiagnostic(fd, table, checkFd(table, fd));
    assert.equal(d.code, 'fd-violated');
    assert.deepEqual(d.range, loc.range);
    assert.match(
        d.message,
        /^Director: name -> born is violated by 5 groups: 'D0' has born 1950 \(data\/d.csv:2, 12, 13 and 1 more\) and 1951 \(data\/d.csv:3\); 'D1' has born 1950 \(data\/d.csv:4\) and 1951 \(data\/d.csv:5\); 'D2' .*; and 2 more groups\./,
    );
    assert.deepEqual(
        d.data?.rows?.slice(0, 4).map(r => r.line),
        [2, 12, 13, 3],
    );

    const movies = createTable(
        'Movie',
        '/home/u/project/m.csv',
        [
            { name: 'title', type: text },
            { name: 'year', type: int },
            { name: 'director', type: text },
            { name: 'star', type: text },
        ],
        [
            ['Up', 2009, 'Pete', 'Ed'],
            ['Up', 2009, 'Bob', 'Ed'],
            ['Up', 2009, 'Pete', 'Al'],
        ],
    );
    const composite: FdDecl = { id: 'y', relation: 'Movie', lhs: ['title', 'year'], rhs: ['director', 'star'], loc };
    assert.match(
        fdDiagnostic(composite, movies, checkFd(movies, composite)).message,
        /\('Up', 2009\) has \(director, star\) \('Pete', 'Ed'\) \(m.csv:2\), \('Bob', 'Ed'\) \(m.csv:3\) and \('Pete', 'Al'\) \(m.csv:4\)/,
    );
});

test('fk-dangling counts values and rows', () => {
    const from = createTable(
        'Movie',
        '/home/u/project/m.csv',
        [{ name: 'director', type: text }],
        [['A'], ['B'], ['B'], ['C'], ['D'], ['E']],
    );
    const to = createTable('Director', '/home/u/project/d.csv', [{ name: 'name', type: text }], [['A']]);
    const fk: FkDecl = {
        id: 'z',
        from: { relation: 'Movie', attributes: ['director'] },
        to: { relation: 'Director', attributes: ['name'] },
        loc,
    };
    const d = fkDiagnostic(fk, from, checkFk(from, to, fk));
    assert.match(
        d.message,
        /^Movie.director -> Director.name: 4 values \(in 5 rows\) have no match in Director.name: 'B' \(m.csv:3, 4\), 'C' \(m.csv:5\), 'D' \(m.csv:6\), …\. Add the missing Director rows/,
    );
});
