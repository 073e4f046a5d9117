/**
 * End to end in a real VS Code (code-server + headless Chromium), issue 14: a rule probe run from the Test
 * Explorer against the local OpenAI-compatible server; a failed rule question opens in the graph panel as its
 * proof tree, each premise coloured as the answer states it (contradicted in red, missing in grey).
 * Screenshots go to test-artifacts/e2e/rules/.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
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
import { ARTIFACTS, prepareRulesWorkspace } from './support/workspace.js';

const missing = missingPrerequisite();
if (missing && mustRun()) throw new Error(`e2e tier cannot run: ${missing}`);
const skip = missing ? `e2e skipped: ${missing}` : false;

/** Every answer says "No" and puts L. Messi at the wrong club: his premise is contradicted, his teammate's missing. */
const ANSWER = 'No.\n1. The club of L. Messi is Juventus.';

describe('a failed rule question in the graph panel', { skip, timeout: 420_000 }, () => {
    let model: ModelServer;
    let session: Session;
    let wb: Workbench;

    before(async () => {
        model = await startModelServer(ANSWER);
        session = await openSession({
            modelEndpoint: model.url,
            prepare: prepareRulesWorkspace,
            settings: { 'halluprobe.defaultModel': 'local', 'testing.automaticallyOpenPeekView': 'never' },
        });
        wb = new Workbench(session.page, path.join(ARTIFACTS, 'rules'));
        await wb.open(session.server.url);
        await wb.openFile('rules.probe');
    });

    after(async () => {
        await session?.close();
        model?.stop();
    });

    it('runs the rule probe from the Test Explorer', async () => {
        await session.page.locator(S.activity('Testing')).click();
        await session.page.locator(S.testingTree).first().waitFor({ timeout: 60_000 });
        await session.page.locator(S.runAllTests).first().click();
        const failed = session.page.locator(
            `${S.testingTree}[aria-label*="Failed" i], ${S.testingTree} .codicon-testing-failed-icon`,
        );
        await failed.first().waitFor({ timeout: 180_000 });
        await wb.screenshot('test-explorer-run');
    });

    it('draws the proof tree with the contradicted and the missing premise coloured', async () => {
        await wb.openFile('rules.probe');
        // Between the colleague rule and the teammates probe: both lines, and their CodeLenses, are drawn.
        const text = fs.readFileSync(path.join(session.workspace, 'rules/rules.probe'), 'utf8').split('\n');
        const rule = text.findIndex(l => l.startsWith('rule colleague')) + 1,
            probe = text.findIndex(l => l.startsWith('probe teammates')) + 1;
        await wb.goToLine(Math.round((rule + probe) / 2));
        await session.page
            .locator(S.codeLens)
            .filter({ hasText: /^local · / })
            .first()
            .waitFor({ timeout: 60_000 });
        await session.page
            .locator(S.codeLens)
            .filter({ hasText: /^Preview derived facts$/ })
            .first()
            .waitFor({ timeout: 60_000 });
        const lenses = await wb.codeLenses();
        assert.ok(
            lenses.some(l => l === 'Preview derived facts'),
            `CodeLenses: ${lenses.join(' | ')}`,
        );
        await session.page
            .locator(`${S.codeLens} a`)
            .filter({ hasText: /^local · / })
            .first()
            .click();
        // The players are `as of 2019`: the question reads "In 2019, is it true that …" (issue 36 item 11).
        await wb.pick(/[Ii]s it true that L\. Messi and/);
        const frame = await wb.webview('graph');
        await frame.locator(S.webview.rationale).waitFor({ timeout: 30_000 });
        const nodes = await frame
            .locator(S.webview.graphNodes)
            .evaluateAll(els => els.map(e => ({ id: e.getAttribute('data-node'), status: e.getAttribute('data-status') })));
        await wb.screenshot('graph-proof');
        const status = new Map(nodes.map(n => [n.id, n.status]));
        assert.equal(status.get('node:L. Messi'), 'contradicted', JSON.stringify(nodes));
        assert.ok(
            nodes.some(n => n.id?.startsWith('fact:colleague(L. Messi,')),
            'the derived fact is the root',
        );
        assert.ok(
            nodes.some(n => n.status === 'missing'),
            "the teammate's premise is missing",
        );
        const claims = await frame.locator('#claims li').allInnerTexts();
        assert.ok(
            claims.some(c => /L\. Messi club Juventus \(data: FC Barcelona\)/.test(c)),
            claims.join(' | '),
        );
        assert.ok(
            claims.some(c => /^not stated: /.test(c)),
            claims.join(' | '),
        );
    });
});
