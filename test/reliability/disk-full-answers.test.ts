// Issue 29, item 7: when the disk fills during a run, the answers already paid for but not yet written were lost
// (~16 in-flight answers), and other workers went on calling. Now the first write that fails stops new calls; the
// answers still arriving are held in memory and written as soon as the store takes writes again (the run says so
// and waits a while for space); a user who gives up (Ctrl-C) is told exactly which paid answers were lost.
// Real: a small tmpfs holding the store (mounted as root, as the exit-codes test does), the CLI in its own process,
// and a local OpenAI-compatible server that counts what it answered.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { startOpenAIServer, type TestServer } from '../support/openai-server.js';
import { writeSpec, tempDir } from '../support/runner-fixtures.js';
import { cli } from '../support/cli-process.js';
import { within } from '../support/lsp-process.js';
import { openStore, slotKey } from '../../src/core/store/index.js';

const mount = (dir: string, options: string) =>
    spawnSync('mount', ['-t', 'tmpfs', '-o', options, 'tmpfs', dir], { encoding: 'utf8' }).status === 0;
/** What the store of `db` holds: answers (from the endpoint, not the cache) per run. */
async function stored(db: string): Promise<{ run: string; answers: number }> {
    const store = await openStore(db);
    try {
        const run = (await store.latestRun())!;
        return { run: run.id, answers: (await store.answered(run.id)).size };
    } finally {
        await store.close();
    }
}

/** Rejects when the run ends before it said it holds answers. */
const ended = (run: ReturnType<typeof cli>) =>
    run.then(r => {
        throw new Error(`the run ended (exit ${r.code}) without holding answers:\n${r.stdout}${r.stderr}`);
    });

describe('a run on a disk that fills up', { timeout: 240_000 }, () => {
    let server: TestServer;
    // Long answers, slowly: several calls are in flight when a write fails.
    before(async () => {
        server = await startOpenAIServer({ answer: () => `Yes. ${'padding '.repeat(400)}`, latencyMs: 150 });
    });
    after(async () => {
        await server.close();
    });

    /** A 4 MB tmpfs with most of it taken by a filler file, and a spec asking 80 questions on 4 connections. */
    function setUp(t: { skip(message: string): void }): { dir: string; spec: string; db: string; filler: string } | undefined {
        const dir = tempDir('hp-disk-full-');
        if (!mount(dir, 'size=4m')) {
            t.skip('cannot mount a tmpfs here (needs root): the full-disk case is not exercised');
            return undefined;
        }
        const filler = path.join(dir, 'filler');
        fs.writeFileSync(filler, Buffer.alloc(2_900_000));
        const spec = writeSpec(server.url);
        fs.writeFileSync(spec, fs.readFileSync(spec, 'utf8').replace(/sample \w+.*/, 'sample all'));
        server.reset();
        return { dir, spec, db: path.join(dir, 'r.db'), filler };
    }

    it('holds the answers still arriving, writes them when space is freed, and a resume asks only the rest', async t => {
        const s = setUp(t);
        if (!s) return;
        try {
            let freed = false;
            let held!: () => void;
            const holding = new Promise<void>(resolve => {
                held = resolve;
            });
            const run = cli(['run', s.spec, '--db', s.db, '--yes'], { OPENAI_API_KEY: 'sk-x' }, undefined, undefined, err => {
                if (!freed && /held in memory/.test(err)) {
                    freed = true;
                    held();
                }
            });
            await within(Promise.race([holding, ended(run)]), 120_000, 'the run saying it holds answers');
            fs.rmSync(s.filler);
            const r = await run;
            const text = r.stdout + r.stderr;
            assert.equal(r.code, 1, text);
            assert.match(text, /disk is full|disk holding .* is full/, text);
            assert.match(text, /have been written/, text);
            assert.doesNotMatch(text, /internal error/, text);
            const first = await stored(s.db);
            // Every answer the endpoint gave was stored, and the run stopped asking before the end.
            assert.equal(first.answers, server.completed, text);
            assert.ok(first.answers < 80, `answers: ${first.answers}`);
            const paid = server.requests;
            const resumed = await cli(['run', s.spec, '--db', s.db, '--yes'], { OPENAI_API_KEY: 'sk-x' });
            assert.equal(resumed.code, 0, resumed.stdout + resumed.stderr);
            assert.equal((await stored(s.db)).answers, 80);
            // Nothing paid for was asked again.
            assert.equal(server.requests - paid, 80 - first.answers);
        } finally {
            spawnSync('umount', [s.dir]);
        }
    });

    it('names the paid answers it could not write when the user gives up, and asked nothing new after the failure', async t => {
        const s = setUp(t);
        if (!s) return;
        try {
            let stop!: (signal?: NodeJS.Signals) => void;
            let held!: () => void;
            const holding = new Promise<void>(resolve => {
                held = resolve;
            });
            let seen = false;
            const run = cli(
                ['run', s.spec, '--db', s.db, '--yes'],
                { OPENAI_API_KEY: 'sk-x' },
                k => {
                    stop = k;
                },
                undefined,
                err => {
                    if (!seen && /held in memory/.test(err)) {
                        seen = true;
                        held();
                    }
                },
            );
            await within(Promise.race([holding, ended(run)]), 120_000, 'the run saying it holds answers');
            stop('SIGINT');
            const r = await run;
            const text = r.stdout + r.stderr;
            assert.equal(r.code, 1, text);
            const lost = /(\d+) answers? paid for could not be written and (?:is|are) lost/.exec(text);
            assert.ok(lost, text);
            const slots = [...text.matchAll(/movie_binary\/([0-9a-f]+) · local · sample (\d+)/g)].map(m =>
                slotKey(m[1]!, 'local', Number(m[2])),
            );
            assert.ok(slots.length >= 1 && slots.length === Number(lost[1]), text);
            const store = await openStore(s.db);
            try {
                const answered = await store.answered((await store.latestRun())!.id);
                // The named answers are the ones missing from the store.
                for (const slot of slots)
                    assert.ok(!answered.has(slot), `${slot.replaceAll('\u0000', ' ')} is stored, yet named as lost`);
                // No new call after the failure: besides what was stored, only the answer that failed and the three
                // other calls in flight then (4 connections).
                assert.ok(
                    server.requests <= answered.size + 4,
                    `${server.requests} requests for ${answered.size} stored answers`,
                );
            } finally {
                await store.close();
            }
        } finally {
            spawnSync('umount', [s.dir]);
        }
    });
});
