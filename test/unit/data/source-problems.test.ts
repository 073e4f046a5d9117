// The data readers report in the one error shape (issue 23): each problem is a `Problem` with the code of its
// source's format (csv-format, json-format, sqlite-error), its severity, message and the lines it is about; the
// data diagnostics take the code from the problem.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { streamCsv } from '../../../src/core/data/csv.js';
import { readJson } from '../../../src/core/data/json.js';
import { streamSqlite } from '../../../src/core/data/sqlite.js';
import type { SourceDecl } from '../../../src/core/spec/model.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'halluprobe-source-problems-'));
test.after(() => fs.rmSync(dir, { recursive: true, force: true }));
const loc = { file: path.join(dir, 'spec.probe'), range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } } };

function source(format: SourceDecl['format'], name: string, content: string, extra: Partial<SourceDecl> = {}): SourceDecl {
    const file = path.join(dir, name);
    fs.writeFileSync(file, content);
    return { name: 'src', format, path: file, settings: {}, loc, ...extra };
}

test('a CSV problem is a Problem with csv-format and its lines', async () => {
    const r = await streamCsv(source('csv', 'ragged.csv', 'a,b,c\n1,2,3\n4,5\n'), () => undefined);
    assert.deepEqual(
        r.problems.map(p => ({ code: p.code, severity: p.severity, lines: p.lines })),
        [{ code: 'csv-format', severity: 'error', lines: [3] }],
    );
});

test('JSON and JSONL problems carry json-format', () => {
    const json = readJson(source('json', 'not-array.json', '{"a": 1}'), ',', undefined);
    assert.deepEqual([...new Set(json.problems.map(p => p.code))], ['json-format']);
    const jsonl = readJson(source('jsonl', 'bad.jsonl', '{"a": 1}\nnot json\n'), ',', undefined);
    assert.deepEqual(
        jsonl.problems.map(p => ({ code: p.code, lines: p.lines })),
        [{ code: 'json-format', lines: [2] }],
    );
});

test('an SQLite source that cannot be opened is sqlite-error', () => {
    const r = streamSqlite(
        source('sqlite', 'not.db', 'not a database at all, just text\n'.repeat(10), { table: 't' }),
        () => undefined,
    );
    assert.deepEqual(
        r.problems.map(p => p.code),
        ['sqlite-error'],
    );
});
