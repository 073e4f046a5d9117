/**
 * Shared runs (issue 40, item 4), one worker in this process against the local OpenAI-compatible server and a
 * SQLite store (the shared-run soak on PostgreSQL is shared-soak.test.ts):
 * - a worker whose chunk was taken over while it waited to retry sends no retry for it (the claim's fencing token
 *   is checked in the store before every request, and every request is counted there);
 * - a claim the worker dropped (it believed it lost) is not kept alive by its heartbeat: the chunk lapses and is
 *   claimed again, and the run finishes (before: the heartbeat renewed every chunk naming the worker, so a chunk
 *   it had dropped stayed claimed and never asked, and the run never ended).
 * Waits are on events: the run's end, the server's requests.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { executeSharedRun } from '../../../src/core/run/shared.js';
import type { Store } from '../../../src/core/store/index.js';
import { startOpenAIServer } from '../../support/openai-server.js';
import { movieQuestions } from '../../support/questions.js';
import { newRun, serverModel, tempStore } from '../../support/runner-fixtures.js';

const QUESTIONS = 120; // three chunks of 50, 50 and 20

async function sharedRun(store: Store, n = QUESTIONS) {
    const questions = movieQuestions(n, 'f');
    const runId = await newRun(store, questions);
    await store.chunks.addChunks(runId, n);
    return { runId, questions };
}

test(
    'a chunk taken over while its worker waits to retry: the retry is not sent (fencing token), and every request is counted',
    { timeout: 120_000 },
    async () => {
        const store = tempStore();
        const { runId, questions } = await sharedRun(store);
        const raw = new Database(store.location);
        const target = questions[3]!.question;
        const now = "CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)";
        // A claim by another worker writes its own fencing token (the code before fencing tokens had only `holder`).
        const fenced = (raw.prepare('PRAGMA table_info(work_chunks)').all() as { name: string }[]).some(c => c.name === 'fence');
        let whileOther = 0;
        const server = await startOpenAIServer({
            // The first request for the target fails (a retryable 500); as it does, another worker takes its chunk over
            // (as after this worker's lease lapsed), holding it for 2 s.
            error: info => {
                if (info.question !== target) return undefined;
                const other = raw
                    .prepare(
                        `SELECT COUNT(*) AS n FROM work_chunks WHERE run = ? AND chunk = 0 AND holder = 'other' AND expires > ${now}`,
                    )
                    .get(runId) as { n: number };
                if (other.n > 0) whileOther++;
                if (info.attempt > 1) return undefined;
                raw.prepare(
                    `UPDATE work_chunks SET holder = 'other', ${fenced ? "fence = 'other', " : ''}expires = ${now} + 2000, takeovers = takeovers + 1 WHERE run = ? AND chunk = 0`,
                ).run(runId);
                return { status: 500, message: 'try again' };
            },
        });
        try {
            const out = await executeSharedRun({
                store,
                runId,
                models: [serverModel(server.url, { retries: 3 })],
                retry: { baseMs: 20, maxMs: 50 },
                shared: {
                    leaseMs: 30_000,
                    pollMs: 100,
                    generate: async function* () {
                        /* stored above */
                    },
                },
            });
            assert.equal(out.status, 'completed');
            assert.equal(whileOther, 0, 'no request for the chunk was sent while another worker held it');
            const counts = await store.counts(runId);
            assert.equal(counts.answered, QUESTIONS);
            const sent = (raw.prepare('SELECT SUM(sent) AS n FROM work_chunks WHERE run = ?').get(runId) as { n: number }).n;
            assert.equal(sent, server.requests, 'the store counted every request sent');
            assert.equal(server.byQuestion.get(target), 2, "the target: its failed request, then once by the chunk's next claim");
        } finally {
            raw.close();
            await server.close();
            await store.close();
        }
    },
);

test(
    'a claim the worker dropped lapses and is claimed again: the run ends with every slot answered',
    { timeout: 120_000 },
    async () => {
        const store = tempStore();
        const { runId } = await sharedRun(store);
        // The heartbeat's first answer arrives stale (as when it raced a claim): it names none of the worker's claims.
        let stale = true;
        const chunks = new Proxy(store.chunks, {
            get(target, prop, receiver) {
                const value = Reflect.get(target, prop, receiver) as unknown;
                if (prop !== 'renew' || typeof value !== 'function')
                    return typeof value === 'function' ? value.bind(target) : value;
                return async (...args: unknown[]) => {
                    const held = await (value as (...a: unknown[]) => Promise<Set<unknown>>).apply(target, args);
                    if (!stale || held.size === 0) return held;
                    stale = false;
                    return new Set();
                };
            },
        });
        const shared = new Proxy(store, {
            get: (target, prop, receiver) => (prop === 'chunks' ? chunks : (Reflect.get(target, prop, receiver) as unknown)),
        }) as Store;
        // Slow enough that the heartbeat beats while the first chunk is being asked.
        const server = await startOpenAIServer({ latencyMs: 20 });
        try {
            const out = await executeSharedRun({
                store: shared,
                runId,
                models: [serverModel(server.url)],
                shared: {
                    leaseMs: 600,
                    pollMs: 50,
                    generate: async function* () {
                        /* stored above */
                    },
                },
            });
            assert.equal(stale, false, 'the stale answer was given');
            assert.equal(out.status, 'completed');
            assert.deepEqual(await store.chunks.state(runId), { total: 3, done: 3, held: 0, free: 0 });
            assert.equal((await store.counts(runId)).answered, QUESTIONS);
        } finally {
            await server.close();
            await store.close();
        }
    },
);
