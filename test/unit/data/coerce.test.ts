import { test } from 'node:test';
import assert from 'node:assert/strict';
import { coerceScalar, coerceSqlite, coerceText, showValue } from '../../../src/core/data/coerce.js';
import fc from 'fast-check';
import { plainNumber } from '../../../src/core/data/load.js';
import type { AttrType, ScalarType } from '../../../src/core/spec/model.js';

const t = (scalar: ScalarType, list = false): AttrType => ({ scalar, list });
const ok = (raw: string, type: AttrType, value: unknown, separator?: string) =>
    assert.deepEqual(
        coerceText(raw, type, separator),
        { ok: true, value },
        `${JSON.stringify(raw)} as ${type.list ? 'list<' + type.scalar + '>' : type.scalar}`,
    );
const fails = (raw: string, type: AttrType, reason: RegExp) => {
    const c = coerceText(raw, type);
    assert.equal(c.ok, false, `${JSON.stringify(raw)} should not coerce`);
    if (!c.ok) assert.match(c.reason, reason);
};

test('int takes published float spellings of whole numbers', () => {
    ok('2009.0', t('int'), 2009);
    ok('10.0', t('int'), 10);
    ok(' 1954 ', t('int'), 1954);
    ok('-3', t('int'), -3);
    ok('+7', t('int'), 7);
    ok('1e3', t('int'), 1000);
    ok('-0.0', t('int'), 0);
    fails('2009.5', t('int'), /whole number/);
    fails('abc', t('int'), /not a number/);
    fails('12abc', t('int'), /not a number/);
    fails('0x10', t('int'), /not a number/);
    fails('99999999999999999999', t('int'), /too large/);
});

test('real, with NaN as the missing value pandas writes', () => {
    ok('-34.7833328247', t('real'), -34.7833328247);
    ok('.5', t('real'), 0.5);
    ok('10', t('real'), 10);
    ok('NaN', t('real'), null);
    ok('nan', t('int'), null);
    fails('1,5', t('real'), /not a number/);
    fails('1e999', t('real'), /out of range/);
});

test('empty and blank cells are null for every type', () => {
    for (const s of ['text', 'int', 'real', 'bool', 'date'] as const) {
        ok('', t(s), null);
        ok('   ', t(s), null);
        ok('', t(s, true), null);
    }
});

test('text is trimmed and kept as written otherwise', () => {
    ok('  James Cameron ', t('text'), 'James Cameron');
    ok('2009.0', t('text'), '2009.0');
});

test('bool from true/false, yes/no, 1/0 in any case', () => {
    for (const s of ['true', 'TRUE', 'yes', 'Y', '1', '1.0', 't']) ok(s, t('bool'), true);
    for (const s of ['false', 'No', 'n', '0', '0.0', 'F']) ok(s, t('bool'), false);
    fails('maybe', t('bool'), /true\/false/);
    fails('2', t('bool'), /true\/false/);
});

test('date is kept as written when it has a common shape and is a real date', () => {
    for (const s of [
        '2009-12-18',
        '2009/12/18',
        '2009-12-18T10:30:00Z',
        '2009-12-18 10:30',
        '18/12/2009',
        '12/18/2009',
        '18.12.2009',
        '2009-12',
        '2009',
        'January, 2009',
        'Jan 2009',
        'Sept. 2009',
        'December 18, 2009',
        '18 December 2009',
        '1st March 2020',
    ]) {
        ok(s, t('date'), s);
    }
    fails('2009-13-01', t('date'), /calendar/);
    fails('2009-02-30', t('date'), /calendar/);
    fails('31/31/2009', t('date'), /calendar/);
    fails('yesterday', t('date'), /not a date/);
    fails('Smarch 2009', t('date'), /not a date/);
    ok('2012-02-29', t('date'), '2012-02-29');
    fails('2011-02-29', t('date'), /calendar/);
});

test('lists split on the separator and ignore a trailing one', () => {
    ok('1992,1996,', t('int', true), [1992, 1996]);
    ok('1928,', t('int', true), [1928]);
    ok(' 1992 , 1996 ', t('int', true), [1992, 1996]);
    ok('2009.0,2010.0', t('int', true), [2009, 2010]);
    ok(',', t('int', true), null);
    ok('a;b;', t('text', true), ['a', 'b'], ';');
    ok('a,b', t('text', true), ['a,b'], ';');
    fails('1992,abc,', t('int', true), /item 'abc' is not a number/);
});

test('SQLite values are already typed; the same rules apply to them', () => {
    assert.deepEqual(coerceSqlite(2009, t('int')), { ok: true, value: 2009 });
    assert.deepEqual(coerceSqlite(2009.0, t('int')), { ok: true, value: 2009 });
    assert.equal(coerceSqlite(2009.5, t('int')).ok, false);
    assert.deepEqual(coerceSqlite('2009.0', t('int')), { ok: true, value: 2009 });
    assert.deepEqual(coerceSqlite(12345678901n, t('int')), { ok: true, value: 12345678901 });
    assert.deepEqual(coerceSqlite(null, t('text')), { ok: true, value: null });
    assert.deepEqual(coerceSqlite(1, t('bool')), { ok: true, value: true });
    assert.deepEqual(coerceSqlite(1954, t('text')), { ok: true, value: '1954' });
    assert.deepEqual(coerceSqlite(1.5, t('real')), { ok: true, value: 1.5 });
    assert.deepEqual(coerceSqlite('1992,1996,', t('int', true)), { ok: true, value: [1992, 1996] });
    assert.deepEqual(coerceSqlite(Buffer.from([1, 2]), t('text')), { ok: false, reason: 'binary data (a blob)' });
});

test('coerceScalar and showValue', () => {
    assert.deepEqual(coerceScalar('x', 'text'), { ok: true, value: 'x' });
    assert.equal(showValue('Avatar'), "'Avatar'");
    assert.equal(showValue([1992, 1996]), '[1992, 1996]');
    assert.equal(showValue(null), 'null');
    assert.equal(showValue(true), 'true');
});

test("plainNumber, the loader's shortcut for plain decimals, gives exactly what coerceText gives, or declines", () => {
    const cell = fc.string({
        unit: fc.constantFrom('0', '1', '7', '9', '-', '.', '+', 'e', ' ', ',', 'x', 'N', 'a'),
        maxLength: 18,
    });
    fc.assert(
        fc.property(cell, fc.boolean(), (raw, integer) => {
            const shortcut = plainNumber(raw, integer);
            if (shortcut === undefined) return;
            const full = coerceText(raw, { scalar: integer ? 'int' : 'real', list: false });
            assert.deepEqual(full, { ok: true, value: shortcut }, `'${raw}'`);
            assert.ok(!Object.is(shortcut, -0));
        }),
        { numRuns: 5000 },
    );
    assert.equal(plainNumber('1954', true), 1954);
    assert.equal(plainNumber('-0.50', false), -0.5);
    for (const declined of ['', '-', '.', '1e3', ' 12', '1,000', '2009.0', '0x10', '1234567890123456'])
        assert.equal(plainNumber(declined, declined !== '.'), undefined, declined);
});
