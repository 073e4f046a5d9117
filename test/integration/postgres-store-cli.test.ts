/**
 * A team's results store on a real PostgreSQL server (started by the test): `halluprobe run --db postgres://…`
 * asks and stores there, `runs`, `report` and `compare` read it, the password comes from PGPASSWORD or the
 * variable named by --db-password-env, never from the URL, and the URL is only ever shown without it.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startPostgres, type PostgresServer } from '../support/postgres.js';
import { startOpenAIServer, type TestServer } from '../support/openai-server.js';
import { writeSpec } from '../support/runner-fixtures.js';
import { cli } from '../support/cli-process.js';

let pg: PostgresServer | undefined;
let server: TestServer;
before(async () => {
    pg = await startPostgres();
    pg?.createDatabase('team');
    server = await startOpenAIServer();
});
after(async () => {
    pg?.stop();
    await server.close();
});

const key = { OPENAI_API_KEY: 'sk-team-store-key' };

test('run, runs, report and compare on a PostgreSQL store', async t => {
    if (!pg) return t.skip('PostgreSQL is not installed here');
    const url = pg.url('team');
    const spec = writeSpec(server.url);
    const env = { ...key, ...pg.env };
    const first = await cli(['run', spec, '--db', url, '--yes', '--format', 'json'], env);
    assert.equal(first.code, 0, first.stderr);
    const firstRun = JSON.parse(first.stdout) as {
        run: { id: string };
        counts: { answered: number };
        store: string;
        verified: boolean;
    };
    assert.equal(firstRun.counts.answered, 80);
    assert.equal(firstRun.verified, true);
    assert.equal(firstRun.store, url, 'the store is named by its URL');
    assert.equal(Number(pg.sql('team', 'SELECT COUNT(*) FROM responses').trim()), 80, 'the answers are on the server');
    assert.equal(Number(pg.sql('team', 'SELECT COUNT(*) FROM verdicts').trim()), 80);

    // A second machine's run of the same spec (a new run): its answers come from the shared cache.
    const requests = server.requests;
    const second = await cli(['run', spec, '--db', url, '--yes', '--new', '--format', 'json'], env);
    assert.equal(second.code, 0, second.stderr);
    assert.equal(server.requests, requests, "answered from the team's cache");

    const listed = await cli(['runs', '--db', url, '--format', 'json'], pg.env);
    assert.equal(listed.code, 0, listed.stderr);
    const runs = JSON.parse(listed.stdout) as { id: string; counts: { answered: number; cached: number } }[];
    assert.equal(runs.length, 2);
    assert.equal(runs[1]!.id, firstRun.run.id, 'newest first');
    assert.deepEqual([runs[0]!.counts.answered, runs[0]!.counts.cached], [80, 80]);

    const report = await cli(['report', '--db', url, '--run', firstRun.run.id, '--format', 'json'], pg.env);
    assert.equal(report.code, 0, report.stderr);
    assert.equal((JSON.parse(report.stdout) as { run: { id: string } }).run.id, firstRun.run.id);
    const compared = await cli(['compare', firstRun.run.id, 'latest', '--db', url, '--format', 'json'], pg.env);
    assert.equal(compared.code, 0, compared.stderr);
    assert.deepEqual((JSON.parse(compared.stdout) as { changed: unknown[] }).changed, [], 'the same answers, the same verdicts');
});

test('the password: from --db-password-env, never in the URL, never shown', async t => {
    if (!pg) return t.skip('PostgreSQL is not installed here');
    const url = pg.url('team');
    const named = await cli(['runs', '--db', url, '--db-password-env', 'TEAM_DB_PASSWORD'], {
        PGPASSWORD: '',
        TEAM_DB_PASSWORD: pg.password,
    });
    assert.equal(named.code, 0, named.stderr);
    const none = await cli(['runs', '--db', url], { PGPASSWORD: '' });
    assert.equal(none.code, 1, none.stderr);
    assert.match(none.stderr, /asks for a password .*none was given/);
    const wrong = await cli(['report', '--db', url], { PGPASSWORD: 'not-the-password' });
    assert.equal(wrong.code, 1);
    assert.match(wrong.stderr, /refused the credentials/);
    const inUrl = url.replace(`${pg.user}@`, `${pg.user}:${pg.password}@`);
    for (const args of [
        ['runs', '--db', inUrl],
        ['report', '--db', inUrl],
        ['run', writeSpec(server.url), '--db', inUrl, '--yes'],
    ]) {
        const r = await cli(args, { ...key, ...pg.env });
        assert.equal(r.code, 1, `${args[0]}: ${r.stderr}`);
        assert.match(r.stderr, /has a password in its URL/);
        assert.ok(!(r.stdout + r.stderr).includes(pg.password), `${args[0]} shows no password`);
    }
});
