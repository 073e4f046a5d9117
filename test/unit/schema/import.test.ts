import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import Database from 'better-sqlite3';
import { tempDir } from '../../support/temp.js';
import { SCHEMA_SQL, DECLARED, assertUsable, cliWith, declared } from '../../support/import-fixtures.js';
import { importDatabase } from '../../../src/core/schema/index.js';
import { loadSpec } from '../../../src/core/spec/load.js';

const cli = (...args: string[]) => cliWith({}, ...args);

describe('halluprobe import', () => {
    it('imports a SQLite file: keys and FKs equal the declared ones (composite, self-reference, cycle); check clean; preview works', async () => {
        const dir = tempDir();
        const db = new Database(path.join(dir, 'world.db'));
        db.exec(SCHEMA_SQL);
        db.close();
        const spec = path.join(dir, 'world.probe');
        const r = cli('import', path.join(dir, 'world.db'), '--out', spec, '--fds');
        assert.equal(r.status, 0, r.stderr);
        assert.match(r.stdout, /3 relation\(s\), 4 key\(s\), 4 FK\(s\)/);
        // The one FD the data holds (home_city -> home_country) rests on one pair of rows (Paris twice): it is written
        // commented out, and the summary says so instead of counting it among the declared ones (issue 36, item 7).
        assert.match(r.stdout, /4 FK\(s\), 0 FD\(s\) declared; 1 FD written commented out/);
        assert.deepEqual(await declared(spec), DECLARED);
        const text = fs.readFileSync(spec, 'utf8');
        assert.match(text, /population: int/);
        assert.match(text, /born: date/);
        assertUsable(spec, 'person', 'Was {name} born on {born}?');
    });

    it('imports a folder of CSV files: types, keys from unique columns, FKs from inclusion dependencies', async () => {
        const dir = tempDir();
        const data = path.join(dir, 'data');
        fs.mkdirSync(data);
        fs.writeFileSync(
            path.join(data, 'studio.csv'),
            'code;studio name;founded\nWB;Warner Bros.;1923\nUNI;Universal;1912\nPAR;Paramount;1912\n',
        );
        fs.writeFileSync(
            path.join(data, 'movie.csv'),
            'title,year,studio,rating\nAvatar,2009,WB,7.8\nTitanic,1997,PAR,7.9\nAliens,1986,WB,8.4\nHeat,1995,WB,8.3\n',
        );
        const spec = path.join(dir, 'movies.probe');
        const r = cli('import', data, '--out', spec);
        assert.equal(r.status, 0, r.stderr);
        const text = fs.readFileSync(spec, 'utf8');
        assert.match(text, /delimiter ";"/);
        assert.match(text, /studio_name: text = "studio name"/);
        assert.match(text, /year: int/);
        assert.match(text, /rating: real/);
        const { keys, fks } = await declared(spec);
        assert.deepEqual(keys, ['movie: (title) (year) (rating)', 'studio: (code) (studio_name)']);
        assert.deepEqual(fks, ['movie(studio) -> studio(code)']);
        assertUsable(spec, 'movie', 'Was {title} released in {year}?');
    });

    it('imports JSONL files beside CSV files: an FK from a JSONL file into a CSV file, found in the data', async () => {
        const dir = tempDir();
        const data = path.join(dir, 'data');
        fs.mkdirSync(data);
        fs.writeFileSync(path.join(data, 'studio.csv'), 'code,name\nWB,Warner Bros.\nPAR,Paramount\n');
        fs.writeFileSync(
            path.join(data, 'movie.jsonl'),
            [
                '{"title":"Avatar","year":2009,"studio":"WB"}',
                '{"title":"Titanic","year":1997,"studio":"PAR"}',
                '{"title":"Heat","year":1995,"studio":"WB"}',
            ].join('\n') + '\n',
        );
        const spec = path.join(dir, 'mixed.probe');
        const r = cli('import', data, '--out', spec);
        assert.equal(r.status, 0, r.stdout + r.stderr);
        const text = fs.readFileSync(spec, 'utf8');
        assert.match(text, /source movie_src jsonl "data\/movie\.jsonl"/);
        assert.match(text, /year: int/);
        assert.deepEqual((await declared(spec)).fks, ['movie(studio) -> studio(code)']);
        assertUsable(spec, 'movie', 'Was {title} released in {year}?');
    });

    it('refuses bad input with a located error and writes nothing', () => {
        const dir = tempDir();
        const out = path.join(dir, 'out.probe');
        const attempt = (input: string) => {
            const r = cli('import', input, '--out', out);
            assert.equal(r.status, 1, r.stdout + r.stderr);
            assert.doesNotMatch(r.stderr, /\n\s+at /);
            assert.equal(fs.existsSync(out), false);
            assert.deepEqual(
                fs.readdirSync(dir).filter(f => f.endsWith('.tmp')),
                [],
            );
            return r.stderr;
        };
        assert.match(attempt(path.join(dir, 'nothing.db')), /nothing\.db: error \[import-missing\] no such file or folder/);
        fs.writeFileSync(path.join(dir, 'notes.txt'), 'hello');
        assert.match(attempt(path.join(dir, 'notes.txt')), /notes\.txt: error \[import-not-database\]/);
        const db = new Database(path.join(dir, 'empty.db'));
        db.exec('create table a(x integer primary key); create table b(y text); insert into a values (1);');
        db.close();
        assert.match(
            attempt(path.join(dir, 'empty.db')),
            /empty\.db: error \[import-empty-table\] table 'b' of empty\.db has no rows/,
        );
        const mixed = path.join(dir, 'mixed');
        fs.mkdirSync(mixed);
        fs.writeFileSync(path.join(mixed, 'a.csv'), 'x,y\n1,2\n3;4\n5,6\n');
        assert.match(
            attempt(mixed),
            /a\.csv:3:1 error \[import-mixed-delimiters\] a\.csv mixes delimiters: its header is split by ',' but line 3 by ';'/,
        );
    });
});

/** A folder of CSV files, written to a temp dir: name → lines. */
function csvFolder(files: Record<string, string[]>): string {
    const dir = path.join(tempDir(), 'data');
    fs.mkdirSync(dir);
    for (const [name, lines] of Object.entries(files)) fs.writeFileSync(path.join(dir, `${name}.csv`), lines.join('\n') + '\n');
    return dir;
}

const lines = (text: string, pattern: RegExp) => text.split('\n').filter(l => pattern.test(l));

describe('import: what the data shows, and no more (issue 36, item 7)', () => {
    // shop -> city and city -> shop hold on two groups (A/Paris and B/Lyon); colour -> … on one (the two red rows);
    // zone is one value throughout (a constant).
    const place = [
        'id,shop,city,colour,zone',
        '1,A,Paris,red,Z',
        '2,A,Paris,red,Z',
        '3,B,Lyon,blue,Z',
        '4,B,Lyon,green,Z',
        '5,C,Berlin,white,Z',
        '6,D,Rome,black,Z',
    ];

    it('writes an FD that holds on fewer than two groups commented out, with its reason; FDs with support stay declared', async () => {
        const dir = csvFolder({ place });
        const out = path.join(path.dirname(dir), 'place.probe');
        const result = await importDatabase({ input: dir, out, fds: true });
        assert.deepEqual(result.diagnostics, []);
        const text = fs.readFileSync(out, 'utf8');
        assert.match(text, /^fd place: shop -> city \/\/ holds on 100\.0 % of rows, 2 groups$/m);
        assert.match(text, /^fd place: city -> shop \/\/ holds on 100\.0 % of rows, 2 groups$/m);
        assert.match(
            text,
            /^\/\/ fd place: colour -> shop \(holds on 100\.0 % of rows, 1 group: one left-hand side value repeats, on 2 of 6 rows, too little to tell a rule from chance; uncomment it if it is a rule of your data\)$/m,
        );
        // Declared FDs are exactly the ones with two groups or more; the constant zone is no FD (the language has none with an empty left-hand side).
        const { model } = await loadSpec(out);
        assert.deepEqual(model.fds.map(f => `${f.lhs.join(',')}->${f.rhs.join(',')}`).sort(), ['city->shop', 'shop->city']);
        assert.deepEqual(
            lines(text, /zone/).filter(l => !/^\s+zone: text$/.test(l)),
            ['// place.zone has one value on all 6 rows: a constant, which no fd declares'],
        );
    });

    it('counts declared and commented-out FKs and FDs apart, in one summary the CLI and the editor both show', async () => {
        const codes = Array.from({ length: 10 }, (_, i) => `S${i}`);
        const studio = ['code,name', ...codes.map(c => `${c},Studio ${c}`)];
        // studio: every value a studio code (declared); distributor: 9 of its 10 values are (written commented out).
        const distributors = [...codes.slice(0, 9), 'X', 'S0', 'S1'];
        const movie = ['title,studio,distributor', ...distributors.map((d, i) => `T${i},${codes[i % 10]},${d}`)];
        const dir = csvFolder({ studio, movie, place });
        const out = path.join(path.dirname(dir), 'shop.probe');
        const result = await importDatabase({ input: dir, out, fds: true });
        const text = fs.readFileSync(out, 'utf8');
        const count = (live: RegExp, commented: RegExp) => ({
            live: lines(text, live).length,
            commented: lines(text, commented).length,
        });
        assert.deepEqual(result.summary.fks, { live: 1, commented: 1 });
        assert.deepEqual(result.summary.fks, count(/^fk /, /^\/\/ fk /));
        assert.deepEqual(result.summary.fds, count(/^fd /, /^\/\/ fd /));
        assert.ok(result.summary.fds!.live > 0 && result.summary.fds!.commented > 0, JSON.stringify(result.summary));
        assert.equal(
            result.summary.text,
            `3 relation(s), ${result.schema.relations.reduce((n, r) => n + r.keys.length, 0)} key(s), 1 FK(s), ` +
                `${result.summary.fds!.live} FD(s) declared; 1 FK, ${result.summary.fds!.commented} FDs written commented out (the spec says why; uncomment what is a rule of your data)`,
        );
        // Without --fds the summary names no FD.
        const plain = await importDatabase({ input: dir, out, fds: false });
        assert.equal(plain.summary.fds, undefined);
        assert.doesNotMatch(plain.summary.text, /FD/);
    });

    it('points to no docs path the user does not have: the advice names the README section shipped with the package', async () => {
        const dir = csvFolder({ place });
        const out = path.join(path.dirname(dir), 'place.probe');
        const result = await importDatabase({ input: dir, out, fds: true });
        assert.doesNotMatch(fs.readFileSync(out, 'utf8'), /docs\//);
        assert.doesNotMatch([result.summary.text, result.advice].join('\n'), /docs\//);
        assert.equal(result.advice, 'Add a probe to ask questions: the README\'s "Write a spec" section shows how.');
        assert.match(
            fs.readFileSync(out, 'utf8'),
            /^\/\/ Imported from the data files of data by `halluprobe import`\. Add a probe to ask questions: the README's "Write a spec" section shows how\.$/m,
        );
        // The README (shipped in the npm package and the VSIX) has that section.
        assert.match(fs.readFileSync(path.join(import.meta.dirname, '../../../README.md'), 'utf8'), /^## Write a spec$/m);
    });
});
