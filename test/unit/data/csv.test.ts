import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { readCsvHeader, streamCsv } from '../../../src/core/data/csv.js';
import type { SourceDecl, Settings } from '../../../src/core/spec/model.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'halluprobe-csv-'));
test.after(() => fs.rmSync(dir, { recursive: true, force: true }));

function source(name: string, content: string | Buffer, settings: Settings = {}): SourceDecl {
    const file = path.join(dir, name);
    fs.writeFileSync(file, content);
    const loc = {
        file: path.join(dir, 'spec.probe'),
        range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } },
    };
    return { name: 'src', format: 'csv', path: file, settings, loc };
}

async function read(s: SourceDecl) {
    const rows: { fields: string[]; line: number }[] = [];
    const result = await streamCsv(s, (fields, line) => rows.push({ fields: [...fields], line }));
    return { ...result, rows };
}

test('a BOM and CRLF line ends are handled transparently', async () => {
    const r = await read(source('bom.csv', '\uFEFFname,year\r\nAvatar,2009.0\r\nTitanic,1997.0\r\n'));
    assert.deepEqual(r.header, ['name', 'year']);
    assert.deepEqual(r.rows, [
        { fields: ['Avatar', '2009.0'], line: 2 },
        { fields: ['Titanic', '1997.0'], line: 3 },
    ]);
    assert.deepEqual(r.problems, []);
});

test('quoted newlines keep the following rows on their real lines', async () => {
    const r = await read(source('multi.csv', 'name,plot\nAvatar,"blue\npeople\non Pandora"\nTitanic,ship\n"Up",\n'));
    assert.deepEqual(
        r.rows.map(x => x.line),
        [2, 5, 6],
    );
    assert.equal(r.rows[0]!.fields[1], 'blue\npeople\non Pandora');
    assert.deepEqual(r.rows[2]!.fields, ['Up', '']);
});

test('ragged rows are kept, and reported once with their lines', async () => {
    const r = await read(source('ragged.csv', 'a,b,c\n1,2,3\n4,5\n6,7,8,9\n10,11,12\n'));
    assert.equal(r.rows.length, 4);
    assert.equal(r.problems.length, 1);
    const p = r.problems[0]!;
    assert.equal(p.severity, 'error');
    assert.deepEqual(p.lines, [3, 4]);
    assert.match(p.message, /2 rows whose number of fields differs from the header's 3 \(line 3 has 2, line 4 has 4\)/);
});

test('a binary file is refused with a clear message, not a parser error', async () => {
    const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
    const r = await read(source('image.csv', bytes));
    assert.equal(r.complete, false);
    assert.deepEqual(r.rows, []);
    assert.match(r.problems[0]!.message, /is not a text file \(it contains binary data\)/);
});

test('an SQLite database given as CSV says to declare it as sqlite', async () => {
    const r = await read(source('db.csv', Buffer.concat([Buffer.from('SQLite format 3\u0000'), Buffer.alloc(100)])));
    assert.match(r.problems[0]!.message, /is an SQLite database.*declare the source as `sqlite`/);
});

test('an empty file and a header-only file', async () => {
    const empty = await read(source('empty.csv', ''));
    assert.equal(empty.complete, false);
    assert.match(empty.problems[0]!.message, /is empty: it has no header row/);
    assert.equal(empty.problems[0]!.severity, 'error');
    const headerOnly = await read(source('header.csv', 'a,b\n'));
    assert.deepEqual(headerOnly.header, ['a', 'b']);
    assert.deepEqual(headerOnly.rows, []);
    assert.equal(headerOnly.problems[0]!.severity, 'warning');
    assert.match(headerOnly.problems[0]!.message, /header row but no data rows/);
});

test('an unclosed quote names the line it opened on', async () => {
    const r = await read(source('quote.csv', 'a,b\n1,2\n3,"never closed\n4,5\n'));
    assert.equal(r.complete, false);
    assert.deepEqual(
        r.rows.map(x => x.line),
        [2],
    );
    assert.match(r.problems[0]!.message, /quote opened on line 3 that is never closed/);
    assert.deepEqual(r.problems[0]!.lines, [3]);
});

test('blank lines are skipped without shifting line numbers', async () => {
    const r = await read(source('blank.csv', 'a,b\n\n1,2\n\n\n3,4\n'));
    assert.deepEqual(
        r.rows.map(x => [x.line, x.fields[0]]),
        [
            [3, '1'],
            [6, '3'],
        ],
    );
    assert.deepEqual(r.problems, []);
});

test('delimiter, quote, header and encoding settings', async () => {
    const tab = await read(source('tab.tsv', 'a\tb\nx,y\tz\n', { delimiter: '\\t' }));
    assert.deepEqual(tab.rows[0]!.fields, ['x,y', 'z']);
    const semi = await read(source('semi.csv', "a;b\n'x;y';z\n", { delimiter: ';', quote: "'" }));
    assert.deepEqual(semi.rows[0]!.fields, ['x;y', 'z']);
    const noHeader = await read(source('nohead.csv', 'x,1\ny,2\n', { header: false }));
    assert.deepEqual(noHeader.header, ['1', '2']);
    assert.deepEqual(
        noHeader.rows.map(x => x.line),
        [1, 2],
    );
    const latin = await read(source('latin.csv', Buffer.from('name\nBeyonc\xe9\n', 'latin1'), { encoding: 'latin1' }));
    assert.equal(latin.rows[0]!.fields[0], 'Beyoncé');
    const unknown = await read(source('enc.csv', 'a\n1\n', { encoding: 'klingon' }));
    assert.match(unknown.problems[0]!.message, /unknown encoding 'klingon'/);
});

test('readCsvHeader reads only the header row', async () => {
    assert.deepEqual(await readCsvHeader(source('h.csv', ',common_entity,entity3\n0,Avatar,2009.0\n')), [
        '',
        'common_entity',
        'entity3',
    ]);
    assert.deepEqual(await readCsvHeader(source('h2.csv', 'x,y,z\n', { header: false })), ['1', '2', '3']);
    assert.deepEqual(await readCsvHeader(source('h3.csv', '')), []);
});

test('a large file streams through in chunks with exact line numbers', async () => {
    const lines = ['id,name'];
    for (let i = 0; i < 50_000; i++) lines.push(i % 1000 === 0 ? `${i},"multi\nline ${i}"` : `${i},name ${i}`);
    const r = await read(source('large.csv', lines.join('\n') + '\n'));
    assert.equal(r.rows.length, 50_000);
    // Row i starts on line 2 + i + (number of earlier multi-line rows).
    for (const i of [0, 1, 999, 1000, 1001, 49_999]) {
        assert.equal(r.rows[i]!.line, 2 + i + Math.ceil(i / 1000), `row ${i}`);
        assert.equal(r.rows[i]!.fields[0], String(i));
    }
});

test('an aborted read rejects', async () => {
    const s = source('abort.csv', 'a\n' + '1\n'.repeat(20_000));
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    await assert.rejects(
        streamCsv(s, () => undefined, controller.signal),
        /stop/,
    );
});

test('an unreadable file is a problem, not an exception', async () => {
    const s = source('locked.csv', 'a\n1\n');
    s.path = path.join(dir, 'a-directory');
    fs.mkdirSync(s.path);
    const r = await read(s);
    assert.equal(r.complete, false);
    assert.match(r.problems[0]!.message, /could not be read: EISDIR/);
});

test('CRLF line ends split across read chunks, and mixed line ends, keep exact line numbers', async () => {
    const lines = ['id,name'];
    for (let i = 0; i < 120_000; i++) lines.push(`${i},some name number ${i}`);
    const r = await read(source('crlf-large.csv', lines.join('\r\n') + '\r\n'));
    assert.equal(r.rows.length, 120_000);
    assert.deepEqual(r.problems, []);
    for (const i of [0, 50_000, 119_999]) assert.equal(r.rows[i]!.line, i + 2);
    const mixed = await read(source('mixed.csv', 'a,b\r\n1,2\n3,4\r5,6\r\n'));
    assert.deepEqual(
        mixed.rows.map(x => [x.line, ...x.fields]),
        [
            [2, '1', '2'],
            [3, '3', '4'],
            [4, '5', '6'],
        ],
    );
});

test('a CRLF whose CR ends one read chunk and LF starts the next is one line end', async () => {
    const header = 'id,name\r\n';
    const first = `0,${'x'.repeat((1 << 20) - 1 - header.length - 2)}\r\n`;
    assert.equal((header + first).indexOf('\r', header.length), (1 << 20) - 1, 'the CR is the last byte of the first chunk');
    const r = await read(source('boundary.csv', `${header}${first}1,y\r\n2,z\r\n`));
    assert.deepEqual(
        r.rows.map(x => [x.line, x.fields[0]]),
        [
            [2, '0'],
            [3, '1'],
            [4, '2'],
        ],
    );
    assert.deepEqual(r.problems, []);
});

test('bytes that are not UTF-8 give a warning that names the encoding setting', async () => {
    const latin = await read(source('latin-as-utf8.csv', Buffer.from('name\nBeyonc\xe9\n', 'latin1')));
    assert.equal(latin.rows[0]!.fields[0], 'Beyonc\uFFFD');
    assert.equal(latin.problems[0]!.severity, 'warning');
    assert.match(latin.problems[0]!.message, /not valid UTF-8.*encoding "windows-1252"/);
    const real = await read(source('real-replacement.csv', 'name\nBeyonc\uFFFD\n'));
    assert.deepEqual(real.problems, [], 'a replacement character written in the file is not an encoding problem');
    const windows = await read(
        source('cp1252.csv', Buffer.from([0x6e, 0x0a, 0x93, 0x71, 0x94, 0x0a]), { encoding: 'windows-1252' }),
    );
    assert.equal(windows.rows[0]!.fields[0], '\u201cq\u201d');
});

test('a CRLF inside a quoted field is one line, so later rows keep their real line numbers', async () => {
    const { rows } = await read(source('crlf-quoted.csv', 'a,b\r\n"x\r\ny",1\r\nz,2\r\n"p\r\nq\r\nr",3\n,4'));
    assert.deepEqual(
        rows.map(r => r.line),
        [2, 4, 5, 8],
    );
    assert.deepEqual(
        rows.map(r => r.fields[1]),
        ['1', '2', '3', '4'],
    );
});
