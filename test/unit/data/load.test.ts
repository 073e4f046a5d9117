import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { checkSpec } from '../../../src/core/spec/check.js';
import { loadSpec } from '../../../src/core/spec/load.js';
import { DataCache, loadData, readHeader } from '../../../src/core/data/index.js';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'halluprobe-load-'));
test.after(() => fs.rmSync(root, { recursive: true, force: true }));
let n = 0;

/** Writes the files into a fresh directory and returns the path of `spec.probe` in it. */
function project(files: Record<string, string>): string {
    const dir = path.join(root, String(n++));
    for (const [name, content] of Object.entries(files)) {
        fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
        fs.writeFileSync(path.join(dir, name), content);
    }
    return path.join(dir, 'spec.probe');
}

const MOVIES = `,common_entity,entity3,entity2,entity4,hosts
0,Avatar,2009.0,James Cameron,1954,"1992,1996,"
1,Titanic,1997.0,James Cameron,1954,
2,Spectre,2015.0,Sam Mendes,1965,"2000,"
3,Skyfall,2012.0,Sam Mendes,1965,
`;
const SPEC = `source movies csv "data/movies.csv"
relation Movie from movies {
    title: text = "common_entity"
    year: int = "entity3"
    director: text = "entity2"
    hosts: list<int>
    key (title, year)
}
relation Director from movies distinct {
    name: text = "entity2"
    birth_year: int = "entity4"
    key (name)
}
fd Director: name -> birth_year
fd Movie: title, year -> director
fk Movie.director -> Director.name
`;

const codes = (r: { diagnostics: { code: string }[] }) => r.diagnostics.map(d => d.code);
const lineOf = (spec: string, needle: string) =>
    fs
        .readFileSync(spec, 'utf8')
        .split('\n')
        .findIndex(l => l.includes(needle));

test('a clean spec loads typed tables, with a distinct projection at first occurrences, and no diagnostics', async () => {
    const spec = project({ 'spec.probe': SPEC, 'data/movies.csv': MOVIES });
    const checked = await checkSpec(spec);
    assert.deepEqual(checked.diagnostics, []);
    const movie = checked.data.tables.get('Movie')!;
    assert.equal(movie.rowCount, 4);
    assert.equal(movie.value(0, 'year'), 2009);
    assert.deepEqual(movie.value(0, 'hosts'), [1992, 1996]);
    assert.equal(movie.value(1, 'hosts'), null);
    assert.equal(movie.file, path.join(path.dirname(spec), 'data/movies.csv'));
    const director = checked.data.tables.get('Director')!;
    assert.equal(director.rowCount, 2);
    assert.deepEqual(
        [0, 1].map(r => [director.value(r, 'name'), director.value(r, 'birth_year')]),
        [
            ['James Cameron', 1954],
            ['Sam Mendes', 1965],
        ],
    );
    assert.deepEqual([...director.lines], [2, 4]);
});

test('fd-violated names the groups and the lines of the conflicting rows', async () => {
    const spec = project({
        'spec.probe': SPEC,
        'data/movies.csv': MOVIES.replace('1,Titanic,1997.0,James Cameron,1954', '1,Titanic,1997.0,James Cameron,1955'),
    });
    const checked = await checkSpec(spec);
    const fd = checked.diagnostics.find(d => d.code === 'fd-violated')!;
    assert.equal(fd.severity, 'error');
    assert.equal(
        fd.message.split('. Correct')[0],
        "Director: name -> birth_year is violated by 1 group: 'James Cameron' has birth_year 1954 (data/movies.csv:2) and 1955 (data/movies.csv:3)",
    );
    assert.equal(fd.range.start.line, lineOf(spec, 'fd Director'));
    assert.deepEqual(
        fd.data?.rows?.map(r => r.line),
        [2, 3],
    );
    assert.equal(fd.data?.rows?.[0]?.file, path.join(path.dirname(spec), 'data', 'movies.csv'));
    // The projection now has James Cameron twice, so Director's key is not unique either — reported at the key.
    const key = checked.diagnostics.find(d => d.code === 'key-not-unique')!;
    assert.equal(key.range.start.line, lineOf(spec, 'key (name)'));
    assert.match(
        key.message,
        /Key name of Director is not unique: 1 value is held by more than one row: 'James Cameron' \(data\/movies.csv:2, 3\)/,
    );
});

test('key-not-unique and fk-dangling', async () => {
    const spec = project({
        'spec.probe': `${SPEC}source people csv "people.csv"\nrelation Person from people {\n    name: text\n    key (name)\n}\nfk Movie.director -> Person.name\n`,
        'data/movies.csv': MOVIES + '4,Avatar,2009.0,James Cameron,1954,\n',
        'people.csv': 'name\nJames Cameron\n',
    });
    const checked = await checkSpec(spec);
    assert.deepEqual(codes(checked).sort(), ['fk-dangling', 'key-not-unique']);
    const key = checked.diagnostics.find(d => d.code === 'key-not-unique')!;
    assert.equal(key.range.start.line, lineOf(spec, 'key (title, year)'));
    assert.match(
        key.message,
        /Key \(title, year\) of Movie is not unique: 1 value is held by more than one row: \('Avatar', 2009\) \(data\/movies.csv:2, 6\)/,
    );
    const fk = checked.diagnostics.find(d => d.code === 'fk-dangling')!;
    assert.equal(fk.range.start.line, lineOf(spec, 'fk Movie.director -> Person.name'));
    assert.match(
        fk.message,
        /Movie.director -> Person.name: 1 value \(in 2 rows\) has no match in Person.name: 'Sam Mendes' \(data\/movies.csv:4, 5\)/,
    );
});

test('a row repeated exactly is a duplicate-row warning at the key, not a key conflict', async () => {
    const spec = project({ 'spec.probe': SPEC, 'data/movies.csv': MOVIES + '4,Spectre,2015.0,Sam Mendes,1965,"2000,"\n' });
    const checked = await checkSpec(spec);
    assert.deepEqual(codes(checked), ['duplicate-row']);
    const repeated = checked.diagnostics[0]!;
    assert.equal(repeated.severity, 'warning');
    assert.equal(repeated.range.start.line, lineOf(spec, 'key (title, year)'));
    assert.match(repeated.message, /1 row of Movie is repeated exactly: \('Spectre', 2015\) \(data\/movies.csv:4, 6\)/);
});

test('missing-file at the source, missing-column at the attribute with the closest column and the header', async () => {
    const gone = project({ 'spec.probe': SPEC });
    const missing = await checkSpec(gone);
    assert.deepEqual(codes(missing), ['missing-file']);
    assert.equal(missing.diagnostics[0]!.range.start.line, 0);
    assert.match(missing.diagnostics[0]!.message, /Data file not found: data\/movies.csv/);

    const spec = project({
        'spec.probe': SPEC.replace('"entity2"\n    hosts', '"entity9"\n    hosts'),
        'data/movies.csv': MOVIES,
    });
    const checked = await checkSpec(spec);
    const d = checked.diagnostics.find(x => x.code === 'missing-column')!;
    assert.equal(d.range.start.line, lineOf(spec, '"entity9"'));
    assert.match(d.message, /Column 'entity9' of Movie.director is not in data\/movies.csv; did you mean 'entity3'\?/);
    assert.deepEqual(d.data?.columns, ['', 'common_entity', 'entity3', 'entity2', 'entity4', 'hosts']);
    // The FD and FK over the missing column are not checked (they would only repeat the problem).
    assert.deepEqual(codes(checked), ['missing-column']);
});

test('coercion failures: one diagnostic per attribute with count and file:line:column, values kept as null', async () => {
    const spec = project({
        'spec.probe': SPEC,
        'data/movies.csv': MOVIES.replace('2015.0', 'abc').replace('2012.0', '2012.5').replace('"1992,1996,"', '"1992,x,"'),
    });
    const checked = await checkSpec(spec);
    const year = checked.diagnostics.find(d => d.code === 'coercion' && d.range.start.line === lineOf(spec, 'year: int'))!;
    assert.equal(year.severity, 'warning');
    assert.match(
        year.message,
        /^2 values of Movie.year are not int and were loaded as empty: 'abc' \(data\/movies.csv:4:3, not a number\), '2012.5' \(data\/movies.csv:5:3, not a whole number\)/,
    );
    const hosts = checked.diagnostics.find(
        d => d.code === 'coercion' && d.range.start.line === lineOf(spec, 'hosts: list<int>'),
    )!;
    assert.match(hosts.message, /'1992,x,' \(data\/movies.csv:2:6, item 'x' is not a number\)/);
    const movie = checked.data.tables.get('Movie')!;
    assert.equal(movie.rowCount, 4);
    assert.equal(movie.value(2, 'year'), null);
    assert.equal(movie.value(2, 'title'), 'Spectre');
});

test('csv-format problems are reported at the source', async () => {
    const spec = project({ 'spec.probe': SPEC, 'data/movies.csv': MOVIES + '5,Up,2009.0\n' });
    const checked = await checkSpec(spec);
    const d = checked.diagnostics.find(x => x.code === 'csv-format')!;
    assert.equal(d.range.start.line, 0);
    assert.match(d.message, /data\/movies.csv has 1 row whose number of fields differs from the header's 6 \(line 6 has 3\)/);
    assert.equal(checked.diagnostics.filter(x => x.code === 'csv-format').length, 1, 'once per source, not per relation');
    const binary = project({ 'spec.probe': SPEC, 'data/movies.csv': '\u0000\u0001\u0002' });
    assert.match((await checkSpec(binary)).diagnostics[0]!.message, /not a text file/);
});

test('relations whose declaration has errors are not loaded', async () => {
    const spec = project({
        'spec.probe': SPEC.replace('year: int = "entity3"', 'year: int = "entity3"\n    key (nosuch)'),
        'data/movies.csv': 'nothing,here\n1,2\n',
    });
    const checked = await checkSpec(spec);
    assert.ok(checked.diagnostics.some(d => d.severity === 'error' && !['missing-column'].includes(d.code)));
    assert.equal(checked.data.tables.has('Movie'), false);
    assert.ok(checked.data.tables.has('Director'));
});

test('the cache: an unchanged file is not parsed again, not even after an edit of the spec; a changed file is', async () => {
    const spec = project({ 'spec.probe': SPEC, 'data/movies.csv': MOVIES });
    const csv = path.join(path.dirname(spec), 'data/movies.csv');
    const cache = new DataCache();
    const first = await checkSpec(spec, { cache });
    assert.equal(cache.parses, 1, 'one parse for both relations of the source');
    const again = await checkSpec(spec, { cache });
    assert.equal(cache.parses, 1);
    assert.equal(cache.hashes, 1);
    assert.equal(again.data.tables.get('Movie'), first.data.tables.get('Movie'));

    // An edit that moves every declaration down: nothing is reloaded and diagnostics follow the new lines.
    fs.writeFileSync(spec, '// a comment\n\n' + SPEC + 'fd Movie: director -> year\n');
    const edited = await checkSpec(spec, { cache });
    assert.equal(cache.parses, 1);
    assert.equal(
        edited.diagnostics.find(d => d.code === 'fd-violated')?.range.start.line,
        lineOf(spec, 'fd Movie: director -> year'),
    );

    // Touched but identical: hashed again, not parsed.
    const later = new Date(Date.now() + 5000);
    fs.utimesSync(csv, later, later);
    await checkSpec(spec, { cache });
    assert.equal(cache.hashes, 2);
    assert.equal(cache.parses, 1);

    // Changed content: parsed again, and the new data is what is checked.
    fs.writeFileSync(csv, MOVIES.replace('Titanic', 'Titanic II'));
    const changed = await checkSpec(spec, { cache });
    assert.equal(cache.parses, 2);
    assert.equal(changed.data.tables.get('Movie')!.value(1, 'title'), 'Titanic II');

    // A changed declaration (a type) reloads only that source's changed relation.
    fs.writeFileSync(spec, SPEC.replace('year: int = "entity3"', 'year: real = "entity3"'));
    const retyped = await checkSpec(spec, { cache });
    assert.equal(cache.parses, 3);
    assert.equal(retyped.data.tables.get('Director'), changed.data.tables.get('Director'));
});

test('readHeader of a CSV source', async () => {
    const spec = project({ 'spec.probe': SPEC, 'data/movies.csv': MOVIES });
    const checked = await checkSpec(spec);
    assert.deepEqual(await readHeader(checked.model.sources[0]!), [
        '',
        'common_entity',
        'entity3',
        'entity2',
        'entity4',
        'hosts',
    ]);
});

test('without key locations, key-not-unique is anchored at the first line of the relation', async () => {
    const spec = project({ 'spec.probe': SPEC, 'data/movies.csv': MOVIES + '4,Avatar,2009.0,James Cameron,1954,\n' });
    const loaded = await loadSpec(spec);
    const data = await loadData(loaded.model);
    const key = data.diagnostics.find(d => d.code === 'key-not-unique')!;
    const line = lineOf(spec, 'relation Movie');
    assert.deepEqual(key.range, { start: { line, character: 0 }, end: { line: line + 1, character: 0 } });
});

test("an aborted load rejects with the signal's reason and caches nothing", async () => {
    const spec = project({ 'spec.probe': SPEC, 'data/movies.csv': MOVIES });
    const loaded = await loadSpec(spec);
    const cache = new DataCache();
    const controller = new AbortController();
    controller.abort(new Error('edited again'));
    await assert.rejects(loadData(loaded.model, cache, controller.signal), /edited again/);
    await loadData(loaded.model, cache);
    assert.equal(cache.parses, 1);
});
