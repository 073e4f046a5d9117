import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import Database from 'better-sqlite3';
import { tempDir } from '../../support/temp.js';
import { loadSpec } from '../../../src/core/spec/load.js';

const main = path.resolve('src/cli/main.ts');
export const cliWith = (env: Record<string, string>, ...args: string[]) =>
    spawnSync(process.execPath, ['--import', 'tsx', main, ...args], { encoding: 'utf8', env: { ...process.env, ...env } });
const cli = (...args: string[]) => cliWith({}, ...args);

/** Composite key, composite FK, a self-reference and a cycle (country.capital -> city, city.country -> country). */
export const SCHEMA_SQL = `
pragma foreign_keys = off;
create table country(code text primary key, name text not null unique, capital_country text, capital_city text,
    foreign key (capital_country, capital_city) references city(country, name));
create table city(country text not null references country(code), name text not null, population integer, primary key (country, name));
create table person(id integer primary key, name text not null, boss integer references person(id), home_country text, home_city text, born date,
    foreign key (home_country, home_city) references city(country, name));
insert into country values ('fr', 'France', 'fr', 'Paris'), ('de', 'Germany', 'de', 'Berlin');
insert into city values ('fr', 'Paris', 2100000), ('fr', 'Lyon', 520000), ('de', 'Berlin', 3600000);
insert into person values (1, 'Ann', null, 'fr', 'Paris', '1970-01-02'), (2, 'Bob', 1, 'fr', 'Lyon', '1980-03-04'),
    (3, 'Cy', 1, 'de', 'Berlin', '1990-05-06'), (4, 'Di', 2, 'fr', 'Paris', '1991-05-06');
`;

/** Keys and FKs of a written spec, in a comparable form. */
export async function declared(file: string) {
    const { model, diagnostics } = await loadSpec(file);
    assert.deepEqual(diagnostics.filter(d => d.severity === 'error'), []);
    return {
        keys: model.relations.map(r => `${r.name}: ${r.keys.map(k => `(${k.join(',')})`).join(' ')}`).sort(),
        fks: model.fks.map(fk => `${fk.from.relation}(${fk.from.attributes.join(',')}) -> ${fk.to.relation}(${fk.to.attributes.join(',')})`).sort(),
    };
}

export const DECLARED = {
    keys: ['city: (country,name)', 'country: (code) (name)', 'person: (id)'],
    fks: ['city(country) -> country(code)', 'country(capital_country,capital_city) -> city(country,name)',
        'person(boss) -> person(id)', 'person(home_country,home_city) -> city(country,name)'],
};

/** `check` is clean, and with one probe added `preview` generates questions. */
export function assertUsable(spec: string, relation: string, template: string, env: Record<string, string> = {}) {
    const check = cliWith(env, 'check', spec);
    assert.equal(check.status, 0, check.stdout + check.stderr);
    assert.match(check.stdout, /No problems found/);
    const withProbe = path.join(path.dirname(spec), 'with-probe.probe');
    fs.writeFileSync(withProbe, `import "${path.basename(spec)}"\n\nprobe know ${'knows'} about ${relation} {\n    ask "${template}"\n}\n`);
    const preview = cliWith(env, 'preview', withProbe, '--format', 'jsonl', '--limit', '3');
    assert.equal(preview.status, 0, preview.stderr);
    assert.equal(preview.stdout.trim().split('\n').length, 3);
}

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
