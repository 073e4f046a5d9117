/**
 * `halluprobe review` over the real CLI in a pseudo-terminal (python3's pty module drives it: test/support/pty-drive.py),
 * on a SQLite file and on the PostgreSQL server the test starts: keys in (agree, fail, undo, unreadable), labels stored
 * at once with what the reader had read, and Ctrl-C in the middle of a review exits cleanly keeping every label; an
 * open answer's claims marked by digit and stored with its label.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { postgresInstalled } from '../support/postgres.js';
import { postgresEngine, sqliteEngine, type StoreEngine } from '../support/stores.js';
import { cliArgs } from '../support/cli-path.js';
import { fillReviewRun as fill } from '../support/review-run.js';
import { reviewOrder, reviewItems } from '../../src/core/review/index.js';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const driver = path.join(repo, 'test', 'support', 'pty-drive.py');

function drive(
    steps: ({ wait: string } | { send: string })[],
    args: string[],
    env: NodeJS.ProcessEnv,
): Promise<{ output: string; exit: number; failed: string | null }> {
    return new Promise((resolve, reject) => {
        const child = spawn('python3', [driver, JSON.stringify(steps), process.execPath, ...cliArgs(...args)], {
            cwd: repo,
            env: { ...env, TERM: 'xterm', COLUMNS: '120' },
        });
        let out = '';
        child.stdout.on('data', d => {
            out += String(d);
        });
        child.stderr.on('data', d => {
            out += String(d);
        });
        child.on('error', reject);
        child.on('close', () => {
            try {
                resolve(JSON.parse(out.trim().split('\n').at(-1)!));
            } catch {
                reject(new Error(out));
            }
        });
    });
}

for (const engine of [sqliteEngine(), postgresEngine()]) {
    const skip = engine.name === 'postgres' && !postgresInstalled() ? 'PostgreSQL is not installed here' : undefined;
    describe(`halluprobe review in a terminal, on ${engine.name}`, { skip }, () => suite(engine));
}

function suite(engine: StoreEngine): void {
    after(() => engine.stop());

    test('keys label the answers at once (agree, fail, undo, unreadable); Ctrl-C mid-review exits cleanly keeping them', async () => {
        const { store, where } = await engine.fresh();
        const runId = await fill(store);
        const order = reviewOrder(reviewItems((await store.loadRunResults(runId))!), 1);
        await store.close();
        // Each key only once its item and the prompt's last choice are drawn (the prompt reads the terminal raw then).
        const key = (item: string, send: string) => [{ wait: item }, { wait: 'q) quit' }, { send }];
        const r = await drive(
            [
                ...key('[1/5]', 'a\r'),
                { wait: 'Labelled' },
                ...key('[2/5]', 'f\r'),
                { wait: 'Labelled fail' },
                ...key('[3/5]', 'z\r'),
                { wait: 'is unlabelled again' },
                ...key('[2/5]', 'r\r'),
                { wait: 'Labelled unreadable' },
                ...key('[3/5]', '^C'),
                { wait: 'Stopped' },
            ],
            ['review', '--db', where, '--n', '5', '--reviewer', 'ann'],
            process.env,
        );
        assert.equal(r.failed, null, r.output);
        assert.equal(r.exit, 130, r.output);
        assert.match(
            r.output,
            /Stopped: 2 labels given now, every one kept\. Reader agrees 0\.50 \[0\.09, 0\.91\] on 2 reviewed\./,
        );
        assert.doesNotMatch(r.output, /at .*\.ts:\d+|Error/, 'no stack trace');
        const again = await engine.open(where);
        try {
            const labels = await again.labels(runId);
            const first = order[0]!.verdict,
                second = order[1]!.verdict;
            assert.deepEqual(
                labels.map(l => [l.questionId, l.reviewer, l.label]),
                [
                    [first.questionId, 'ann', first.correct ? 'pass' : 'fail'],
                    [second.questionId, 'ann', 'unreadable'],
                ],
            );
            assert.deepEqual(labels[1]!.read, {
                answer: second.answer,
                correct: second.correct,
                text: second.read!.text,
                span: second.read!.span,
                why: second.read!.why,
                by: 'patterns',
            });
            // The review resumes after them: the next answer shown is the third of the order.
            const resumed = await drive(
                [{ wait: '[1/' }, { wait: 'q) quit' }, { send: 'q\r' }, { wait: 'Done' }],
                ['review', '--db', where, '--reviewer', 'ann'],
                process.env,
            );
            assert.equal(resumed.exit, 0, resumed.output);
            assert.match(resumed.output, /2 labelled before, 4 to go/);
            assert.ok(resumed.output.includes(order[2]!.question.question), resumed.output);
        } finally {
            await again.close();
        }
    });

    test("an open answer's claims: a digit marks a claim (supported, then contradicted), the label stores the marks", async () => {
        const { store, where } = await engine.fresh();
        const runId = await fill(store);
        const order = reviewOrder(reviewItems((await store.loadRunResults(runId))!), 1);
        const v = order[0]!.verdict;
        await store.saveVerdicts(runId, [
            {
                ...v,
                claims: [
                    { status: 'supported', text: 'It is Movie.' },
                    { status: 'unverifiable', text: 'It was loved.' },
                ],
            },
        ]);
        await store.close();
        const r = await drive(
            [
                { wait: '[1/' },
                { wait: '2  It was loved. — unmarked' },
                { wait: 'mark claim 2' },
                { send: '2\r' },
                { wait: 'Claim 2 marked supported' },
                { wait: '2  It was loved. — supported' },
                { wait: 'mark claim 2' },
                { send: '2\r' },
                { wait: 'Claim 2 marked contradicted' },
                { wait: 'mark claim 2' },
                { send: 'f\r' },
                { wait: 'Labelled fail. Claims marked: 2 contradicted.' },
                { wait: 'q) quit' },
                { send: 'q\r' },
                { wait: 'Done' },
            ],
            ['review', '--db', where, '--reviewer', 'ann'],
            process.env,
        );
        assert.equal(r.failed, null, r.output);
        assert.equal(r.exit, 0, r.output);
        const again = await engine.open(where);
        try {
            assert.deepEqual(
                (await again.labels(runId)).map(l => [l.questionId, l.label, l.claims]),
                [[v.questionId, 'fail', [{ index: 1, status: 'contradicted' }]]],
            );
        } finally {
            await again.close();
        }
    });
}
