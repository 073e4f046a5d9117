import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import Database from 'better-sqlite3';
import { checkSpec } from '../../../src/core/spec/check.js';
import { DataCache, readHeader } from '../../../src/core/data/index.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'halluprobe-sqlite-'));
test.after(() => fs.rmSync(dir, { recursive: true, force: true }));

const db = path.join(dir, 'movies.db');
{
    const d = new Database(db);
    d.exec(`CREATE TABLE movie (title TEXT, year REAL, director TEXT, born INTEGER);
        CREATE VIEW recent AS SELECT * FROM movie WHERE year > 2000;`);
    const insert = d.prepare('INSERT INTO movie (rowid, title, year, director, born) VALUES (?, ?, ?, ?, ?)');
    insert.run(10, 'Avatar', 2009.0, 'James Cameron', 1954);
    insert.run(20, 'Titanic', 1997.0, 'James Cameron', 1955);
    insert.run(30, 'Spectre', '2015.0', 'Sam Mendes', 1965);
    insert.run(40, 'Odd', 'abc', 'Nobody', null);
    d.close();
}

function spec(name: string, body: string): string {
    const file = path.join(dir, `${name}.probe`);
    fs.writeFileSync(file, body);
    return file;
}

const RELATIONS = `relation Movie from m {
    title: text
    year: int
    director: text
    key (title)
}
relation Director from m distinct {
    name: text = "director"
    birth_year: int = "born"
}
fd Director: name -> birth_year
`;

test('a SQLite table: typed coercion, rowid as the line, a distinct projection and the FD check', async () => {
    const checked = await checkSpec(spec('table', `source m sqlite "movies.db" table "movie"\n${RELATIONS}`));
    const movie = checked.data.tables.get('Movie')!;
    assert.equal(movie.rowCount, 4);
    assert.deepEqual([...movie.lines], [10, 20, 30, 40]);
    assert.deepEqual(
        [0, 1, 2, 3].map(r => movie.value(r, 'year')),
        [2009, 1997, 2015, null],
    );
    const coercion = checked.diagnostics.find(d => d.code === 'coercion')!;
    assert.match(coercion.message, /1 value of Movie.year is not int .*'abc' \(movies.db:40:2, not a number\)/);
    const fd = checked.diagnostics.find(d => d.code === 'fd-violated')!;
    assert.match(fd.message, /'James Cameron' has birth_year 1954 \(movies.db:10\) and 1955 \(movies.db:20\)/);
    assert.equal(checked.data.tables.get('Director')!.rowCount, 4);
});

test('a SQLite query: rows numbered from 1', async () => {
    const checked = await checkSpec(
        spec(
            'query',
            `source m sqlite "movies.db" query "SELECT title, year, director, born FROM movie WHERE born IS NOT NULL ORDER BY year"\n${RELATIONS}`,
        ),
    );
    const movie = checked.data.tables.get('Movie')!;
    assert.deepEqual([...movie.lines], [1, 2, 3]);
    assert.deepEqual(
        [0, 1, 2].map(r => movie.value(r, 'title')),
        ['Titanic', 'Avatar', 'Spectre'],
    );
    assert.deepEqual(
        checked.diagnostics.map(d => d.code),
        ['fd-violated'],
    );
});

test('a view has no rowid, so its rows are numbered', async () => {
    const checked = await checkSpec(spec('view', `source m sqlite "movies.db" table "recent"\n${RELATIONS}`));
    // 'abc' > 2000 in SQLite (text sorts after numbers), so the view has three rows.
    assert.deepEqual([...checked.data.tables.get('Movie')!.lines], [1, 2, 3]);
});

test('a missing table suggests the closest one; a bad query and a non-database file are diagnostics', async () => {
    const typo = await checkSpec(spec('typo', `source m sqlite "movies.db" table "movei"\n${RELATIONS}`));
    assert.equal(typo.diagnostics.length, 1);
    assert.equal(typo.diagnostics[0]!.code, 'sqlite-error');
    assert.match(
        typo.diagnostics[0]!.message,
        /movies.db has no table 'movei'; did you mean 'movie'\? Its tables: movie, recent/,
    );
    assert.equal(typo.diagnostics[0]!.range.start.line, 0);

    const bad = await checkSpec(spec('bad', `source m sqlite "movies.db" query "SELEC nothing"\n${RELATIONS}`));
    assert.match(bad.diagnostics[0]!.message, /query failed: .*syntax error/);

    fs.writeFileSync(path.join(dir, 'notadb.db'), 'just some text, not a database at all'.repeat(50));
    const notDb = await checkSpec(spec('notdb', `source m sqlite "notadb.db" table "movie"\n${RELATIONS}`));
    assert.match(
        notDb.diagnostics[0]!.message,
        /notadb.db (could not be opened as an SQLite database|could not be read|query failed).*not a database/,
    );

    const missingColumn = await checkSpec(
        spec('col', `source m sqlite "movies.db" table "movie"\nrelation M from m {\n    titel: text\n}\n`),
    );
    assert.match(missingColumn.diagnostics[0]!.message, /Column 'titel' of M.titel is not in movies.db; did you mean 'title'\?/);
});

test('readHeader of a SQLite source, and the cache over a database file', async () => {
    const file = spec('cached', `source m sqlite "movies.db" table "movie"\n${RELATIONS}`);
    const cache = new DataCache();
    const first = await checkSpec(file, { cache });
    assert.deepEqual(await readHeader(first.model.sources[0]!), ['title', 'year', 'director', 'born']);
    await checkSpec(file, { cache });
    assert.equal(cache.parses, 1);
    const d = new Database(db);
    d.prepare(`UPDATE movie SET born = 1954 WHERE rowid = 20`).run();
    d.close();
    const after = await checkSpec(file, { cache });
    assert.equal(cache.parses, 2);
    assert.equal(
        after.diagnostics.some(x => x.code === 'fd-violated'),
        false,
    );
});
