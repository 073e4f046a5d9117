/**
 * End to end in a real VS Code (code-server + headless Chromium): the extension-host suite through the
 * test-only companion, then the user's path through the workbench — Problems, Preview, a Test Explorer run
 * against the local OpenAI-compatible server, the failure message, the CodeLens summary and the graph panel.
 * Screenshots of each step go to test-artifacts/e2e/.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Workbench } from './support/workbench.js';
import { S } from './support/selectors.js';
import {
    missingPrerequisite,
    mustRun,
    openSession,
    startModelServer,
    type ModelServer,
    type Session,
} from './support/session.js';
import { ARTIFACTS, bundleSuite, startSuitePostgres } from './support/workspace.js';

const missing = missingPrerequisite();
if (missing && mustRun()) throw new Error(`e2e tier cannot run: ${missing}`);
const skip = missing ? `e2e skipped: ${missing}` : false;
if (!missing) fs.rmSync(ARTIFACTS, { recursive: true, force: true });

/** No keyword in the rationale: every binary question is answered, its rationale fails with "missing". */
const ANSWER = 'Yes, I believe so. That film is well known.';

/** The whole extension-host suite's budget: each of its tests waits on its own event, bounded by mocha's timeout. */
const SUITE_MS = 900_000;

/** Resolves once `file` exists (watched in its folder, not polled), or after `ms` whatever happened. */
function fileWritten(file: string, ms: number): Promise<void> {
    return new Promise(resolve => {
        const watcher = fs.watch(path.dirname(file), () => {
            if (fs.existsSync(file)) done();
        });
        const timer = setTimeout(() => done(), ms);
        const done = () => {
            watcher.close();
            clearTimeout(timer);
            resolve();
        };
        if (fs.existsSync(file)) done();
    });
}

describe('extension host (mocha suite inside code-server)', { skip, timeout: SUITE_MS }, () => {
    it('passes the extension-host suite', async () => {
        const suite = await bundleSuite();
        const results = path.join(os.tmpdir(), `halluprobe-vscode-${process.pid}-${Date.now()}.json`);
        const pg = await startSuitePostgres();
        let session: Session | undefined;
        try {
            session = await openSession({
                env: { HALLUPROBE_VSCODE_SUITE: suite, HALLUPROBE_VSCODE_RESULTS: results, ...pg.env },
            });
            const wb = new Workbench(session.page, ARTIFACTS);
            await wb.open(session.server.url);
            // The companion writes the results file when mocha ends: wait for that file, up to the suite's budget.
            await fileWritten(results, SUITE_MS - 60_000);
            assert.ok(
                fs.existsSync(results),
                `the companion wrote no results; code-server log:\n${session.server.log().slice(-2000)}`,
            );
            const r = JSON.parse(fs.readFileSync(results, 'utf8')) as {
                passes: number;
                failures: number;
                tests: { title: string; state: string; error?: string }[];
                measured: Record<string, number>;
            };
            for (const t of r.tests)
                console.log(
                    `  ${t.state === 'passed' ? '✔' : '✖'} ${t.title}${t.error ? `\n      ${t.error.split('\n')[0]}` : ''}`,
                );
            if (r.measured.activationMs !== undefined)
                console.log(
                    `  activation (activate → commands ready): ${r.measured.activationMs.toFixed(1)} ms (goal < 150 ms); language server ready after ${r.measured.serverReadyMs?.toFixed(0) ?? '?'} ms`,
                );
            assert.equal(
                r.failures,
                0,
                r.tests
                    .filter(t => t.state !== 'passed')
                    .map(t => `${t.title}: ${t.error}`)
                    .join('\n'),
            );
            assert.ok(r.passes >= 5);
            // Issue 25 item 1: the PostgreSQL source is re-checked after its password is set by command; that test ran and passed.
            assert.ok(
                r.tests.some(
                    t =>
                        /connects to a PostgreSQL source once its password is set by command/.test(t.title) &&
                        t.state === 'passed',
                ),
                `the PostgreSQL password test did not pass: ${r.tests.map(t => `${t.title} (${t.state})`).join(', ')}`,
            );
        } finally {
            await session?.close();
            pg.stop();
            fs.rmSync(results, { force: true });
        }
    });
});

describe('the workbench, as a user sees it', { skip, timeout: 600_000 }, () => {
    let model: ModelServer;
    let session: Session;
    let wb: Workbench;

    before(async () => {
        model = await startModelServer(ANSWER);
        session = await openSession({
            modelEndpoint: model.url,
            settings: { 'halluprobe.defaultModel': 'local', 'testing.automaticallyOpenPeekView': 'failureAnywhere' },
        });
        wb = new Workbench(session.page, ARTIFACTS);
        await wb.open(session.server.url);
        await wb.openFile('movie.probe');
        await wb.screenshot('spec-open');
    });

    after(async () => {
        await session?.close();
        model?.stop();
    });

    it('shows the injected FD violation in the Problems panel', async () => {
        await wb.problems();
        await session.page
            .locator(S.problemsRows)
            .filter({ hasText: /James Cameron/ })
            .first()
            .waitFor({ timeout: 90_000 });
        const rows = await session.page.locator(S.problemsRows).allInnerTexts();
        await wb.screenshot('problems');
        assert.ok(
            rows.some(r => /James Cameron/.test(r) && /birth/i.test(r)),
            `Problems: ${rows.join(' | ') || '(none)'}`,
        );
    });

    it('previews the generated questions in the virtualised table', async () => {
        await wb.command('HalluProbe: Preview Questions');
        const frame = await wb.webview('preview');
        await frame.locator(S.webview.previewRows).first().waitFor({ timeout: 60_000 });
        const count = await frame.locator(S.webview.count).innerText();
        const rendered = await frame.locator(S.webview.previewRows).count();
        await wb.screenshot('preview');
        assert.match(count, /^\d[\d,]* of \d[\d,]* questions$/);
        assert.ok(rendered > 0);
        // Probe and phrasing names are shown whole (no "movie_…", "neg…") when the panel is wider than the narrow
        // layout (≤ 560 px, media/preview.css), which shrinks them rather than scroll sideways (everyday.test.ts).
        const width = await frame.evaluate(() => innerWidth);
        const cut = await frame
            .locator(`${S.webview.previewRows} .c-probe, ${S.webview.previewRows} .c-phrasing`)
            .evaluateAll(els => els.filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.textContent));
        if (width > 560) assert.deepEqual(cut, [], `truncated probe / phrasing cells in a ${width} px panel`);
        await frame.locator(S.webview.filter).fill('gold:no');
        await frame.locator(S.webview.previewRows).first().waitFor();
        assert.match(await frame.locator(`${S.webview.previewRows} .c-gold`).first().innerText(), /^no$/);
    });

    it('runs the suite from the Test Explorer and shows the missing keyword of a failed question', async () => {
        await session.page.locator(S.activity('Testing')).click();
        await session.page.locator(S.testingTree).first().waitFor({ timeout: 30_000 });
        await session.page.locator(S.runAllTests).first().click();
        const failed = session.page.locator(
            `${S.testingTree}[aria-label*="Failed" i], ${S.testingTree} .codicon-testing-failed-icon`,
        );
        // At load ~17 on two cores, no failed question showed within 120 s once (a measurement run, 2026-11-29): the wait
        // ends on the icon, up to 240 s.
        await failed.first().waitFor({ timeout: 240_000 });
        await wb.screenshot('test-explorer-run');
        // A failed question opens the peek in the editor (testing.automaticallyOpenPeekView).
        const peek = session.page.locator(S.testPeek).filter({ hasText: /missing\sMovie\.title/ });
        await peek.first().waitFor({ timeout: 60_000 });
        // Monaco draws spaces as no-break spaces.
        const text = (await peek.allInnerTexts()).join('\n').replace(/\u00a0/g, ' ');
        await wb.screenshot('failure-message');
        assert.match(text, /missing Movie\.title "[^"]+"/);
    });

    it('shows the CodeLens summary on the probe and opens the graph for a failed question', async () => {
        await wb.openFile('movie.probe');
        // The suite's figures are lensed on more than one line of the spec: the one to read and click is the one on
        // screen (a lens scrolled out of view, or in an editor not shown, is in the DOM but hidden).
        await session.page.keyboard.press('Escape');
        await wb.goToLine(1);
        await session.page
            .locator(S.codeLens)
            .filter({ hasText: /local · A [.\d]+ R [.\d]+ AR [.\d]+ H [.\d]+ · \d+ of \d+ rationales failed/, visible: true })
            .first()
            .waitFor({ timeout: 60_000 });
        const lenses = await wb.codeLenses();
        await wb.screenshot('codelens');
        const summary = lenses.find(l => /local · A [.\d]+ R [.\d]+ AR [.\d]+ H [.\d]+ · \d+ of \d+ rationales failed/.test(l));
        assert.ok(summary, `CodeLenses: ${lenses.join(' | ')}`);
        await session.page
            .locator(`${S.codeLens} a`)
            .filter({ hasText: /local · A/, visible: true })
            .first()
            .click();
        await wb.pick(/Is there a movie|Is it true/);
        const frame = await wb.webview('graph');
        await frame.locator(S.webview.rationale).waitFor({ timeout: 30_000 });
        const nodes = await frame
            .locator(S.webview.graphNodes)
            .evaluateAll(els =>
                els.map(e => ({ kind: e.getAttribute('data-kind'), status: e.getAttribute('data-status'), text: e.textContent })),
            );
        await wb.screenshot('graph-question');
        assert.ok(nodes.length >= 2, `graph nodes: ${JSON.stringify(nodes)}`);
        assert.ok(
            nodes.some(n => n.kind === 'entity'),
            'the start entity is drawn',
        );
        assert.ok(
            nodes.some(n => n.status === 'missing'),
            'the asked value is marked missing',
        );
        assert.match(await frame.locator(S.webview.hops).innerText(), /hop 1 missing/);
    });
});
