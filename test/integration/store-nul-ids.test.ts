/**
 * Rule probes' group ids hold NUL characters (the family joins a fact's arguments with U+0000), which PostgreSQL
 * text cannot hold: `store copy` of a rule run into a server stopped with exit 70. The store carries the ids
 * faithfully on both engines (it writes them escaped and reads the group verdicts back whole), and a store file
 * written before has its ids migrated when opened. A real offline rule run, copied to the PostgreSQL the test
 * starts and back, through the CLI a user types.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync } from 'node:fs';
import * as path from 'node:path';
import Database from 'better-sqlite3';
import { openStore } from '../../src/core/store/index.js';
import { startPostgres, type PostgresServer } from '../support/postgres.js';
import { repoRoot, tempDir } from '../support/runner-fixtures.js';
import { cli } from '../support/cli-process.js';

let pg: PostgresServer | undefined;
let dir: string;
let spec: string;
before(async () => {
    pg = await startPostgres();
    dir = tempDir('hp-nul-ids-');
    cpSync(path.join(repoRoot, 'examples', 'rules'), path.join(dir, 'rules'), { recursive: true });
    cpSync(path.join(repoRoot, 'examples', 'soccer', 'data'), path.join(dir, 'soccer', 'data'), { recursive: true });
    spec = path.join(dir, 'rules', 'rules.probe');
});
after(() => pg?.stop());

/** The group verdicts of the store's one run, as the store reads them back. */
async function groups(db: string) {
    const store = await openStore(db);
    try {
        const [run] = await store.listRuns();
        return { run: run!.id, groups: await store.groupVerdicts(run!.id) };
    } finally {
        await store.close();
    }
}

test(
    'a rule run (group ids with NUL) copies to PostgreSQL and back with every group verdict whole',
    { timeout: 300_000 },
    async t => {
        if (!pg) return t.skip('PostgreSQL is not installed here');
        const db = path.join(dir, 'rules.db');
        const run = await cli(['run', spec, '--db', db, '--yes'], {});
        assert.equal(run.code, 0, run.stderr);
        const want = await groups(db);
        assert.ok(
            want.groups.some(g => g.group.includes('\u0000')),
            "the rule family's group ids hold NUL",
        );
        pg.createDatabase('rules');
        const copied = await cli(['store', 'copy', db, pg.url('rules')], pg.env);
        assert.equal(copied.code, 0, copied.stdout + copied.stderr);
        const back = path.join(dir, 'back.db');
        assert.equal((await cli(['store', 'copy', pg.url('rules'), back], pg.env)).code, 0);
        assert.deepEqual(await groups(back), want, 'the same group verdicts, ids included, after the round trip');
        // Verifying again on the server (the verdicts are written there, ids and all) works too.
        const report = await cli(['report', '--db', pg.url('rules'), '--format', 'json'], pg.env);
        assert.equal(report.code, 0, report.stderr);
        const json = JSON.parse(report.stdout) as { questionGroups: { n: number }[] };
        assert.ok(json.questionGroups.reduce((n, g) => n + g.n, 0) > 0);
    },
);

test(
    'a store written before the fix (raw NUL in group ids) is migrated when opened, then copies to PostgreSQL',
    { timeout: 300_000 },
    async t => {
        if (!pg) return t.skip('PostgreSQL is not installed here');
        const db = path.join(dir, 'old.db');
        assert.equal((await cli(['run', spec, '--db', db, '--yes'], {})).code, 0);
        const want = await groups(db);
        // Put the store back as the old code wrote it: each group's id as is in `grp`, and no record of the migration.
        const raw = new Database(db);
        const rows = raw.prepare('SELECT rowid, json FROM group_verdicts').all() as { rowid: number; json: string }[];
        const set = raw.prepare('UPDATE group_verdicts SET grp = ? WHERE rowid = ?');
        for (const r of rows) set.run((JSON.parse(r.json) as { group: string }).group, r.rowid);
        assert.ok(
            (raw.prepare('SELECT COUNT(*) AS n FROM group_verdicts WHERE instr(grp, char(0)) > 0').get() as { n: number }).n > 0,
        );
        raw.prepare("DELETE FROM migrations WHERE name LIKE 'group ids%'").run();
        raw.close();
        pg.createDatabase('old');
        const copied = await cli(['store', 'copy', db, pg.url('old')], pg.env);
        assert.equal(copied.code, 0, copied.stdout + copied.stderr);
        assert.deepEqual(await groups(db), want);
        const back = path.join(dir, 'old-back.db');
        assert.equal((await cli(['store', 'copy', pg.url('old'), back], pg.env)).code, 0);
        assert.deepEqual(await groups(back), want);
        // Written again after the migration (a re-verify replaces the run's group verdicts): one row per group still.
        const store = await openStore(db);
        try {
            await store.saveGroupVerdicts(want.run, want.groups);
            assert.deepEqual(await store.groupVerdicts(want.run), want.groups);
        } finally {
            await store.close();
        }
    },
);
