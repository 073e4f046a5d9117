/**
 * A batch run from the editor, end to end in a real VS Code (code-server + headless Chromium): Run Suite's picker
 * offers "Send as a batch" for a model with a Batch API (the local OpenAI Batch API of test/support, in this
 * process); the run waits in the status bar and in the Test Explorer while the provider holds the batch, and a
 * notification says when the results arrived, which the Test Explorer then reports.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Workbench } from './support/workbench.js';
import { S } from './support/selectors.js';
import { missingPrerequisite, mustRun, openSession, type Session } from './support/session.js';
import { ARTIFACTS, prepareWorkspace } from './support/workspace.js';
import { startBatchServer, type BatchServer } from '../support/openai-batch-server.js';

const missing = missingPrerequisite();
if (missing && mustRun()) throw new Error(`e2e tier cannot run: ${missing}`);
const skip = missing ? `e2e skipped: ${missing}` : false;

describe('a batch run from the editor', { skip, timeout: 420_000 }, () => {
    let server: BatchServer;
    let session: Session;
    let wb: Workbench;

    before(async () => {
        server = await startBatchServer();
        // The provider keeps the batch in progress until the test lets it finish.
        server.hold = true;
        const origin = new URL(server.url).origin;
        session = await openSession({
            // The movie example with an OpenAI-provider model at the local Batch API, its suite cut to a few questions.
            prepare: dir => {
                prepareWorkspace(dir);
                const spec = path.join(dir, 'movie.probe');
                let text = fs.readFileSync(spec, 'utf8');
                text += `\nmodel gpt openai {\n    id "test-model"\n    endpoint "${server.url}"\n}\n`;
                text = text.replace(
                    /(suite movies \{[\s\S]*?)probes [^\n]*\n(\s*)models simulator/,
                    '$1probes movie_binary\n$2models gpt',
                );
                text = text.replace(/(suite movies \{[\s\S]*?)sample all/, '$1sample first 6');
                fs.writeFileSync(spec, text);
                return dir;
            },
            // An environment key goes to a trusted host without a prompt; the run looks at its batch every 300 ms.
            env: { OPENAI_API_KEY: 'sk-e2e-batch-key', HALLUPROBE_TRUSTED_HOSTS: origin, HALLUPROBE_BATCH_POLL_MS: '300' },
        });
        wb = new Workbench(session.page, path.join(ARTIFACTS, 'batch'));
        await wb.open(session.server.url);
        await wb.openFile('movie.probe');
    });

    after(async () => {
        await session?.close();
        await server?.close();
    });

    it('offers the batch in the run picker, waits for the provider in the status bar and the Test Explorer, and says when results arrive', async () => {
        await wb.command('HalluProbe: Run Suite');
        await wb.pick(/Send as a batch/);
        await wb.screenshot('picker-chosen');

        // The run waits for the provider: its batch is created, the status bar shows a batch run.
        const status = session.page.locator('.statusbar-item').filter({ hasText: /batch \d+\/\d+/ });
        await status.first().waitFor({ timeout: 120_000 });
        assert.equal(server.created.length, 1, 'one batch sent');
        assert.ok(server.created[0]!.questions.length > 0);

        // The Test Explorer shows the run going: its questions are running while the batch is held.
        await session.page.locator(S.activity('Testing')).click();
        const running = session.page.locator(
            `${S.testingTree}[aria-label*="Running" i], ${S.testingTree}[aria-label*="Queued" i], ${S.testingTree} .codicon-loading`,
        );
        await running.first().waitFor({ timeout: 60_000 });
        await wb.screenshot('batch-waiting');

        // The provider finishes the batch: the results arrive, a notification says so, the Test Explorer reports them.
        server.hold = false;
        const arrived = session.page.locator(S.notificationToasts).filter({ hasText: /batch results arrived/ });
        await arrived.first().waitFor({ timeout: 120_000 });
        const text = await arrived.first().locator(S.notificationMessage).innerText();
        assert.match(text, /batch results arrived: \d+ of \d+ answers failed · suite movies · batch/);
        const reported = session.page.locator(
            `${S.testingTree}[aria-label*="Failed" i], ${S.testingTree}[aria-label*="Passed" i], ${S.testingTree} .codicon-testing-failed-icon, ${S.testingTree} .codicon-testing-passed-icon`,
        );
        await reported.first().waitFor({ timeout: 60_000 });
        await wb.screenshot('batch-arrived');
        assert.equal(server.created.length, 1, 'no second batch: nothing was asked twice');
        assert.ok([...server.asked.values()].every(n => n === 1));
    });
});
