// Item 2 of issue 11: two runs of the same spec and store at once never ask the same slot twice. (The lease itself,
// stale or live, is tested on both store engines in test/unit/store/store.test.ts.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import Database from 'better-sqlite3';
import { startOpenAIServer } from '../support/openai-server.js';
import { writeSpec } from '../support/runner-fixtures.js';
import { cli } from '../support/cli-process.js';

test('two CLI runs of one spec and store started together: every question is asked once, the second writer refuses', async () => {
    const server = await startOpenAIServer({ latencyMs: 60 });
    try {
        const spec = writeSpec(server.url);
        const db = path.join(path.dirname(spec), 'results.db');
        const env = { OPENAI_API_KEY: 'sk-test-lock-key' };
        const [a, b] = await Promise.all([
            cli(['run', spec, '--db', db, '--no-verify', '--yes'], env),
            cli(['run', spec, '--db', db, '--no-verify', '--yes'], env),
        ]);
        const twice = [...server.byQuestion].filter(([, n]) => n > 1);
        assert.deepEqual(twice, [], `asked twice: ${twice.length} of ${server.byQuestion.size}`);
        assert.equal(server.byQuestion.size, 80);
        // Both overlapped (the run takes seconds): one of them refused with the lease message.
        const refused = [a, b].filter(r => /is being written by another HalluProbe \(pid \d+/.test(r.stderr));
        const finished = [a, b].filter(r => r.code === 0);
        assert.equal(refused.length + finished.length, 2, `${a.stderr}\n---\n${b.stderr}`);
        assert.ok(finished.length >= 1);
        const conn = new Database(db, { readonly: true });
        assert.equal(
            (conn.prepare('SELECT COUNT(*) AS n FROM run_leases').get() as { n: number }).n,
            0,
            'the lease is released at the end',
        );
        conn.close();
    } finally {
        await server.close();
    }
});
