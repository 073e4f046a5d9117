/**
 * Four worker processes on one run of 2,000 slots in a PostgreSQL store (started by the test), against the local
 * OpenAI-compatible server; one worker is SIGKILLed half-way, while it holds chunks. Every slot is answered
 * exactly once, the dead worker's chunks are taken over only after their lease lapsed, and only what it had in
 * flight when it died was asked a second time. The test waits on events (a request count at the server, the
 * store's state, process exits), never on a fixed delay.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { startPostgres, type PostgresServer } from '../support/postgres.js';
import { startOpenAIServer, type TestServer } from '../support/openai-server.js';
import { bigSpec } from '../support/runner-fixtures.js';
import { cli, type Child } from '../support/cli-process.js';

const ROWS = 1_000; // two phrasings per row: 2,000 questions, one model, one sample
const LEASE_MS = 5_000;
const WORKERS = 4;

let db: PostgresServer | undefined;
before(async () => {
    db = await startPostgres();
    db?.createDatabase('shared');
});
after(() => db?.stop());

test(
    'four workers on one run, one SIGKILLed mid-way: every slot answered once, its chunks taken over after their lease',
    { timeout: 600_000 },
    async t => {
        if (!db) return t.skip('PostgreSQL is not installed here');
        const url = db.url('shared');
        const client = new pg.Client({
            host: '127.0.0.1',
            port: db.port,
            user: db.user,
            database: 'shared',
            password: db.password,
        });
        await client.connect();
        const query = async <T>(sql: string, params: unknown[] = []) => (await client.query(sql, params)).rows as T[];
        let killed: { pid: number; chunks: { chunk: number; expires: number }[] } | undefined;
        let onKilled: () => void = () => undefined;
        const killedNow = new Promise<void>(resolve => {
            onKilled = resolve;
        });
        const stops = new Map<number, (signal?: NodeJS.Signals) => void>();
        // Half-way through (the 1,000th request reaches the server), the worker holding the most unfinished chunks dies.
        const server: TestServer = await startOpenAIServer({
            latencyMs: 15,
            answer: info => {
                if (info.n === 1_000) void kill();
                return 'Yes.';
            },
        });
        async function kill(): Promise<void> {
            const holders = await query<{ pid: number; n: string }>(
                'SELECT pid, COUNT(*) AS n FROM work_chunks WHERE done = 0 AND holder IS NOT NULL GROUP BY pid ORDER BY 2 DESC',
            );
            const victim = holders.map(h => Number(h.pid)).find(pid => stops.has(pid))!;
            stops.get(victim)!('SIGKILL');
            // What it held when it died, with its leases' ends on the server's clock.
            const chunks = await query<{ chunk: number; expires: string }>(
                'SELECT chunk, expires FROM work_chunks WHERE pid = $1 AND done = 0',
                [victim],
            );
            killed = { pid: victim, chunks: chunks.map(c => ({ chunk: c.chunk, expires: Number(c.expires) })) };
            onKilled();
        }
        try {
            const spec = bigSpec(server.url, ROWS);
            const env = { OPENAI_API_KEY: 'sk-shared-run', HALLUPROBE_LEASE_STALE_MS: String(LEASE_MS), ...db.env };
            const args = ['run', spec, '--db', url, '--join', '--yes'];
            const workers: Promise<Child>[] = [];
            for (let i = 0; i < WORKERS; i++) workers.push(cli(args, env, (stop, pid) => stops.set(pid, stop)));
            const ended = await Promise.all(workers);
            await killedNow;
            assert.ok(killed && killed.chunks.length > 0, 'the dead worker held chunks');
            const dead = ended.filter(c => c.signal === 'SIGKILL');
            const alive = ended.filter(c => c.signal !== 'SIGKILL');
            assert.equal(dead.length, 1);
            for (const c of alive) assert.equal(c.code, 0, c.stderr);

            // Every slot answered, each exactly once: one response and one answered call per question.
            const [counts] = await query<{ questions: string; responses: string; ok: string; doubled: string }>(`SELECT
            (SELECT COUNT(*) FROM questions) AS questions, (SELECT COUNT(*) FROM responses) AS responses,
            (SELECT COUNT(*) FROM calls WHERE status = 'ok') AS ok,
            (SELECT COUNT(*) FROM (SELECT question FROM calls WHERE status = 'ok' GROUP BY question, model, sample HAVING COUNT(*) > 1) d) AS doubled`);
            assert.deepEqual([counts!.questions, counts!.responses, counts!.ok, counts!.doubled].map(Number), [
                2 * ROWS,
                2 * ROWS,
                2 * ROWS,
                0,
            ]);
            const [run] = await query<{ status: string }>('SELECT status FROM runs');
            assert.equal(run!.status, 'completed');
            assert.equal(
                Number((await query<{ n: string }>('SELECT COUNT(*) AS n FROM verdicts'))[0]!.n),
                2 * ROWS,
                'verified, by one worker',
            );
            assert.equal(
                alive.filter(c => /Verified 2000 answers/.test(c.stdout)).length,
                1,
                alive.map(c => c.stdout).join('\n---\n'),
            );

            // The dead worker's chunks: finished by others, each taken over once its lease had lapsed.
            const chunks = await query<{ chunk: number; pid: number; done: number; claimed: string; takeovers: number }>(
                'SELECT chunk, pid, done, claimed, takeovers FROM work_chunks ORDER BY chunk',
            );
            assert.ok(
                chunks.every(c => c.done === 1),
                'every chunk done',
            );
            for (const k of killed.chunks) {
                const c = chunks.find(x => x.chunk === k.chunk)!;
                assert.notEqual(c.pid, killed.pid, `chunk ${k.chunk} finished by another worker`);
                assert.equal(c.takeovers, 1, `chunk ${k.chunk} taken over`);
                assert.ok(
                    Number(c.claimed) >= k.expires,
                    `chunk ${k.chunk} taken at ${c.claimed}, after its lease ended at ${k.expires}`,
                );
            }
            assert.ok(new Set(chunks.map(c => c.pid)).size >= 2, 'the work was shared');

            // Asked twice: only requests the dead worker had in flight (concurrency 4), all in its chunks.
            const twice = [...server.byQuestion].filter(([, n]) => n > 1).map(([q]) => q);
            assert.ok(twice.length <= 4, `asked twice: ${twice.length}`);
            const deadSeqs = killed.chunks.map(k => k.chunk);
            const inDead = await query<{ question: string }>(
                `SELECT json::json->'messages'->-1->>'content' AS question FROM questions q JOIN work_chunks w ON w.run = q.run
            AND q.seq BETWEEN w.first_seq AND w.last_seq WHERE w.chunk = ANY($1::int[])`,
                [deadSeqs],
            );
            const deadQuestions = new Set(inDead.map(r => r.question));
            for (const q of twice) assert.ok(deadQuestions.has(q), `asked twice outside the dead worker's chunks: ${q}`);
            const waited = killed.chunks.map(k => Number(chunks.find(x => x.chunk === k.chunk)!.claimed) - k.expires);
            t.diagnostic(
                `chunks ${chunks.length}; the dead worker held ${killed.chunks.length}, taken over ${Math.min(...waited)}–${Math.max(...waited)} ms after their leases ended; ` +
                    `chunks per worker ${JSON.stringify(Object.fromEntries([...new Set(chunks.map(c => c.pid))].map(p => [p, chunks.filter(c => c.pid === p).length])))}; asked twice ${twice.length}`,
            );
        } finally {
            await client.end();
            await server.close();
        }
    },
);
