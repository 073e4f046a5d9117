import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ColumnBuilder, createTable } from '../../../src/core/data/table.js';
import type { CellValue } from '../../../src/core/data/types.js';
import { NumberCodes, TextCodes } from '../../../src/core/data/codes.js';

const text = { scalar: 'text', list: false } as const;
const int = { scalar: 'int', list: false } as const;
const intList = { scalar: 'int', list: true } as const;

test('createTable dictionary-encodes equal values once and nulls as -1', () => {
    const table = createTable(
        'Director',
        '/d.csv',
        [
            { name: 'name', type: text },
            { name: 'birth_year', type: int },
        ],
        [
            ['James Cameron', 1954],
            ['Sam Mendes', 1965],
            ['James Cameron', 1954],
            ['Nobody', null],
        ],
    );
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
    const table = createTable(
        'City',
        '/c.csv',
        [{ name: 'years', type: intList }],
        [[[1992, 1996]], [[1992, 1996]], [[2000]]],
        [7, 9, 12],
    );
    assert.deepEqual([...table.column('years')!.codes], [0, 0, 1]);
    assert.deepEqual(table.value(2, 'years'), [2000]);
    assert.deepEqual([...table.lines], [7, 9, 12]);
    assert.equal(table.value(0, 'nope'), null);
});

test('createTable keeps a string and a number that print alike apart', () => {
    const table = createTable('T', '/t.csv', [{ name: 'v', type: text }], [['1'], [1 as unknown as string]]);
    assert.deepEqual([...table.column('v')!.codes], [0, 1]);
});

// The typed dictionaries behind ColumnBuilder must number values exactly as a Map does (first occurrence
// first, SameValueZero equality), whatever the values and however often the tables grow.

/** The codes `codes` gives `values` in turn, each new one numbered next. */
function numberCodes(codes: NumberCodes, values: number[]): number[] {
    let next = 0;
    return values.map(v => {
        const c = codes.codeOr(v, next);
        if (c === next) next++;
        return c;
    });
}

function mapCodes<T>(values: T[]): number[] {
    const seen = new Map<T, number>();
    return values.map(v => {
        let c = seen.get(v);
        if (c === undefined) {
            c = seen.size;
            seen.set(v, c);
        }
        return c;
    });
}

test('NumberCodes numbers like a Map (by index for small ints, hashed otherwise): 0 and -0 are one key, NaN is one key, doubles and huge ints are exact', () => {
    const number = fc.oneof(
        fc.integer({ min: -50, max: 50 }),
        fc.integer({ min: 0, max: 200_000 }),
        fc.double(),
        fc.constantFrom(0, -0, NaN, Infinity, -Infinity, 2 ** 53, 2 ** 31, -(2 ** 31), 0.1 + 0.2, 0.3),
    );
    fc.assert(
        fc.property(fc.array(number, { maxLength: 3000 }), values => {
            assert.deepEqual(numberCodes(new NumberCodes(1), values), mapCodes(values));
        }),
        { numRuns: 200 },
    );
});

test('TextCodes numbers texts by their UTF-8 bytes like a Map numbers the strings (bytes and strings mixed)', () => {
    const text = fc.oneof(
        fc.string({ maxLength: 6 }),
        fc.string({ unit: 'grapheme', maxLength: 4 }),
        fc.constantFrom('', 'é', 'e\u0301', '東京', '🙂', 'a'.repeat(200)),
    );
    fc.assert(
        fc.property(fc.array(fc.tuple(text, fc.boolean()), { maxLength: 3000 }), cells => {
            const codes = new TextCodes(1);
            let next = 0;
            const got = cells.map(([s, asBytes]) => {
                const bytes = Buffer.from(`##${s}#`); // the text sits inside a larger buffer, as in a COPY chunk
                const c = asBytes ? codes.codeOr(bytes, 2, bytes.length - 1, next) : codes.codeOfString(s, next);
                if (c === next) next++;
                return c;
            });
            assert.deepEqual(got, mapCodes(cells.map(([s]) => s)));
        }),
        { numRuns: 200 },
    );
});

test('a ColumnBuilder keyed by bytes gives the same column as one keyed by strings', () => {
    const type = { scalar: 'text', list: false } as const;
    fc.assert(
        fc.property(
            fc.array(fc.option(fc.string({ unit: 'grapheme', maxLength: 5 }), { nil: null }), { maxLength: 500 }),
            cells => {
                const bytes = new ColumnBuilder('t', type, 4, true),
                    strings = new ColumnBuilder('t', type, 4);
                for (const cell of cells) {
                    strings.push(cell);
                    if (cell === null) bytes.push(null);
                    else {
                        const b = Buffer.from(cell);
                        bytes.pushCode(bytes.textCode(b, 0, b.length));
                    }
                }
                assert.deepEqual(bytes.build(), strings.build());
            },
        ),
        { numRuns: 200 },
    );
});

test('a ColumnBuilder keyed by bytes and told to expect many rows gives the same column as one keyed by strings, past 2^16 values and with numbers (-0 and NaN too), booleans and strings among the texts', () => {
    const rows = 150_000;
    const cell = (i: number): CellValue =>
        i % 11 === 0 ? null : i % 5 === 0 ? number(i) : i % 7 === 0 ? i % 2 === 0 : `t${i % 120_000}${i % 3 === 0 ? 'é' : ''}`;
    // Whole numbers first (looked up by index), then -0, halves and NaN (hashed): both kinds come out of the dictionary.
    const number = (i: number) => (i === 80_005 ? -0 : i === 90_010 ? NaN : i > 100_000 && i % 3 === 0 ? i + 0.5 : i);
    const bytes = new ColumnBuilder('t', text, rows, true),
        strings = new ColumnBuilder('t', text, rows);
    for (let i = 0; i < rows; i++) {
        const value = cell(i);
        strings.push(value);
        if (typeof value === 'string' && i % 13 !== 0) {
            const b = Buffer.from(`#${value}#`);
            bytes.pushCode(bytes.textCode(b, 1, b.length - 1));
        } else bytes.push(value);
    }
    const got = bytes.build(),
        want = strings.build();
    assert.deepEqual([...got.codes], [...want.codes]);
    assert.equal(got.size, want.size);
    assert.ok(got.size > 1 << 16);
    const values = got.values;
    assert.equal(values.length, got.size);
    for (let code = 0; code < got.size; code++) {
        assert.ok(code in values, `value ${code} is a hole`);
        assert.equal(values[code], want.values[code]);
    }
});

test('NumberCodes told to expect many rows numbers ids past 2^16 like a Map, also after a negative number moves them to the hash table', () => {
    const values = [...Array.from({ length: 200_000 }, (_, i) => (i * 7919) % 150_001), -3, 2.5, 149_999, 0, -3];
    const codes = new NumberCodes();
    codes.expectedRows = values.length;
    assert.deepEqual(numberCodes(codes, values), mapCodes(values));
    assert.equal(codes.lookup(149_999), mapCodes(values)[values.indexOf(149_999)]);
});
