/** Shared by the SQLite, CSV and PostgreSQL import tests: the world schema, its declared keys and FKs, and the CLI. */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadSpec } from '../../src/core/spec/load.js';
import { cliArgs } from './cli-path.js';

export const cliWith = (env: Record<string, string>, ...args: string[]) =>
    spawnSync(process.execPath, cliArgs(...args), { encoding: 'utf8', env: { ...process.env, ...env } });

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
    assert.deepEqual(
        diagnostics.filter(d => d.severity === 'error'),
        [],
    );
    return {
        keys: model.relations.map(r => `${r.name}: ${r.keys.map(k => `(${k.join(',')})`).join(' ')}`).sort(),
        fks: model.fks
            .map(fk => `${fk.from.relation}(${fk.from.attributes.join(',')}) -> ${fk.to.relation}(${fk.to.attributes.join(',')})`)
            .sort(),
    };
}

export const DECLARED = {
    keys: ['city: (country,name)', 'country: (code) (name)', 'person: (id)'],
    fks: [
        'city(country) -> country(code)',
        'country(capital_country,capital_city) -> city(country,name)',
        'person(boss) -> person(id)',
        'person(home_country,home_city) -> city(country,name)',
    ],
};

/** `check` is clean, and with one probe added `preview` generates questions. */
export function assertUsable(spec: string, relation: string, template: string, env: Record<string, string> = {}) {
    const check = cliWith(env, 'check', spec);
    assert.equal(check.status, 0, check.stdout + check.stderr);
    assert.match(check.stdout, /No problems found/);
    const withProbe = path.join(path.dirname(spec), 'with-probe.probe');
    fs.writeFileSync(
        withProbe,
        `import "${path.basename(spec)}"\n\nprobe know ${'knows'} about ${relation} {\n    ask "${template}"\n}\n`,
    );
    const preview = cliWith(env, 'preview', withProbe, '--format', 'jsonl', '--limit', '3');
    assert.equal(preview.status, 0, preview.stderr);
    assert.equal(preview.stdout.trim().split('\n').length, 3);
}
