/**
 * The PostgreSQL store's server restarting mid-run (issue 40, item 5): the store waits for it and makes the
 * statements it dropped again, so the run finishes with nothing lost, asked or paid twice — one process, and two
 * workers of a shared run. A server that stays away past the reconnect time ends the run as a full disk does: the
 * answers it could not write are held, then named as lost, and the exit code is 1 (not 70). Real CLI processes,
 * the local OpenAI-compatible server and the PostgreSQL the test starts; waits are on events (requests reaching the
 * server, pg_ctl returning, process exits).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startPostgres, type PostgresServer } from '../support/postgres.js';
import { startOpenAIServer } from '../support/openai-server.js';
import { bigSpec } from '../support/runner-fixtures.js';
import { cli, type Child } from '../support/cli-process.js';

const ROWS = 300; // 600 questions
const QUESTIONS = 2 * ROWS;

let db: PostgresServer | undefined;
before(async () => {
    db = await startPostgres();
});
after(() => db?.stop());

/** What the run's database holds: questions, responses, answered calls, calls per answered slot at most, run status, verdicts. */
function stored(name: string) {
    const [questions, responses, ok, most, status, verdicts] = db!
        .sql(
            name,
            `SELECT (SELECT COUNT(*) FROM questions) || '|' || (SELECT COUNT(*) FROM responses) || '|'
        || (SELECT COUNT(*) FROM calls WHERE status = 'ok') || '|' || (SELECT COALESCE(MAX(n), 0) FROM (SELECT COUNT(*) AS n FROM calls WHERE status = 'ok' GROUP BY question, model, sample) c)
        || '|' || (SELECT string_agg(status, ',') FROM runs) || '|' || (SELECT COUNT(*) FROM verdicts)`,
        )
        .trim()
        .split('|');
    return {
        questions: Number(questions),
        responses: Number(responses),
        ok: Number(ok),
        most: Number(most),
        status,
        verdicts: Number(verdicts),
    };
}

for (const workers of [1, 2]) {
    test(
        `the server restarts mid-run (${workers === 1 ? 'one process' : 'a shared run of two workers'}): the run finishes, every answer stored once, none asked twice`,
        { timeout: 600_000 },
        async t => {
            if (!db) return t.skip('PostgreSQL is not installed here');
            const name = `restart${workers}`;
            db.createDatabase(name);
            let restarted: Promise<void> | undefined;
            // A third of the way through, the server is shut down (as an operator or a failover does) and started again.
            const server = await startOpenAIServer({
                latencyMs: 5,
                answer: info => {
                    if (info.n === Math.round(QUESTIONS / 3)) restarted = db!.shutdown().then(() => db!.restart());
                    return 'Yes.';
                },
            });
            try {
                const spec = bigSpec(server.url, ROWS);
                const args = ['run', spec, '--db', db.url(name), '--yes', ...(workers > 1 ? ['--join'] : [])];
                const ended = await Promise.all(
                    Array.from({ length: workers }, () => cli(args, { OPENAI_API_KEY: 'sk-restart', ...db!.env })),
                );
                assert.ok(restarted, 'the server was restarted mid-run');
                await restarted;
                for (const c of ended) assert.equal(c.code, 0, c.stdout + c.stderr);
                assert.deepEqual(stored(name), {
                    questions: QUESTIONS,
                    responses: QUESTIONS,
                    ok: QUESTIONS,
                    most: 1,
                    status: 'completed',
                    verdicts: QUESTIONS,
                });
                assert.equal(server.requests, QUESTIONS, 'each question asked once');
            } finally {
                await server.close();
            }
        },
    );
}

test(
    'the server stays away past the reconnect time: the answers in hand are held, then named as lost; exit 1, and a resume finishes',
    { timeout: 600_000 },
    async t => {
        if (!db) return t.skip('PostgreSQL is not installed here');
        const name = 'away';
        db.createDatabase(name);
        let down: Promise<void> | undefined;
        const server = await startOpenAIServer({
            latencyMs: 5,
            answer: info => {
                if (info.n === 100) down = db!.shutdown();
                return 'Yes.';
            },
            // The answers asked from the 100th on come once the server is down: they are in hand and cannot be written
            // (on a busy machine the ones in flight were otherwise all written before the shutdown ended).
            hold: info => (info.n >= 100 ? down : undefined),
        });
        try {
            const spec = bigSpec(server.url, ROWS);
            const args = ['run', spec, '--db', db.url(name), '--yes'];
            const env = { OPENAI_API_KEY: 'sk-restart', HALLUPROBE_STORE_RECONNECT_MS: '2000', ...db.env };
            const away: Child = await cli(args, env);
            await down;
            assert.equal(away.code, 1, away.stdout + away.stderr);
            assert.match(away.stderr, /did not come back within 2 s/);
            assert.match(away.stderr, /answers? paid for could not be written and (is|are) lost: movie_binary\//);
            assert.match(away.stderr, /Check that the PostgreSQL server is up/);
            const asked = server.requests;
            assert.ok(asked < QUESTIONS, 'no new questions were asked once the store was gone');
            await db.restart();
            const resumed = await cli(args, env);
            assert.equal(resumed.code, 0, resumed.stderr);
            const s = stored(name);
            assert.deepEqual([s.questions, s.responses, s.status, s.verdicts], [QUESTIONS, QUESTIONS, 'completed', QUESTIONS]);
        } finally {
            await server.close();
        }
    },
);
