import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import Database from 'better-sqlite3';
import { tempDir } from '../../support/temp.js';
import { SCHEMA_SQL, DECLARED, assertUsable, cliWith, declared } from '../../support/import-fixtures.js';

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
        fs.writeFileSync(path.join(data, 'studio.csv'), 'code;studio name;founded\nWB;Warner Bros.;1923\nUNI;Universal;1912\nPAR;Paramount;1912\n');
        fs.writeFileSync(path.join(data, 'movie.csv'), 'title,year,studio,rating\nAvatar,2009,WB,7.8\nTitanic,1997,PAR,7.9\nAliens,1986,WB,8.4\nHeat,1995,WB,8.3\n');
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
        fs.writeFileSync(path.join(data, 'movie.jsonl'), ['{"title":"Avatar","year":2009,"studio":"WB"}', '{"title":"Titanic","year":1997,"studio":"PAR"}', '{"title":"Heat","year":1995,"studio":"WB"}'].join('\n') + '\n');
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
            assert.deepEqual(fs.readdirSync(dir).filter(f => f.endsWith('.tmp')), []);
            return r.stderr;
        };
        assert.match(attempt(path.join(dir, 'nothing.db')), /nothing\.db: error \[import-missing\] no such file or folder/);
        fs.writeFileSync(path.join(dir, 'notes.txt'), 'hello');
        assert.match(attempt(path.join(dir, 'notes.txt')), /notes\.txt: error \[import-not-database\]/);
        const db = new Database(path.join(dir, 'empty.db'));
        db.exec('create table a(x integer primary key); create table b(y text); insert into a values (1);');
        db.close();
        assert.match(attempt(path.join(dir, 'empty.db')), /empty\.db: error \[import-empty-table\] table 'b' of empty\.db has no rows/);
        const mixed = path.join(dir, 'mixed');
        fs.mkdirSync(mixed);
        fs.writeFileSync(path.join(mixed, 'a.csv'), 'x,y\n1,2\n3;4\n5,6\n');
        assert.match(attempt(mixed), /a\.csv:3:1 error \[import-mixed-delimiters\] a\.csv mixes delimiters: its header is split by ',' but line 3 by ';'/);
    });
});
