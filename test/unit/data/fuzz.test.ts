import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import fc from 'fast-check';
import { loadSource } from '../../../src/core/data/load.js';
import type { RelationDecl, SourceDecl } from '../../../src/core/spec/model.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'halluprobe-fuzz-'));
test.after(() => fs.rmSync(dir, { recursive: true, force: true }));
const loc = { file: path.join(dir, 'spec.probe'), range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } } };

const relation = (distinct: boolean): RelationDecl => ({
    name: 'R',
    source: 's',
    distinct,
    keys: [],
    loc,
    attributes: [
        { name: 'a', column: 'a', type: { scalar: 'int', list: false }, loc },
        { name: 'b', column: 'b', type: { scalar: 'text', list: false }, loc },
        { name: 'c', column: 'c', type: { scalar: 'real', list: true }, loc },
        { name: 'd', column: 'd', type: { scalar: 'date', list: false }, loc },
    ],
});

// Pieces that stress the reader: separators, quotes, both line ends, a BOM, a NUL, non-ASCII, numbers.
const piece = fc.constantFrom(
    ',',
    '"',
    '\n',
    '\r\n',
    '\r',
    'a',
    'b',
    'c',
    'd',
    '1',
    '2009.0',
    '2009.5',
    ' ',
    '\u0000',
    'é',
    '\uFEFF',
    '1992,',
    '2009-02-30',
    '""',
);
const header = fc.constantFrom('a,b,c,d\n', 'b,a\n', '"a","b,c",d\r\n', '', '\uFEFFa,b,c,d\n');

test('any text loads without an exception, and every reported line is a line of the file', async () => {
    let n = 0;
    await fc.assert(
        fc.asyncProperty(header, fc.array(piece, { maxLength: 60 }), fc.boolean(), async (head, pieces, distinct) => {
            const file = path.join(dir, `f${n++}.csv`);
            const text = head + pieces.join('');
            fs.writeFileSync(file, text);
            const lineCount = text.split(/\r\n|\r|\n/).length;
            const source: SourceDecl = { name: 's', format: 'csv', path: file, settings: {}, loc };
            const loaded = (await loadSource(source, [relation(distinct)])).get('R')!;
            for (const p of loaded.problems) {
                const lines = p.kind === 'format' ? p.problem.lines : p.kind === 'coercion' ? p.examples.map(e => e.line) : [];
                for (const line of lines)
                    assert.ok(line >= 1 && line <= lineCount, `line ${line} of ${lineCount}: ${JSON.stringify(text)}`);
                if (p.kind === 'coercion') assert.ok(p.count >= p.examples.length);
            }
            if (loaded.table) {
                for (const line of loaded.table.lines)
                    assert.ok(line >= 1 && line <= lineCount, `row line ${line} of ${lineCount}: ${JSON.stringify(text)}`);
                for (const column of loaded.table.columns) assert.equal(column.codes.length, loaded.table.rowCount);
            }
            fs.rmSync(file);
        }),
        { numRuns: 150 },
    );
});
