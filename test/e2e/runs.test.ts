/**
 * Runs that keep and explain their results, in a real VS Code (code-server + headless Chromium), issue 36 items 1–3:
 * with two models in a suite, Show Failures names whose answer failed and opens that model's answer in the graph; a
 * run against a dead server leaves the last answered run's figures (the CodeLens says which run they are) and its
 * message names the server's address and the cause; Stop Run says what was kept and offers Resume, whose progress
 * starts from what is done; a window reloaded mid-run leaves a trace and offers to resume. Screenshots go to
 * test-artifacts/e2e/runs/.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
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

const missing = missingPrerequisite();
if (missing && mustRun()) throw new Error(`e2e tier cannot run: ${missing}`);
const skip = missing ? `e2e skipped: ${missing}` : false;

/** Every answer of the second model: found in the graph panel only when its answer is the one drawn. */
const LOCAL_ANSWER = 'No. LOCAL-MODEL-ANSWER: I do not think so.';
const DEAD = 'http://127.0.0.1:9/v1';

describe('runs keep and explain their results', { skip, timeout: 600_000 }, () => {
    let local: ModelServer;
    let slow: ModelServer;
    let session: Session;
    let wb: Workbench;

    before(async () => {
        // Each of slow's answers takes 1.5 s: a run is stopped (or the window reloaded) while it goes.
        [local, slow] = await Promise.all([startModelServer(LOCAL_ANSWER), startModelServer('No.', ['--latency', '1500'])]);
        session = await openSession({
            prepare: dir => {
                prepareWorkspace(dir);
                const spec = path.join(dir, 'movie.probe');
                let text = fs.readFileSync(spec, 'utf8');
                text += `\nmodel local vllm {\n    id "test-model"\n    endpoint "${local.url}"\n}\n`;
                text += `\nmodel dead vllm {\n    id "test-model"\n    endpoint "${DEAD}"\n}\n`;
                text += `\nmodel slow vllm {\n    id "slow-model"\n    endpoint "${slow.url}"\n}\n`;
                text = text.replace(
                    /(suite movies \{[\s\S]*?)probes [^\n]*\n(\s*)models simulator/,
                    '$1probes movie_binary\n$2models simulator, local',
                );
                text = text.replace(/(suite movies \{[\s\S]*?)sample all/, '$1sample first 8');
                text += '\nsuite unreachable {\n    probes movie_binary\n    models dead\n    sample first 6\n}\n';
                text += '\nsuite crawl {\n    probes movie_binary\n    models slow\n    sample first 14\n}\n';
                text += '\nsuite reloaded {\n    probes movie_binary\n    models slow\n    sample first 30\n}\n';
                fs.writeFileSync(spec, text);
                return dir;
            },
            settings: { 'testing.automaticallyOpenPeekView': 'never', 'workbench.secondarySideBar.defaultVisibility': 'hidden' },
            // The two-model run, by the CLI into the spec's store, before the workbench opens.
            beforeOpen: async workspace => {
                assert.equal(
                    await cliQuietly(['run', path.join(workspace, 'movie.probe'), '--suite', 'movies', '--yes']),
                    0,
                    'the two-model run',
                );
            },
        });
        wb = new Workbench(session.page, path.join(ARTIFACTS, 'runs'));
        await wb.open(session.server.url);
        await wb.openFile('movie.probe');
    });

    after(async () => {
        await session?.close();
        local?.stop();
        slow?.stop();
    });

    const toast = (text: RegExp) => session.page.locator(S.notificationToasts).filter({ hasText: text }).first();

    it("Show Failures names the model of each failed answer and opens the picked model's answer", async () => {
        await wb.command('HalluProbe: Show Failures');
        await session.page.locator(S.quickInputRows).first().waitFor({ timeout: 60_000 });
        const rows = await session.page.locator(S.quickInputRows).allInnerTexts();
        await wb.screenshot('failures-two-models');
        assert.ok(
            rows.some(r => /\blocal\b/.test(r)) && rows.some(r => /\bsimulator\b/.test(r)),
            `each row names its model: ${rows.join(' | ')}`,
        );
        await wb.pickFiltered('local', /Is there a movie|Is it true/);
        const frame = await wb.webview('graph');
        const text = frame.locator('#rationale-text');
        await text.waitFor({ timeout: 60_000 });
        await frame
            .locator('#rationale-text')
            .filter({ hasText: 'LOCAL-MODEL-ANSWER' })
            .waitFor({ timeout: 30_000 })
            .catch(() => undefined);
        const drawn = await text.innerText();
        await wb.screenshot('graph-local-answer');
        assert.match(drawn, /LOCAL-MODEL-ANSWER/, `the graph shows another model's answer: ${drawn}`);
    });

    it('a run against a dead server names the address and the cause, and keeps the figures of the last answered run', async () => {
        await wb.openFile('movie.probe');
        const lenses = session.page.locator(S.codeLens).filter({ hasText: /rationales failed/ });
        await lenses.first().waitFor({ timeout: 60_000 });
        await wb.command('HalluProbe: Run Suite');
        await wb.pickFiltered('unreachable');
        const ended = toast(/no answers verified · suite unreachable/);
        await ended.waitFor({ timeout: 120_000 });
        const said = (await ended.locator(S.notificationMessage).innerText()).replace(/\s+/g, ' ');
        await wb.screenshot('dead-server');
        assert.doesNotMatch(said, /0 of 0 answers failed/);
        assert.match(said, /127\.0\.0\.1:9/, `the server's address: ${said}`);
        assert.match(said, /cannot reach|refused|fetch failed/, `the cause: ${said}`);
        // The CodeLens keeps the answered run's figures and says which run they are, and that the later one got none.
        await session.page.keyboard.press('Escape');
        await wb.goToLine(1);
        const header = session.page
            .locator(S.codeLens)
            .filter({ hasText: /Results of run \S+ · later run \S+ failed: no answers verified/ });
        await header.first().waitFor({ timeout: 60_000 });
        const all = await wb.codeLenses();
        await wb.screenshot('dead-server-codelens');
        // The same at 1,400 px and at a narrow 800 px window, to look at.
        const size = session.page.viewportSize()!;
        for (const width of [1400, 800]) {
            await session.page.setViewportSize({ width, height: size.height });
            await header.first().waitFor();
            await wb.screenshot(`dead-server-codelens-${width}`);
        }
        await session.page.setViewportSize(size);
        assert.ok(!all.some(l => /no answers$/.test(l)), `lenses: ${all.join(' | ')}`);
        assert.ok(
            all.some(l => /rationales failed/.test(l)),
            `lenses: ${all.join(' | ')}`,
        );
    });

    it('Stop Run says what was kept and offers Resume, whose progress starts from what is done', async () => {
        await wb.command('HalluProbe: Run Suite');
        await wb.pickFiltered('crawl');
        const status = session.page.locator('.statusbar-item').filter({ hasText: /[1-9]\d*\/\d+ · \$/ });
        await status.first().waitFor({ timeout: 120_000 });
        await wb.command('HalluProbe: Stop Run');
        const stopped = toast(/run stopped/);
        await stopped.waitFor({ timeout: 60_000 });
        const said = (await stopped.locator(S.notificationMessage).innerText()).replace(/\s+/g, ' ');
        await wb.screenshot('stopped');
        const m = /(\d+) of (\d+) answers kept in run (\S+?); Resume asks the other (\d+)/.exec(said);
        assert.ok(m, `what was kept: ${said}`);
        const kept = Number(m[1]);
        assert.ok(kept >= 1, said);
        // Every progress the status bar shows from now on, recorded as it changes.
        await session.page.evaluate(() => {
            const seen: string[] = ((window as unknown as { seen: string[] }).seen = []);
            new MutationObserver(() => {
                for (const e of Array.from(document.querySelectorAll('.statusbar-item'))) {
                    const t = e.textContent ?? '';
                    if (/\d+\/(\d+|…) · \$/.test(t) && seen.at(-1) !== t) seen.push(t);
                }
            }).observe(document.querySelector('.part.statusbar')!, { subtree: true, childList: true, characterData: true });
        });
        await stopped.locator('.monaco-button').filter({ hasText: 'Resume' }).click();
        const finished = toast(/answers failed · suite crawl/);
        await finished.waitFor({ timeout: 180_000 });
        const seen = await session.page.evaluate(() => (window as unknown as { seen: string[] }).seen);
        await wb.screenshot('resumed');
        assert.ok(seen.length > 0, 'the resumed run showed its progress');
        for (const t of seen) {
            const done = Number(/(\d+)\/(\d+|…) · \$/.exec(t)![1]);
            assert.ok(done >= kept, `the resumed run's progress read "${t}" after ${kept} answers were kept`);
        }
    });

    it('a window reloaded mid-run leaves a trace and offers to resume; the figures stay', async () => {
        await wb.command('HalluProbe: Run Suite');
        await wb.pickFiltered('reloaded');
        // Past the 42 answers the crawl suite got (served from the cache): some new answers are in.
        const status = session.page.locator('.statusbar-item').filter({ hasText: /(4[3-9]|[5-9]\d)\/\d+ · \$/ });
        await status.first().waitFor({ timeout: 120_000 });
        const reloading = performance.now();
        await wb.command('Developer: Reload Window');
        await session.page.locator(S.workbench).waitFor({ timeout: 90_000 });
        // Issue 39: the wall time from the reload command to the reopened spec's first diagnostics (the fixture's
        // fd violation, underlined): a reported figure, not an assertion (bench/extension.bench.ts measures it too).
        await session.page.locator(`${S.editor} .squiggly-error`).first().waitFor({ timeout: 120_000 });
        console.log(`reload → first diagnostics of movie.probe: ${((performance.now() - reloading) / 1000).toFixed(1)} s`);
        const offer = toast(/did not finish/);
        await offer.waitFor({ timeout: 120_000 });
        const said = (await offer.locator(S.notificationMessage).innerText()).replace(/\s+/g, ' ');
        await wb.screenshot('after-reload');
        assert.match(said, /run \S+ of movie\.probe \(suite reloaded\) did not finish .* \d+ of 90 answers kept\. Resume it\?/);
        assert.ok((await offer.locator('.monaco-button').allInnerTexts()).includes('Resume'));
        await wb.goToLine(1);
        const header = session.page.locator(S.codeLens).filter({ hasText: /Results of run \S+ · later run \S+ did not finish/ });
        await header.first().waitFor({ timeout: 60_000 });
        const all = await wb.codeLenses();
        await wb.screenshot('after-reload-codelens');
        assert.ok(!all.some(l => /no answers$/.test(l)), `lenses: ${all.join(' | ')}`);
    });
});
