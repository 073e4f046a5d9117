// Item 5 of issue 11: a huge cell is cut (with a warning saying where), so questions and the store stay small.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import Database from 'better-sqlite3';
import { writeSpec } from '../support/runner-fixtures.js';
import { cli } from '../support/cli-process.js';

test('20 cells of 1 MB: every stored question stays small and the truncation is reported', { timeout: 120_000 }, async () => {
    const spec = writeSpec('http://127.0.0.1:9/v1');
    const csv = path.join(path.dirname(spec), 'movies.csv');
    let n = 0;
    writeFileSync(
        csv,
        readFileSync(csv, 'utf8').replace(/Actor (\d+)/g, (m, i: string) =>
            n++ < 20 ? `Actor ${i} ${'x'.repeat(1_000_000)}` : m,
        ),
    );
    const db = path.join(path.dirname(spec), 'r.db');
    const r = await cli(['run', spec, '--db', db, '--model', 'sim', '--no-verify'], { HALLUPROBE_MAX_CELL_CHARS: '2000' });
    assert.equal(r.code, 0, r.stderr.slice(0, 2000));
    const conn = new Database(db, { readonly: true });
    const { biggest, count } = conn.prepare('SELECT MAX(LENGTH(json)) AS biggest, COUNT(*) AS count FROM questions').get() as {
        biggest: number;
        count: number;
    };
    conn.close();
    assert.equal(count, 80);
    // A question mentions the cell in its text, messages, keywords and path: a few copies of 2,000 characters.
    assert.ok(biggest < 40_000, `largest stored question: ${biggest} characters`);
    const check = await cli(['check', spec], { HALLUPROBE_MAX_CELL_CHARS: '2000' });
    assert.match(
        check.stdout,
        /movie\.probe:8:\d+ warning \[cell-truncated\] 20 cells of Movie\.star are longer than 2000 characters .*movies\.csv:2/,
    );
});
