/**
 * Everyday use in a real VS Code (code-server + headless Chromium), on the movie example with its offline
 * simulator: a run started from the command palette reaches the Testing view (failed questions marked, the
 * peek shows the failure message); the end-of-run message and the CodeLens lines are not cut (measured at
 * 100 columns); the graph panel opens with labels at least 11 px high. Screenshots go to test-artifacts/e2e/everyday/.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { Workbench } from './support/workbench.js';
import { S } from './support/selectors.js';
import { missingPrerequisite, mustRun, openSession, type Session } from './support/session.js';
import { ARTIFACTS, REPO } from './support/workspace.js';

const missing = missingPrerequisite();
if (missing && mustRun()) throw new Error(`e2e tier cannot run: ${missing}`);
const skip = missing ? `e2e skipped: ${missing}` : false;

describe('everyday use of the extension', { skip, timeout: 300_000 }, () => {
    let session: Session;
    let wb: Workbench;

    before(async () => {
        session = await openSession({ settings: { 'testing.automaticallyOpenPeekView': 'never' } });
        wb = new Workbench(session.page, path.join(ARTIFACTS, 'everyday'));
        await wb.open(session.server.url);
        await wb.openFile('movie.probe');
    });

    after(async () => { await session?.close(); });

    it('a palette run ends with a message that is not cut and counts what it says', async () => {
        await wb.command('HalluProbe: Run Suite');
        const toast = session.page.locator(`${S.notificationToasts} ${S.notificationMessage}`).filter({ hasText: /answers failed/ });
        await toast.first().waitFor({ timeout: 120_000 });
        const fit = await toast.first().evaluate(e => ({ text: e.textContent ?? '', scroll: e.scrollWidth, client: e.clientWidth }));
        await wb.screenshot('run-finished');
        assert.match(fit.text, /^HalluProbe: \d+ of \d+ answers failed · suite movies/);
        assert.ok(fit.scroll <= fit.client + 1, `the message is cut: ${fit.scroll} > ${fit.client} px`);
    });

    it('marks the failed questions in the Testing view and shows their message in the peek', async () => {
        await session.page.locator(S.activity('Testing')).click();
        const failed = session.page.locator(`${S.testingTree} .codicon-testing-failed-icon`);
        await failed.first().waitFor({ timeout: 120_000 });
        await wb.screenshot('testing-after-palette-run');
        const rows = (await session.page.locator(S.testingTree).allInnerTexts()).join(' | ');
        assert.doesNotMatch(rows, /No test results yet/);

        // The failure sits in the editor as an inline message at its probe's line; clicking it opens the peek.
        const inline = session.page.locator(S.testMessageInline).first();
        await inline.waitFor({ timeout: 30_000 });
        await inline.click();
        const peek = session.page.locator(S.testPeek);
        let text = '';
        for (let i = 0; i < 30 && !/Gold: .* Answer/.test(text); i++) {
            text = (await peek.allInnerTexts()).join('\n').replace(/\u00a0/g, ' ');
            if (!/Gold: .* Answer/.test(text)) await session.page.waitForTimeout(1000);
        }
        await wb.screenshot('failure-peek');
        assert.match(text, /Question: /);
        assert.match(text, /Gold: .* · Answer \(simulator\)/);
    });

    it('a CLI run into the same store reaches the Testing view too', async () => {
        const tsx = path.join(REPO, 'node_modules/.bin/tsx');
        const cli = spawnSync(tsx, [path.join(REPO, 'src/cli/main.ts'), 'run', path.join(session.workspace, 'movie.probe'), '--model', 'offline', '--yes'], { encoding: 'utf8' });
        assert.equal(cli.status, 0, cli.stderr);
        const peek = session.page.locator(S.testPeek);
        let text = '';
        for (let i = 0; i < 30 && !/Answer \(offline\)/.test(text); i++) {
            await session.page.keyboard.press('Escape');
            await session.page.locator(S.testMessageInline).first().click().catch(() => undefined);
            await session.page.waitForTimeout(1000);
            text = (await peek.allInnerTexts()).join('\n').replace(/\u00a0/g, ' ');
        }
        await wb.screenshot('after-cli-run');
        assert.match(text, /Gold: .* · Answer \(offline\)/);
    });

    it('no CodeLens is cut at 100 columns, and each says what it counts', async () => {
        await session.page.keyboard.press('Escape');
        await wb.openFile('movie.probe');
        let lenses: string[] = [];
        for (let i = 0; i < 30 && !lenses.some(l => /rationales failed/.test(l)); i++) {
            lenses = await wb.codeLenses();
            await session.page.waitForTimeout(500);
        }
        const measured = await session.page.evaluate(sel => {
            // The editor that shows the lenses (a peek embeds editors of its own).
            const lines = document.querySelector(sel)!.closest('.monaco-editor')!.querySelector('.view-lines')!;
            const sample = Array.from(lines.querySelectorAll('.view-line span span')).find(s => (s.textContent ?? '').length > 8)!;
            const charPx = sample.getBoundingClientRect().width / sample.textContent!.length;
            const left = lines.getBoundingClientRect().left;
            return Array.from(document.querySelectorAll(sel)).map(d => {
                const range = document.createRange();
                range.selectNodeContents(d);
                return { text: d.textContent ?? '', columns: (range.getBoundingClientRect().right - left) / charPx, clipped: d.scrollWidth > d.clientWidth + 1 };
            });
        }, S.codeLens);
        await wb.screenshot('codelens');
        const summaries = measured.filter(m => /rationales failed/.test(m.text));
        assert.ok(summaries.length >= 2, `CodeLenses: ${measured.map(m => m.text).join(' | ')}`);
        for (const m of measured) {
            assert.ok(m.columns <= 100, `"${m.text}" reaches column ${m.columns.toFixed(0)}`);
            assert.ok(!m.clipped, `"${m.text}" is clipped`);
        }
        for (const m of summaries) assert.match(m.text, /· \d+ of \d+ rationales failed/);
    });

    it('the preview table fits a narrow panel: no horizontal scrollbar, question and keywords shown', async () => {
        await wb.command('HalluProbe: Preview Questions');
        const frame = await wb.webview('preview');
        await frame.locator(S.webview.previewRows).first().waitFor({ timeout: 60_000 });
        const m = await frame.evaluate(() => {
            const viewport = document.querySelector('.viewport')!;
            const [question, keywords] = ['c-question', 'c-keywords'].map(c => document.querySelector(`.body .row .${c}`)!.getBoundingClientRect().width);
            return { page: document.documentElement.scrollWidth - innerWidth, viewport: viewport.scrollWidth - viewport.clientWidth, width: innerWidth, question, keywords };
        });
        await wb.screenshot('preview');
        assert.ok(m.page <= 1 && m.viewport <= 1, `horizontal overflow in a ${m.width} px panel: page ${m.page} px, table ${m.viewport} px`);
        assert.ok(m.question >= 100 && m.keywords >= 60, JSON.stringify(m));
    });

    it('the graph opens readable: labels at least 11 px high', async () => {
        await wb.command('HalluProbe: Open Graph');
        const frame = await wb.webview('graph');
        await frame.locator('body[data-label-px]').waitFor({ timeout: 30_000 });
        const m = await frame.evaluate(() => {
            const canvas = document.getElementById('graph')!.getBoundingClientRect();
            return { labelPx: Number(document.body.dataset.labelPx), canvas: { w: canvas.width, h: canvas.height }, page: { w: innerWidth, h: innerHeight } };
        });
        await wb.screenshot('graph');
        assert.ok(m.labelPx >= 11, `labels ${m.labelPx} px high`);
        assert.ok(m.canvas.w * m.canvas.h >= 0.4 * m.page.w * m.page.h, `the drawing uses ${JSON.stringify(m.canvas)} of ${JSON.stringify(m.page)}`);
    });
});
