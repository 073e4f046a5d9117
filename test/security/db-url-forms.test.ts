// Issue 40, item 10: a password in a `--db` URL written as `?passwd=`, behind an encoded colon (`hp%3APW@`) or as an
// encoded parameter name (`?password%3D=`) is refused and never printed, against the PostgreSQL the tests start;
// and `retries N`, documented in docs/models.md, is a setting `check` knows.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { startPostgres, type PostgresServer } from '../support/postgres.js';
import { cli } from '../support/cli-process.js';
import { tempDir, writeSpec } from '../support/runner-fixtures.js';
import { passwordInUrl, safeUrl } from '../../src/core/data/postgres-url.js';

const SECRET = 'Item10-Secret-PW';

describe('--db URLs that hide a password in other spellings', { timeout: 120_000 }, () => {
    let pg: PostgresServer | undefined;
    before(async () => {
        pg = await startPostgres();
        pg?.createDatabase('team');
    });
    after(() => pg?.stop());

    const forms = (base: string): [string, string][] => [
        ['?passwd=', `${base}?passwd=${SECRET}`],
        ['an encoded colon in the user part', base.replace('postgres@', `postgres%3A${SECRET}@`)],
        ['an encoded parameter name ?password%3D=', `${base}?password%3D=${SECRET}`],
        ['?PWD= after another parameter', `${base}?sslmode=disable&PWD=${SECRET}`],
    ];

    it('are refused before connecting and printed without the password', async t => {
        if (!pg) return t.skip('PostgreSQL is not installed');
        for (const [where, url] of forms(pg.url('team'))) {
            assert.ok(passwordInUrl(url), where);
            assert.ok(!safeUrl(url).includes(SECRET), `${where}: ${safeUrl(url)}`);
            for (const args of [
                ['runs', '--db', url],
                ['report', '--db', url],
                ['store', 'copy', url, path.join(tempDir(), 'x.db')],
            ]) {
                const r = await cli(args, pg.env);
                assert.equal(r.code, 1, `${where} ${args[0]}: ${r.stdout}${r.stderr}`);
                assert.match(r.stdout + r.stderr, /password/i, where);
                assert.ok(!(r.stdout + r.stderr).includes(SECRET), `${where} ${args[0]}: ${r.stdout}${r.stderr}`);
            }
        }
    });
});

it('check accepts `retries N` in a model block, as docs/models.md documents', async () => {
    const spec = writeSpec('http://127.0.0.1:9/v1');
    fs.writeFileSync(spec, fs.readFileSync(spec, 'utf8').replace(/(model \w+ openai \{)/, '$1\n    retries 2'));
    assert.match(fs.readFileSync(spec, 'utf8'), /retries 2/);
    const r = await cli(['check', spec], {});
    assert.ok(!/retries/.test(r.stdout + r.stderr), r.stdout + r.stderr);
    assert.equal(r.code, 0, r.stdout + r.stderr);
});
