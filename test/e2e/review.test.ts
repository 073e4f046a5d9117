/**
 * Review Answers in a real VS Code (code-server + headless Chromium), issue 34: a run of the movie example's binary
 * probe against a local model whose answer carries markup; the probe's CodeLens says nobody reviewed it and opens
 * Review Answers; five answers are labelled by keyboard alone (p, f, a twice — the first shows the reader's verdict —,
 * r, p), each waiting for the next answer to arrive; the labels are in the store with what the reader had read, the
 * panel's agreement and the CodeLens's line are the engine's over those labels; the answer's markup shows as text.
 * Screenshots at 1,400 px and in a narrow side column (700 px window) go to test-artifacts/e2e/review/.
 *
 * Then, in the same session (one code-server for both), a batch run from the editor: the spec's suite is pointed at an
 * OpenAI-provider model at the local OpenAI Batch API of test/support (in this process); Run Suite's picker offers "Send
 * as a batch"; the run waits in the status bar and in the Test Explorer while the provider holds the batch, and a
 * notification says when the results arrived, which the Test Explorer then reports. Its screenshots go to
 * test-artifacts/e2e/batch/.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Frame } from 'playwright-core';
import { Workbench } from './support/workbench.js';
import { S } from './support/selectors.js';
import {
    cliQuietly,
    missingPrerequisite,
    mustRun,
    openSession,
    startModelServer,
    type ModelServer,
    type Session,
} from './support/session.js';
import { ARTIFACTS, prepareWorkspace } from './support/workspace.js';
import { openStore } from '../../src/core/store/index.js';
import { anchorTrust } from '../../src/core/report/index.js';
import { readerClass } from '../../src/core/review/index.js';
import { startBatchServer, type BatchServer } from '../support/openai-batch-server.js';

const missing = missingPrerequisite();
if (missing && mustRun()) throw new Error(`e2e tier cannot run: ${missing}`);
const skip = missing ? `e2e skipped: ${missing}` : false;

/** Every answer: "Yes" opens it (the reader reads that), and markup that must stay text in the panel. */
const ANSWER = 'Yes. <b>It is</b> <img src=x onerror="document.title=1"> as far as I know.';

interface Shown {
    slot: string;
    progress: string;
    agreement: string;
}

describe(
    'Review Answers: label five answers by keyboard, the figure changes in the panel and the CodeLens',
    { skip, timeout: 1_200_000 },
    () => {
        let local: ModelServer;
        let batch: BatchServer;
        let session: Session;
        let wb: Workbench;
        let db: string;
        let line: number;

        before(async () => {
            local = await startModelServer(ANSWER);
            batch = await startBatchServer();
            // The provider keeps the batch in progress until the batch step lets it finish.
            batch.hold = true;
            session = await openSession({
                // The movie example with a local model, and (for the batch step) an OpenAI-provider model at the local Batch API.
                prepare: dir => {
                    prepareWorkspace(dir, local.url);
                    const spec = path.join(dir, 'movie.probe');
                    const text = fs
                        .readFileSync(spec, 'utf8')
                        .replace(/(suite movies \{[\s\S]*?)probes [^\n]*\n/, '$1probes movie_binary\n')
                        .replace(/(suite movies \{[\s\S]*?)sample first \d+/, '$1sample first 8');
                    fs.writeFileSync(spec, `${text}\nmodel gpt openai {\n    id "test-model"\n    endpoint "${batch.url}"\n}\n`);
                    return dir;
                },
                // An environment key goes to a trusted host without a prompt; a batch run looks at its batch every 300 ms.
                env: {
                    OPENAI_API_KEY: 'sk-e2e-batch-key',
                    HALLUPROBE_TRUSTED_HOSTS: new URL(batch.url).origin,
                    HALLUPROBE_BATCH_POLL_MS: '300',
                },
                settings: {
                    'testing.automaticallyOpenPeekView': 'never',
                    'workbench.secondarySideBar.defaultVisibility': 'hidden',
                },
            });
            const spec = path.join(session.workspace, 'movie.probe');
            line =
                fs
                    .readFileSync(spec, 'utf8')
                    .split('\n')
                    .findIndex(l => l.startsWith('probe movie_binary')) + 1;
            assert.equal(await cliQuietly(['run', spec, '--suite', 'movies', '--yes']), 0, 'the run');
            db = path.join(session.workspace, '.halluprobe', 'results.db');
            await session.page.setViewportSize({ width: 1400, height: 900 });
            wb = new Workbench(session.page, path.join(ARTIFACTS, 'review'));
            await wb.open(session.server.url);
            await wb.openFile('movie.probe');
        });

        after(async () => {
            await session?.close();
            local?.stop();
            await batch?.close();
        });

        const shown = (frame: Frame) =>
            frame.evaluate(`(() => ({
        slot: document.getElementById('item')?.dataset.slot ?? '',
        progress: document.getElementById('progress')?.textContent ?? '',
        agreement: document.getElementById('agreement')?.textContent ?? '',
    }))()`) as Promise<Shown>;

        it("opens from the CodeLens, takes five labels by keyboard, stores them, and the panel and the lens show the engine's agreement", async () => {
            await wb.goToLine(line);
            const notReviewed = session.page.locator(`${S.codeLens} a`).filter({ hasText: /^Review answers · not reviewed/ });
            await notReviewed.first().waitFor({ timeout: 120_000 });
            await notReviewed.first().click();
            const frame = await wb.webview('review', 120_000);
            await frame.locator('#item').waitFor({ timeout: 120_000 });
            const start = await shown(frame);
            assert.match(start.agreement, /^Reader agrees n\/a \(no label yet\)\.$/);
            assert.match(start.progress, /^1 of 24 to label · 0 labelled now/, 'eight questions in three phrasings');
            assert.equal(
                await frame.locator('#stratum').innerText(),
                '1 of 24 · binary',
                "the header does not give the reader's class away",
            );
            // The model's markup is text: no element made from it, its characters shown as they are.
            const answer = frame.locator('#answer');
            assert.equal(await answer.locator('b, img').count(), 0);
            assert.ok((await answer.innerText()).includes('<b>It is</b> <img src=x'), await answer.innerText());
            assert.equal(await answer.locator('mark').innerText(), 'Yes');
            // The reader's verdict is hidden until labelled.
            assert.equal(await frame.locator('#verdict').count(), 0);
            await wb.screenshot('review-1400');

            // Five labels by keyboard alone; each waits for the next answer (the panel's progress moves on).
            const labelled: { slot: string; key: string }[] = [];
            let before = start;
            const next = async (key: string) => {
                await session.page.keyboard.press(key);
                await frame.waitForFunction(p => document.getElementById('progress')?.textContent !== p, before.progress, {
                    timeout: 120_000,
                });
                const now = await shown(frame);
                labelled.push({ slot: before.slot, key });
                before = now;
            };
            await next('p');
            await next('f');
            // a with the verdict hidden shows it first (nothing stored); a again agrees with it.
            await session.page.keyboard.press('a');
            await frame.locator('#verdict').waitFor({ timeout: 60_000 });
            assert.match(await frame.locator('#verdict').innerText(), /^(pass|fail|unreadable) \(answer /);
            await wb.screenshot('review-verdict-shown');
            await next('a');
            await next('r');
            await next('p');
            const end = await shown(frame);
            assert.match(end.progress, /^6 of 24 to label · 5 labelled now, 5 by /);
            assert.equal(new Set(labelled.map(l => l.slot)).size, 5);

            // The store has the five labels, each what its key said (agree: the reader's own class), with what the reader had read.
            const store = await openStore(db);
            let lensLine: string;
            try {
                const run = (await store.latestRun())!;
                const labels = await store.labels(run.id);
                const results = (await store.loadRunResults(run.id))!;
                const verdictOf = (slot: string) =>
                    results.verdicts.find(v => `${v.questionId}\u0000${v.model}\u0000${v.sample}` === slot)!;
                const want = labelled.map(l => [
                    l.slot,
                    (
                        { p: 'pass', f: 'fail', r: 'unreadable', a: readerClass(verdictOf(l.slot), true) } as Record<
                            string,
                            string
                        >
                    )[l.key],
                ]);
                assert.deepEqual(
                    labels.map(l => [`${l.questionId}\u0000${l.model}\u0000${l.sample}`, l.label]).sort(),
                    want.sort(),
                );
                assert.ok(
                    labels.every(l => l.read?.by === 'patterns' && l.read.text === 'Yes'),
                    JSON.stringify(labels.map(l => l.read)),
                );
                // The panel's figure: the reader's agreement with these labels, as the engine words it.
                const agree = labels.filter(
                    l => readerClass(verdictOf(`${l.questionId}\u0000${l.model}\u0000${l.sample}`), true) === l.label,
                ).length;
                assert.match(
                    end.agreement,
                    new RegExp(`^Reader agrees ${(agree / 5).toFixed(2)} \\[\\d\\.\\d\\d, \\d\\.\\d\\d\\] on 5 reviewed\\.$`),
                );
                lensLine = anchorTrust(results, labels, new Map()).get('probe:movie_binary')![0]!.lens;
            } finally {
                await store.close();
            }
            // The CodeLens shows the engine's line over the stored labels.
            assert.match(lensLine, /^reader agrees \d?\.\d\d \[\d?\.\d\d, \d?\.\d\d\] on 5 · A corrected /);
            const lens = session.page.locator(S.codeLens).filter({ hasText: `Review answers · ${lensLine}` });
            await lens.first().waitFor({ timeout: 120_000 });
            await lens.nth(1).waitFor({ timeout: 60_000 });
            assert.equal(
                await lens.count(),
                2,
                "the probe's line and its FD's (movie_title, used by this probe alone) say the same",
            );
            await wb.screenshot('review-labelled-1400');
            // The lens whole: the spec's editor group maximised for a moment (beside the panel it is cut at the column's edge).
            await session.page.locator(S.editorTab('movie.probe')).first().click();
            await wb.command('View: Toggle Maximize Editor Group');
            await session.page
                .locator(S.codeLens)
                .filter({ hasText: lensLine })
                .first()
                .waitFor({ state: 'visible', timeout: 60_000 });
            await wb.screenshot('review-lens-1400');
            await wb.command('View: Toggle Maximize Editor Group');

            // A narrow side column: the window at 700 px, the panel beside the editor; nothing runs out sideways.
            await session.page.setViewportSize({ width: 700, height: 900 });
            await frame.waitForFunction(() => document.documentElement.clientWidth < 420, undefined, { timeout: 60_000 });
            const narrow = (await frame.evaluate(
                `(() => ({ width: document.documentElement.clientWidth, scroll: document.documentElement.scrollWidth }))()`,
            )) as { width: number; scroll: number };
            await wb.screenshot('review-narrow-700');
            assert.ok(
                narrow.scroll <= narrow.width,
                `the panel scrolls sideways at ${narrow.width} px: ${narrow.scroll} px of content`,
            );
            assert.equal(await frame.locator('#agreement').innerText(), end.agreement);
        });

        it('a batch run: offers the batch in the run picker, waits for the provider in the status bar and the Test Explorer, and says when results arrive', async () => {
            // The suite is pointed at the OpenAI-provider model and cut to six questions, on disk; the editor reads it again.
            const spec = path.join(session.workspace, 'movie.probe');
            const text = fs
                .readFileSync(spec, 'utf8')
                .replace(/(suite movies \{[\s\S]*?)models local/, '$1models gpt')
                .replace(/(suite movies \{[\s\S]*?)sample first 8/, '$1sample first 6');
            fs.writeFileSync(spec, text);
            await session.page.setViewportSize({ width: 1500, height: 950 });
            const bw = new Workbench(session.page, path.join(ARTIFACTS, 'batch'));
            await session.page.locator(S.editorTab('movie.probe')).first().click();
            await bw.command('File: Revert File');
            assert.match(await bw.activeEditorText(), /models gpt\n[\s\S]*sample first 6|sample first 6[\s\S]*models gpt/);
            // The review panel closed and the spec opened again at its top: the batch's screenshots show what a fresh window would.
            await bw.command('View: Close All Editors');
            await bw.openFile('movie.probe');

            await bw.command('HalluProbe: Run Suite');
            await bw.pick(/Send as a batch/);
            await bw.screenshot('picker-chosen');

            // The run waits for the provider: its batch is created, the status bar shows a batch run.
            const status = session.page.locator('.statusbar-item').filter({ hasText: /batch \d+\/\d+/ });
            await status.first().waitFor({ timeout: 120_000 });
            assert.equal(batch.created.length, 1, 'one batch sent');
            assert.ok(batch.created[0]!.questions.length > 0);

            // The Test Explorer shows the run going: its questions are running while the batch is held.
            await session.page.locator(S.activity('Testing')).click();
            const running = session.page.locator(
                `${S.testingTree}[aria-label*="Running" i], ${S.testingTree}[aria-label*="Queued" i], ${S.testingTree} .codicon-loading`,
            );
            await running.first().waitFor({ timeout: 60_000 });
            await bw.screenshot('batch-waiting');

            // The provider finishes the batch: the results arrive, a notification says so, the Test Explorer reports them.
            batch.hold = false;
            const arrived = session.page.locator(S.notificationToasts).filter({ hasText: /batch results arrived/ });
            await arrived.first().waitFor({ timeout: 120_000 });
            const said = await arrived.first().locator(S.notificationMessage).innerText();
            assert.match(said, /batch results arrived: \d+ of \d+ answers failed · suite movies · batch/);
            const reported = session.page.locator(
                `${S.testingTree}[aria-label*="Failed" i], ${S.testingTree}[aria-label*="Passed" i], ${S.testingTree} .codicon-testing-failed-icon, ${S.testingTree} .codicon-testing-passed-icon`,
            );
            await reported.first().waitFor({ timeout: 60_000 });
            await bw.screenshot('batch-arrived');
            assert.equal(batch.created.length, 1, 'no second batch: nothing was asked twice');
            assert.ok([...batch.asked.values()].every(n => n === 1));
        });
    },
);
