// Item 4 of issue 11: a runaway SQLite source query is stopped after a time budget with a located error.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import Database from 'better-sqlite3';
import { tempDir } from '../support/runner-fixtures.js';
import { cli } from '../support/cli-process.js';

function specWithQuery(query: string): string {
    const dir = tempDir('hp-sqlite-');
    const db = new Database(path.join(dir, 'films.db'));
    db.exec("CREATE TABLE movie (title TEXT, year INT); INSERT INTO movie VALUES ('Alien', 1979), ('Heat', 1995);");
    db.close();
    const spec = path.join(dir, 'films.probe');
    writeFileSync(
        spec,
        `source films sqlite "films.db" query "${query}"

relation Movie from films {
    title: text = "title"
    year: int = "year"
    key (title)
}
`,
    );
    return spec;
}

test(
    'a recursive CTE that never ends: check reports "query did not finish" at the source and exits',
    { timeout: 60_000 },
    async () => {
        const spec = specWithQuery(
            'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) AS title, 1 AS year FROM c',
        );
        const r = await cli(['check', spec], { HALLUPROBE_QUERY_TIMEOUT_MS: '1500' });
        assert.equal(r.code, 1, r.stdout + r.stderr);
        assert.match(r.stdout, /films\.probe:1:\d+ error \[[a-z-]+\] .*query did not finish in 1\.5 s/);
    },
);

test('a query that finishes still reads its rows', { timeout: 60_000 }, async () => {
    const spec = specWithQuery('SELECT title, year FROM movie WHERE year > 1900');
    const r = await cli(['preview', spec, '--format', 'table'], { HALLUPROBE_QUERY_TIMEOUT_MS: '5000' });
    assert.doesNotMatch(r.stdout + r.stderr, /did not finish|could not be read/);
    const check = await cli(['check', spec], {});
    assert.equal(check.code, 0, check.stdout);
});
