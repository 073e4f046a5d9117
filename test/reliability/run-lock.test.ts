// Item 2 of issue 11: two runs of the same spec and store at once never ask the same slot twice.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { spawn } from 'node:child_process';
import Database from 'better-sqlite3';
import { startOpenAIServer } from '../support/openai-server.js';
import { tempStore, writeSpec } from '../support/runner-fixtures.js';
import { cli } from '../support/cli-process.js';
import { SqliteStore } from '../../src/core/store/index.js';

test('two CLI runs of one spec and store started together: every question is asked once, the second writer refuses', async () => {
    const server = await startOpenAIServer({ latencyMs: 60 });
    try {
        const spec = writeSpec(server.url);
        const db = path.join(path.dirname(spec), 'results.db');
        const env = { OPENAI_API_KEY: 'sk-test-lock-key' };
        const [a, b] = await Promise.all([cli(['run', spec, '--db', db, '--no-verify', '--yes'], env), cli(['run', spec, '--db', db, '--no-verify', '--yes'], env)]);
        const twice = [...server.byQuestion].filter(([, n]) => n > 1);
        assert.deepEqual(twice, [], `asked twice: ${twice.length} of ${server.byQuestion.size}`);
        assert.equal(server.byQuestion.size, 80);
        // Both overlapped (the run takes seconds): one of them refused with the lease message.
        const refused = [a, b].filter(r => /is being written by another HalluProbe \(pid \d+/.test(r.stderr));
        const finished = [a, b].filter(r => r.code === 0);
        assert.equal(refused.length + finished.length, 2, `${a.stderr}\n---\n${b.stderr}`);
        assert.ok(finished.length >= 1);
        const conn = new Database(db, { readonly: true });
        assert.equal((conn.prepare('SELECT COUNT(*) AS n FROM run_leases').get() as { n: number }).n, 0, 'the lease is released at the end');
        conn.close();
    } finally {
        await server.close();
    }
});

test('a lease is free once its process is gone or its heartbeat is stale', async () => {
    const first = tempStore();
    const run = (await first.createRun('/s.probe', 's', {})).id;
    assert.equal(await first.acquireLease(run), undefined);
    const second = new SqliteStore(first.file);
    try {
        assert.equal((await second.acquireLease(run))?.pid, process.pid, 'a live holder is reported');
        // A process that died (here: a finished child) leaves a lease that is free at once.
        const child = spawn(process.execPath, ['-e', '0']);
        const pid = await new Promise<number>(resolve => child.on('exit', () => resolve(child.pid!)));
        second.db.prepare('UPDATE run_leases SET pid = ? WHERE run = ?').run(pid, run);
        assert.equal(await second.acquireLease(run), undefined);
        // A holder on another host counts until its heartbeat is older than the timeout.
        second.db.prepare("UPDATE run_leases SET host = 'elsewhere', token = 'x', heartbeat = ? WHERE run = ?").run(Date.now(), run);
        assert.equal((await first.acquireLease(run))?.host, 'elsewhere');
        second.db.prepare('UPDATE run_leases SET heartbeat = 0 WHERE run = ?').run(run);
        assert.equal(await first.acquireLease(run), undefined);
    } finally {
        await second.close();
        await first.close();
    }
});
