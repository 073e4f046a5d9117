import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTable } from '../../../src/core/data/table.js';

const text = { scalar: 'text', list: false } as const;
const int = { scalar: 'int', list: false } as const;
const intList = { scalar: 'int', list: true } as const;

test('createTable dictionary-encodes equal values once and nulls as -1', () => {
    const table = createTable('Director', '/d.csv', [{ name: 'name', type: text }, { name: 'birth_year', type: int }],
        [['James Cameron', 1954], ['Sam Mendes', 1965], ['James Cameron', 1954], ['Nobody', null]]);
    assert.equal(table.rowCount, 4);
    const name = table.column('name')!;
    assert.deepEqual(name.values, ['James Cameron', 'Sam Mendes', 'Nobody']);
    assert.deepEqual([...name.codes], [0, 1, 0, 2]);
    assert.deepEqual([...table.column('birth_year')!.codes], [0, 1, 0, -1]);
    assert.equal(table.value(3, 'birth_year'), null);
    assert.equal(table.value(1, 'name'), 'Sam Mendes');
    assert.deepEqual([...table.lines], [2, 3, 4, 5]);
});

test('createTable shares codes between equal lists and keeps given lines', () => {
    const table = createTable('City', '/c.csv', [{ name: 'years', type: intList }], [[[1992, 1996]], [[1992, 1996]], [[2000]]], [7, 9, 12]);
    assert.deepEqual([...table.column('years')!.codes], [0, 0, 1]);
    assert.deepEqual(table.value(2, 'years'), [2000]);
    assert.deepEqual([...table.lines], [7, 9, 12]);
    assert.equal(table.value(0, 'nope'), null);
});

test('createTable keeps a string and a number that print alike apart', () => {
    const table = createTable('T', '/t.csv', [{ name: 'v', type: text }], [['1'], [1 as unknown as string]]);
    assert.deepEqual([...table.column('v')!.codes], [0, 1]);
});
