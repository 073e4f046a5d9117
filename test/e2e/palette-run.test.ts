/**
 * In a real VS Code (code-server + headless Chromium): a run started from the command palette ("HalluProbe:
 * Run Suite", the movie example's offline simulator) reaches the Testing view — failed questions are marked and
 * the peek shows the failure message (question, gold, answer, failed hop). Screenshots go to test-artifacts/e2e/.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { Workbench } from './support/workbench.js';
import { S } from './support/selectors.js';
import { missingPrerequisite, mustRun, openSession, type Session } from './support/session.js';
import { ARTIFACTS } from './support/workspace.js';

const missing = missingPrerequisite();
if (missing && mustRun()) throw new Error(`e2e tier cannot run: ${missing}`);
const skip = missing ? `e2e skipped: ${missing}` : false;

describe('a run from the palette, in the Testing view', { skip, timeout: 300_000 }, () => {
    let session: Session;
    let wb: Workbench;

    before(async () => {
        session = await openSession({ settings: { 'testing.automaticallyOpenPeekView': 'never' } });
        wb = new Workbench(session.page, path.join(ARTIFACTS, 'palette-run'));
        await wb.open(session.server.url);
        await wb.openFile('movie.probe');
    });

    after(async () => { await session?.close(); });

    it('marks the failed questions and shows their message in the peek', async () => {
        await wb.command('HalluProbe: Run Suite');
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
});
