// Issue 29, item 6: a PostgreSQL password anywhere in a source URL — userinfo, `password=` / `sslpassword=`
// parameters, PGPASSWORD in an `options` string — is refused before anything connects (a real server that
// would accept it), in `check` and in `import`, and the URL is never shown with the password in it.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { tempDir } from '../support/temp.js';
import { startPostgres, type PostgresServer } from '../support/postgres.js';
import { cli } from '../support/cli-process.js';
import { passwordInUrl, safeUrl } from '../../src/core/data/postgres-url.js';

let server: PostgresServer | undefined;

/** The URLs that carry the server's password somewhere. */
function carriers(s: PostgresServer): [string, string][] {
    const base = s.url('world');
    const pw = encodeURIComponent(s.password);
    return [
        ['userinfo', base.replace(`${s.user}@`, `${s.user}:${pw}@`)],
        ['password=', `${base}?password=${pw}`],
        ['PASSWORD= (any case), after another parameter', `${base}?sslmode=disable&PASSWORD=${pw}`],
        ['sslpassword=', `${base}?sslpassword=${pw}`],
        ['PGPASSWORD in options', `${base}?options=${encodeURIComponent(`-c PGPASSWORD=${s.password}`)}`],
    ];
}

describe('a PostgreSQL password in any part of a URL', { timeout: 120_000 }, () => {
    before(async () => {
        server = await startPostgres();
        if (!server) return;
        server.createDatabase('world');
        server.sql('world', `create table film(title text primary key); insert into film values ('Avatar'), ('Heat');`);
    });
    after(() => server?.stop());

    it('is refused by check with a located error, never connecting, never shown', async t => {
        if (!server) return t.skip('PostgreSQL is not installed');
        for (const [where, url] of carriers(server)) {
            const spec = path.join(tempDir(), 'films.probe');
            fs.writeFileSync(
                spec,
                `source films postgres "${url}" table "film"\n\nrelation Film from films {\n    title: text\n    key (title)\n}\n`,
            );
            const r = await cli(['check', spec], { PGPASSWORD: '', PGPASSFILE: '/nonexistent' });
            assert.equal(r.code, 1, `${where}: ${r.stdout}${r.stderr}`);
            assert.match(r.stdout + r.stderr, /films\.probe:1:\d+ error \[source-secret\]/, where);
            assert.ok(
                !(r.stdout + r.stderr).includes(server.password),
                `${where}: the password is shown: ${r.stdout}${r.stderr}`,
            );
        }
    });

    it('is refused by import, and the spec it would write is not written', async t => {
        if (!server) return t.skip('PostgreSQL is not installed');
        for (const [where, url] of carriers(server)) {
            const out = path.join(tempDir(), 'imported.probe');
            const r = await cli(['import', url, '--out', out], { PGPASSWORD: '', PGPASSFILE: '/nonexistent' });
            assert.equal(r.code, 1, `${where}: ${r.stdout}${r.stderr}`);
            assert.ok(!fs.existsSync(out), where);
            assert.ok(!(r.stdout + r.stderr).includes(server.password), `${where}: ${r.stdout}${r.stderr}`);
        }
    });

    it('is shown redacted and detected whatever its form', () => {
        const url = 'postgres://me:pw1@db.local/sales?sslmode=require&password=pw2&sslpassword=pw3&options=-c%20PGPASSWORD%3Dpw4';
        assert.ok(passwordInUrl(url));
        const shown = safeUrl(url);
        for (const pw of ['pw1', 'pw2', 'pw3', 'pw4']) assert.ok(!shown.includes(pw), shown);
        assert.match(shown, /sslmode=require/);
        assert.ok(!passwordInUrl('postgres://me@db.local/sales?sslmode=require&application_name=x'));
    });
});
