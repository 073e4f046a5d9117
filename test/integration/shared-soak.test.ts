/**
 * The shared-run soak of issue 40 (item 4): four worker processes on one run of 2,000 questions in a PostgreSQL
 * store (started by the test), against the local OpenAI-compatible server. `npm run soak` runs the 10 rounds
 * (about 24 minutes on a loaded 2-core machine); inside `npm test` one round runs (HALLUPROBE_SOAK_ROUNDS), so that
 * the whole suite keeps within CI's 20 minutes while every commit still pauses and kills workers once.
 * In each round one worker is paused (SIGSTOP) while it holds chunks and continued (SIGCONT) only once every chunk
 * it held was taken over by another claim (or finished), and later another worker is SIGKILLed. Each round:
 * - every request the server received was counted in the store before it was sent (work_chunks.sent; over only
 *   by what the killed worker had counted and not sent yet), and the calls recorded account for all of them but
 *   what the killed worker had in flight;
 * - each question is answered once in the store, every chunk is done (none left claimed and unasked), the run is
 *   completed and verified by one worker;
 * - the paused worker sends nothing for the chunks taken from it: beyond the 2,000 questions, the server got at
 *   most what the two victims had in flight (concurrency 4 each).
 * The test waits on events (a request count at the server, the store's rows, process exits), never a fixed delay.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { startPostgres, type PostgresServer } from '../support/postgres.js';
import { startOpenAIServer } from '../support/openai-server.js';
import { bigSpec } from '../support/runner-fixtures.js';
import { cli, type Child } from '../support/cli-process.js';

const ROWS = 1_000; // two phrasings per row: 2,000 questions, one model, one sample
const QUESTIONS = 2 * ROWS;
const ROUNDS = Number(process.env.HALLUPROBE_SOAK_ROUNDS ?? 1);
const WORKERS = 4;
const CONCURRENCY = 4; // the fixture spec's
const LEASE_MS = 4_000;
/** The server's request numbers at which a worker is paused, and another killed. */
const PAUSE_AT = 500;
const KILL_AT = 1_300;

let db: PostgresServer | undefined;
before(async () => {
    db = await startPostgres();
});
after(() => db?.stop());

/** Resolves once `check` is true, looking at the store's rows every `everyMs`. */
async function until(check: () => Promise<boolean>, everyMs = 100): Promise<void> {
    while (!(await check())) await new Promise(r => setTimeout(r, everyMs));
}

test(
    `shared-run soak: ${ROUNDS} rounds of 4 workers on 2,000 questions, one paused past its leases and one killed per round`,
    { timeout: 60 * 60_000 },
    async t => {
        if (!db) return t.skip('PostgreSQL is not installed here');
        for (let round = 1; round <= ROUNDS; round++) {
            const name = `soak${round}`;
            db.createDatabase(name);
            const client: pg.Client = new pg.Client({
                host: '127.0.0.1',
                port: db.port,
                user: db.user,
                database: name,
                password: db.password,
            });
            await client.connect();
            const query = async <T>(sql: string, params: unknown[] = []): Promise<T[]> =>
                (await client.query(sql, params)).rows as T[];
            const stops = new Map<number, (signal?: NodeJS.Signals) => void>();
            const exited = new Set<number>();
            const actions: Promise<void>[] = [];
            let paused: { pid: number; chunks: number[] } | undefined;
            let killed: number | undefined;
            /** The live worker holding the most unfinished chunks, `not` excluded. */
            const busiest = async (not?: number) => {
                const holders = await query<{ pid: number }>(
                    'SELECT pid, COUNT(*) AS n FROM work_chunks WHERE done = 0 AND holder IS NOT NULL GROUP BY pid ORDER BY 2 DESC',
                );
                return holders.map(h => Number(h.pid)).find(pid => stops.has(pid) && pid !== not && !exited.has(pid));
            };
            const pause = async () => {
                const pid = (await busiest())!;
                stops.get(pid)!('SIGSTOP');
                const held = await query<{ chunk: number; fence: string }>(
                    'SELECT chunk, fence FROM work_chunks WHERE pid = $1 AND done = 0 AND holder IS NOT NULL',
                    [pid],
                );
                paused = { pid, chunks: held.map(h => Number(h.chunk)) };
                // Continued once every chunk it held has another claim (after its leases lapsed) or is done.
                await until(
                    async () =>
                        Number(
                            (
                                await query<{ n: string }>(
                                    'SELECT COUNT(*) AS n FROM work_chunks WHERE done = 0 AND fence = ANY($1)',
                                    [held.map(h => h.fence)],
                                )
                            )[0]!.n,
                        ) === 0,
                );
                stops.get(pid)!('SIGCONT');
            };
            const kill = async () => {
                const pid = await busiest(paused?.pid);
                if (pid === undefined) return;
                killed = pid;
                stops.get(pid)!('SIGKILL');
            };
            const server = await startOpenAIServer({
                latencyMs: 5,
                answer: info => {
                    if (info.n === PAUSE_AT) actions.push(pause());
                    if (info.n === KILL_AT) actions.push(kill());
                    return 'Yes.';
                },
            });
            try {
                const spec = bigSpec(server.url, ROWS);
                const env = { OPENAI_API_KEY: 'sk-soak-run', HALLUPROBE_LEASE_STALE_MS: String(LEASE_MS), ...db.env };
                const args = ['run', spec, '--db', db.url(name), '--join', '--yes'];
                const workers: Promise<Child>[] = [];
                for (let i = 0; i < WORKERS; i++) {
                    let pid = 0;
                    workers.push(
                        cli(args, env, (stop, p) => {
                            pid = p;
                            stops.set(p, stop);
                        }).then(c => {
                            exited.add(pid);
                            return c;
                        }),
                    );
                }
                const ended = await Promise.all(workers);
                await Promise.all(actions);
                assert.ok(paused && paused.chunks.length > 0, `round ${round}: the paused worker held chunks`);
                assert.ok(killed !== undefined, `round ${round}: a worker was killed`);
                const dead = ended.filter(c => c.signal === 'SIGKILL');
                assert.equal(dead.length, 1, `round ${round}: one worker killed`);
                for (const c of ended.filter(x => x.signal !== 'SIGKILL')) assert.equal(c.code, 0, `round ${round}: ${c.stderr}`);

                const [n] = await query<Record<string, string>>(`SELECT
                (SELECT COUNT(*) FROM questions) AS questions, (SELECT COUNT(*) FROM responses) AS responses,
                (SELECT COUNT(DISTINCT (question, model, sample)) FROM responses) AS slots,
                (SELECT COALESCE(SUM(sent), 0) FROM work_chunks) AS sent, (SELECT COALESCE(SUM(attempts), 0) FROM calls WHERE status <> 'cached') AS attempts,
                (SELECT COUNT(*) FROM work_chunks WHERE done = 0) AS open, (SELECT COUNT(*) FROM work_chunks) AS chunks,
                (SELECT COUNT(*) FROM verdicts) AS verdicts, (SELECT status FROM runs) AS status`);
                const requests = server.requests;
                // Counted before it is sent: a request the server got is never missing from the count, and the count is
                // over only by what the killed worker had counted and not yet sent when it died.
                assert.ok(
                    Number(n!.sent) >= requests && Number(n!.sent) - requests <= CONCURRENCY,
                    `round ${round}: ${requests} requests, ${n!.sent} counted in the store first`,
                );
                assert.ok(
                    Number(n!.attempts) <= requests && requests - Number(n!.attempts) <= CONCURRENCY,
                    `round ${round}: calls recorded ${n!.attempts} of ${requests} requests (only the killed worker's in-flight ones missing)`,
                );
                assert.deepEqual(
                    [n!.questions, n!.responses, n!.slots, n!.verdicts].map(Number),
                    [QUESTIONS, QUESTIONS, QUESTIONS, QUESTIONS],
                    `round ${round}: each question answered once`,
                );
                assert.equal(Number(n!.open), 0, `round ${round}: no chunk left unasked`);
                assert.equal(n!.status, 'completed');
                assert.ok(
                    requests - QUESTIONS <= 2 * CONCURRENCY,
                    `round ${round}: ${requests} requests for ${QUESTIONS} questions`,
                );
                assert.equal(
                    ended.filter(c => /Verified 2000 answers/.test(c.stdout)).length,
                    1,
                    `round ${round}: verified by one worker`,
                );
                t.diagnostic(
                    `round ${round}: ${requests} requests, ${n!.sent} counted before sending, ${n!.attempts} in calls; paused pid ${paused.pid} holding ${paused.chunks.length} chunks; killed pid ${killed}`,
                );
            } finally {
                for (const [pid, stop] of stops) if (!exited.has(pid)) stop('SIGKILL');
                await client.end();
                await server.close();
            }
        }
    },
);
