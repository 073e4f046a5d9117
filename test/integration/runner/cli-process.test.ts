import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import Database from 'better-sqlite3';
import { startOpenAIServer } from '../../support/openai-server.js';
import { writeSpec } from '../../support/runner-fixtures.js';
import { cli } from '../../support/cli-process.js';

function userTexts(db: string): Map<string, string> {
    const conn = new Database(db, { readonly: true });
    try {
        const rows = conn
            .prepare('SELECT q.json FROM responses r JOIN questions q ON q.run = r.run AND q.id = r.question')
            .all() as { json: string }[];
        return new Map(
            rows.map(r => {
                const q = JSON.parse(r.json) as { id: string; messages: { role: string; content: string }[] };
                return [q.messages.filter(m => m.role === 'user').at(-1)!.content, q.id];
            }),
        );
    } finally {
        conn.close();
    }
}

test('SIGKILL mid-run, then run again: no answered question is asked twice, nothing received is lost', async () => {
    const server = await startOpenAIServer({ latencyMs: 15 });
    try {
        const spec = writeSpec(server.url);
        const db = path.join(path.dirname(spec), 'results.db');
        const env = { OPENAI_API_KEY: 'sk-test-resume-key' };
        const killed = await cli(['run', spec, '--db', db, '--yes'], env, stop => {
            const poll = setInterval(() => {
                if (server.completed >= 20) {
                    clearInterval(poll);
                    stop();
                }
            }, 2);
        });
        assert.equal(killed.signal, 'SIGKILL', killed.stderr);
        const before = new Map(server.byQuestion);
        const answeredBefore = userTexts(db);
        assert.ok(answeredBefore.size >= 16 && answeredBefore.size < 80, `answered before the kill: ${answeredBefore.size}`);
        // Answers the server sent and the CLI had time to read are in the store (at most the 4 in flight are not).
        assert.ok(answeredBefore.size >= server.completed - 4);

        const resumed = await cli(['run', spec, '--db', db, '--yes', '--format', 'json'], env);
        assert.equal(resumed.code, 0, resumed.stderr);
        const summary = JSON.parse(resumed.stdout) as { counts: { answered: number; failed: number; questions: number } };
        assert.deepEqual([summary.counts.answered, summary.counts.failed, summary.counts.questions], [80, 0, 80]);
        for (const text of answeredBefore.keys()) {
            assert.equal(server.byQuestion.get(text), before.get(text), `asked again after the resume: ${text}`);
        }
        assert.equal(server.byQuestion.size, 80);
        assert.ok(
            [...server.byQuestion.values()].every(n => n <= 2),
            'at most the in-flight calls of the killed run are repeated',
        );
        const conn = new Database(db, { readonly: true });
        assert.equal(
            (conn.prepare('SELECT COUNT(*) AS n FROM runs').get() as { n: number }).n,
            1,
            'the unfinished run was continued, not restarted',
        );
        conn.close();
    } finally {
        await server.close();
    }
});

test('a key from the environment appears nowhere in the store, its WAL, the output or the run list', async () => {
    const key = 'sk-HALLUPROBE-distinctive-fake-key-5e1f0c7a';
    const server = await startOpenAIServer({
        apiKey: key,
        fault: i => (i.question.includes('Actor 7 ') ? 'server_error' : undefined),
    });
    try {
        const spec = writeSpec(server.url);
        const db = path.join(path.dirname(spec), 'results.db');
        const run = await cli(['run', spec, '--db', db, '--yes', '--limit', '20'], { OPENAI_API_KEY: key });
        assert.ok(
            server.log.length > 0 && server.log.every(r => r.authorization === `Bearer ${key}`),
            'the key was sent to the server',
        );
        const list = await cli(['runs', '--db', db, '--format', 'json'], {});
        const runs = JSON.parse(list.stdout) as {
            status: string;
            counts: { answered: number; failed: number; questions: number };
        }[];
        assert.equal(runs.length, 1);
        assert.equal(
            runs[0]!.counts.answered + runs[0]!.counts.failed,
            runs[0]!.counts.questions,
            'answers + errors = questions',
        );
        assert.ok(runs[0]!.counts.failed >= 1);
        const refused = await cli(['run', spec, '--db', path.join(path.dirname(spec), 'other.db'), '--limit', '2'], {
            OPENAI_API_KEY: key,
        });
        assert.equal(refused.code, 1, 'without --yes (and no terminal to ask) the key is not sent to a host it is not meant for');
        assert.match(refused.stderr, /HALLUPROBE_TRUSTED_HOSTS/);
        const outputs = [run.stdout, run.stderr, list.stdout, list.stderr, refused.stdout, refused.stderr];
        for (const o of outputs) assert.ok(!o.includes(key), 'key in printed output');
        const files = [db, `${db}-wal`, `${db}-shm`].filter(f => existsSync(f));
        assert.ok(files.length >= 1);
        for (const f of files) assert.ok(!readFileSync(f).includes(Buffer.from(key)), `key in ${path.basename(f)}`);
        assert.match(run.stdout + run.stderr, /failed/, 'the failing question went through the error path too');
    } finally {
        await server.close();
    }
});

test('Ctrl-C stops new calls, keeps what was answered, and says how to resume', async () => {
    const server = await startOpenAIServer({ latencyMs: i => (i.n <= 12 ? 10 : 60_000) });
    try {
        const spec = writeSpec(server.url);
        const db = path.join(path.dirname(spec), 'results.db');
        let atInterrupt = -1;
        const stopped = await cli(['run', spec, '--db', db, '--yes'], { OPENAI_API_KEY: 'sk-test-interrupt' }, stop => {
            const poll = setInterval(() => {
                if (server.requests < 16) return;
                clearInterval(poll);
                atInterrupt = server.requests;
                stop('SIGINT');
            }, 5);
        });
        assert.equal(stopped.code, 1, stopped.stderr);
        assert.equal(server.requests, atInterrupt, 'no request after the interrupt');
        assert.match(stopped.stderr, /Stopping: no new calls/);
        assert.match(stopped.stdout, /cancelled[\s\S]*12 answers[\s\S]*--resume/);
        const conn = new Database(db, { readonly: true });
        assert.equal((conn.prepare('SELECT status FROM runs').get() as { status: string }).status, 'cancelled');
        conn.close();
    } finally {
        await server.close();
    }
});
