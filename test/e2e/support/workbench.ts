/**
 * Page objects over a code-server workbench driven by playwright-core: commands, files, panels, and
 * frame-aware access to HalluProbe webviews (VS Code nests each webview in two iframes; the inner one
 * holds our page, found by its `data-panel` attribute).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Frame, Locator, Page } from 'playwright-core';
import { S } from './selectors.js';

export class Workbench {
    private shot = 0;

    constructor(
        readonly page: Page,
        private readonly artifacts: string,
    ) {
        fs.mkdirSync(artifacts, { recursive: true });
    }

    async open(url: string): Promise<void> {
        await this.page.goto(url);
        await this.page.locator(S.workbench).waitFor({ timeout: 90_000 });
    }

    /** Saves `NN-name.png` under the artefacts folder and returns its path. */
    async screenshot(name: string): Promise<string> {
        const file = path.join(this.artifacts, `${String(++this.shot).padStart(2, '0')}-${name}.png`);
        await this.page.screenshot({ path: file });
        return file;
    }

    /**
     * Opens the quick input with `key` (F1: commands, Control+P: files). A busy workbench or an open peek
     * view can swallow the key, so it closes what is open and tries again.
     */
    private async quickInput(key: string): Promise<Locator> {
        const box = this.page.locator(S.quickInputBox);
        for (let attempt = 1; ; attempt++) {
            await this.page.keyboard.press('Escape');
            await this.page.keyboard.press('Escape');
            // Focus goes back to the editor, if one is shown (waiting for one that is not there cost 30 s a call).
            const editor = this.page.locator(S.editor).first();
            if (await editor.isVisible())
                await editor.click({ position: { x: 200, y: 10 }, trial: attempt === 1, timeout: 5_000 }).catch(() => undefined);
            await this.page.keyboard.press(key);
            try {
                await box.waitFor({ state: 'visible', timeout: 5_000 });
                return box;
            } catch (err) {
                if (attempt >= 4) throw err;
            }
        }
    }

    /** Scrolls the active editor to a 1-based line (Go to Line), so that its CodeLenses are drawn. */
    async goToLine(line: number): Promise<void> {
        const box = await this.quickInput('Control+G');
        await box.fill(`:${line}`);
        await box.press('Enter');
    }

    /**
     * Runs a command by its palette title, e.g. "HalluProbe: Preview Questions". The palette lists the commands known
     * when it opens: a command of an extension still activating on a loaded machine appears only in a palette opened
     * later, so the palette is opened again. A palette opened too early never lists the command, so the first looks
     * are short and the later ones longer (3, 5, 10, then 15 s: 63 s in all, as the four looks of 15 s were); the
     * first command after the workbench opened spent 15 s on a palette that could not list it.
     */
    async command(title: string): Promise<void> {
        const looks = [3_000, 5_000, 10_000, 15_000, 15_000, 15_000];
        for (let attempt = 1; ; attempt++) {
            const box = await this.quickInput('F1');
            await box.fill(`>${title}`);
            // The focused row, the one Enter runs: the palette lists recent commands before it has filtered.
            const row = this.page.locator(S.quickInputFocusedRow).filter({ hasText: title }).first();
            try {
                await row.waitFor({ timeout: looks[attempt - 1] });
            } catch (err) {
                if (attempt >= looks.length) throw err;
                continue;
            }
            await box.press('Enter');
            return;
        }
    }

    /**
     * Opens a workspace file: from the Explorer when it lists the file at the top, else with Quick Open. Quick Open's
     * file search can be slow to list a file on a loaded machine, so it is asked again (closing what is open first),
     * three times in all.
     */
    async openFile(name: string): Promise<void> {
        // A file at the workspace's top is opened from the Explorer, which lists it at once; Quick Open's first file
        // search took 10–20 s to list anything on a loaded machine.
        // Only a row at the top level (aria-level 1): a nested file's row may be hidden or scrolled by the tree.
        const topLevel = `${S.explorerRows}[aria-level="1"]`;
        const listed = this.page.locator(`${topLevel}[aria-label=${JSON.stringify(name)}]`).first();
        const tab = this.page.locator(S.editorTab(name)).first();
        // The Explorer lists the workspace's top level at once (one directory read): once it shows any top-level row,
        // whether it shows this file is known, without waiting 3 s for a nested file's row that never comes (3 s a
        // call). With the Explorer hidden (another view in the side bar), Quick Open after 3 s, as before.
        const explorerShown = await this.page
            .locator(S.explorer)
            .first()
            .waitFor({ state: 'visible', timeout: 3_000 })
            .then(
                () => true,
                () => false,
            );
        if (
            explorerShown &&
            (await this.page
                .locator(topLevel)
                .first()
                .waitFor({ state: 'visible', timeout: 3_000 })
                .then(
                    () => listed.isVisible(),
                    () => false,
                ))
        ) {
            await listed.dblclick();
            // Opened, or else asked of Quick Open below.
            if (
                await tab.waitFor({ timeout: 10_000 }).then(
                    () => true,
                    () => false,
                )
            )
                return;
        }
        // Enter opens the focused row: Quick Open lists recently opened files before it has filtered (a row of this file
        // among them, another focused: Enter opened that one, and the wait for this file's tab ran out). Asked again
        // when no tab of the file comes.
        for (let attempt = 1; ; attempt++) {
            const box = await this.quickInput('Control+P');
            await box.fill(name);
            try {
                await this.page.locator(S.quickInputFocusedRow).filter({ hasText: name }).first().waitFor({ timeout: 30_000 });
                await box.press('Enter');
                await tab.waitFor({ timeout: 15_000 });
                return;
            } catch (err) {
                if (attempt >= 3) throw err;
            }
        }
    }

    /** Picks the quick pick row containing `text`. */
    async pick(text: string | RegExp): Promise<void> {
        const row = this.page.locator(S.quickInputRows).filter({ hasText: text }).first();
        await row.waitFor({ timeout: 20_000 });
        await row.click();
    }

    /** Types `filter` into the open quick pick, then picks the first row that shows `text` (default: the filter). */
    async pickFiltered(filter: string, text: string | RegExp = filter): Promise<string> {
        const box = this.page.locator(S.quickInputBox);
        await box.waitFor({ state: 'visible', timeout: 30_000 });
        await box.fill(filter);
        const row = this.page.locator(S.quickInputRows).filter({ hasText: text }).first();
        await row.waitFor({ timeout: 30_000 });
        const label = await row.locator('.label-name').first().innerText();
        await row.click();
        return label;
    }

    async problems(): Promise<string[]> {
        await this.command('View: Focus Problems');
        await this.page.locator('.markers-panel').waitFor();
        return this.page.locator(S.problemsRows).allInnerTexts();
    }

    /** The inner frame of the HalluProbe webview `panel` ('preview' | 'graph' | 'compare' | 'review'), once its page has loaded. */
    webview(panel: 'preview' | 'graph' | 'compare' | 'review', timeoutMs = 60_000): Promise<Frame> {
        return this.frameWhere(`the ${panel} webview`, `document.body?.dataset.panel === ${JSON.stringify(panel)}`, timeoutMs);
    }

    /** VS Code's Markdown preview, once it has rendered a heading that starts with `heading`. */
    markdownPreview(heading: string, timeoutMs = 60_000): Promise<Frame> {
        return this.frameWhere(
            `the Markdown preview of "${heading}"`,
            `Array.from(document.querySelectorAll('.markdown-body h1, body.vscode-body h1')).some(h => (h.textContent ?? '').startsWith(${JSON.stringify(heading)}))`,
            timeoutMs,
        );
    }

    /** The whole text of the active editor, as the user would copy it (click in it, Select All, Copy; read from the clipboard). */
    async activeEditorText(): Promise<string> {
        await this.page
            .context()
            .grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(this.page.url()).origin });
        await this.page.evaluate(() => navigator.clipboard.writeText(''));
        const lines = this.page.locator(`${S.activeEditor} .view-lines`).first();
        await lines.click();
        // Select All reaches the text only once the editor has focus.
        await this.page.locator(`${S.activeEditor} .monaco-editor.focused`).first().waitFor();
        await this.page.keyboard.press('Control+A');
        await this.page.keyboard.press('Control+C');
        // Copying is asynchronous in the browser: wait until the clipboard holds the text.
        const copied = await this.page.waitForFunction(() => navigator.clipboard.readText().then(t => t || false));
        return (await copied.jsonValue()) as string;
    }

    /** The first frame in which `test` (an expression evaluated in the frame) holds. A frame may come to satisfy it
     *  after it has loaded (VS Code's Markdown preview renders by message, without navigating), so every frame is
     *  looked at again on each navigation and at least every 250 ms until the test holds. */
    private async frameWhere(what: string, test: string, timeoutMs: number): Promise<Frame> {
        const end = Date.now() + timeoutMs;
        for (;;) {
            const left = end - Date.now();
            if (left <= 0) {
                // What there was instead: each frame's address and first heading.
                const seen = await Promise.all(
                    this.page.frames().map(f =>
                        f.evaluate("(document.querySelector('h1, h2')?.textContent ?? '').slice(0, 80)").then(
                            h => `${f.url().slice(0, 100)} «${String(h)}»`,
                            () => `${f.url().slice(0, 100)} (gone)`,
                        ),
                    ),
                );
                throw new Error(`${what} did not appear within ${timeoutMs} ms; frames: ${seen.join(' | ')}`);
            }
            // Listening before looking: a frame that loads its page while the others are looked at is not missed.
            const next = this.page.waitForEvent('framenavigated', { timeout: Math.min(left, 250) }).catch(() => undefined);
            for (const frame of this.page.frames()) {
                if (await frame.evaluate(test).catch(() => false)) return frame;
            }
            await next;
        }
    }

    /** Types `text` into the Testing view's filter (a small editor of its own, not an input), replacing what was there. */
    async filterTests(text: string): Promise<void> {
        await this.page.locator(S.testingFilter).click();
        await this.page.keyboard.press('Control+A');
        await this.page.keyboard.press('Backspace');
        if (text) await this.page.keyboard.type(text);
    }

    codeLenses(): Promise<string[]> {
        return this.page.locator(S.codeLens).allInnerTexts();
    }
}
