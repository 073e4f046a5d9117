/**
 * Where a PostgreSQL source's password comes from (a real server with SCRAM password authentication): the
 * variable named by `password_env`, then a password the editor saved for the database, then pg's own
 * PGPASSWORD / ~/.pgpass; with none, the error says how to give one.
 */
import { after, afterEach, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { tempDir } from '../../support/temp.js';
import { startPostgres, type PostgresServer } from '../../support/postgres.js';
import { checkSpec } from '../../../src/core/spec/check.js';
import { databaseId, useSavedPasswords } from '../../../src/core/data/postgres-url.js';

let server: PostgresServer | undefined;
const kept = { PGPASSWORD: process.env.PGPASSWORD, PGPASSFILE: process.env.PGPASSFILE };

/** The environment pg reads, set for one test (undefined: unset). */
function environment(vars: Record<string, string | undefined>): void {
    for (const [k, v] of Object.entries(vars)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
    }
}

async function errorsOf(source: string): Promise<string[]> {
    const spec = path.join(tempDir(), 'films.probe');
    fs.writeFileSync(spec, `${source}\n\nrelation Film from films {\n    title: text\n    key (title)\n}\n`);
    const checked = await checkSpec(spec);
    return checked.diagnostics.filter(d => d.severity === 'error').map(d => d.message);
}

describe('PostgreSQL passwords (a real server)', () => {
    before(async () => {
        server = await startPostgres();
        if (!server) return;
        server.createDatabase('world');
        server.sql('world', `create table film(title text primary key); insert into film values ('Avatar'), ('Heat');`);
    });
    afterEach(() => {
        useSavedPasswords(() => undefined);
        environment({ ...kept, FILM_PW: undefined });
    });
    after(() => server?.stop());

    it('names a database by user, lower-cased host, port (5432 by default) and name', () => {
        assert.equal(databaseId('postgres://Ann@DB.Example.org/sales'), 'Ann@db.example.org:5432/sales');
        assert.equal(databaseId('postgresql://Ann@db.example.org:5432/sales?sslmode=require'), 'Ann@db.example.org:5432/sales');
        assert.equal(databaseId('postgres://ann@db.example.org:6543/sales'), 'ann@db.example.org:6543/sales');
        assert.notEqual(databaseId('postgres://ann@db.example.org/sales'), databaseId('postgres://ann@db.example.org/other'));
        assert.equal(databaseId('/data/films.csv'), undefined);
        assert.equal(databaseId('not a url'), undefined);
    });

    it('says how to give a password when none was given, and never connects with a wrong one silently', async t => {
        if (!server) return t.skip('PostgreSQL is not installed (CI installs it and fails instead)');
        environment({ PGPASSWORD: undefined, PGPASSFILE: path.join(tempDir(), 'no-pgpass') });
        const none = await errorsOf(`source films postgres "${server.url('world')}" table "film"`);
        assert.equal(none.length, 1, JSON.stringify(none));
        assert.match(none[0]!, /asks for a password for postgres:\/\/postgres@127\.0\.0\.1:\d+\/world and none was given/);
        assert.match(none[0]!, /PGPASSWORD/);
        assert.match(none[0]!, /password_env/);
        assert.match(none[0]!, /HalluProbe: Set Database Password/);
        environment({ PGPASSWORD: 'wrong' });
        const wrong = await errorsOf(`source films postgres "${server.url('world')}" table "film"`);
        assert.match(wrong[0]!, /refused the credentials/);
        assert.match(wrong[0]!, /HalluProbe: Set Database Password/);
        assert.doesNotMatch(wrong.join('\n'), /wrong|test-secret/, 'no password is printed');
    });

    it('uses the password saved for the database over PGPASSWORD (wrong or unset)', async t => {
        if (!server) return t.skip('PostgreSQL is not installed');
        const pg = server;
        const asked: string[] = [];
        useSavedPasswords(id => {
            asked.push(id);
            return id === `postgres@127.0.0.1:${pg.port}/world` ? pg.password : undefined;
        });
        environment({ PGPASSWORD: 'wrong' });
        assert.deepEqual(await errorsOf(`source films postgres "${pg.url('world')}" table "film"`), []);
        environment({ PGPASSWORD: undefined, PGPASSFILE: path.join(tempDir(), 'no-pgpass') });
        // The same database written differently (with connection options) finds the same saved password.
        assert.deepEqual(
            await errorsOf(
                `source films postgres "POSTGRESQL://postgres@127.0.0.1:${pg.port}/world?connect_timeout=10" table "film"`,
            ),
            [],
        );
        assert.ok(
            asked.every(id => id === `postgres@127.0.0.1:${pg.port}/world`),
            asked.join(', '),
        );
        // A password saved for another database is not used for this one.
        useSavedPasswords(id => (id === `postgres@127.0.0.1:${pg.port}/other` ? pg.password : undefined));
        assert.match((await errorsOf(`source films postgres "${pg.url('world')}" table "film"`))[0]!, /none was given/);
    });

    it('lets password_env win over a saved password', async t => {
        if (!server) return t.skip('PostgreSQL is not installed');
        const pg = server;
        const source = `source films postgres "${pg.url('world')}" table "film" {\n    password_env "FILM_PW"\n}`;
        useSavedPasswords(() => 'saved-but-wrong');
        environment({ PGPASSWORD: undefined, FILM_PW: pg.password });
        assert.deepEqual(await errorsOf(source), []);
        useSavedPasswords(() => pg.password);
        environment({ FILM_PW: 'env-but-wrong' });
        assert.match((await errorsOf(source))[0]!, /refused the credentials/);
        // An unset password_env variable leaves the saved password in force.
        environment({ FILM_PW: undefined });
        assert.deepEqual(await errorsOf(source), []);
    });
});
