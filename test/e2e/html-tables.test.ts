/**
 * Issue 36 item 12: the HTML report's tables readable in a 1,400 px window (headless Chromium) — the rules and statements
 * examples' many-column tables (their families' figures) fit the window: the page does not scroll sideways and no
 * table scrolls inside its box. Screenshots go to test-artifacts/e2e/html-tables-<example>.png.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { chromium } from 'playwright-core';
import { main } from '../../src/cli/main.js';
import { chromiumPath } from './support/code-server.js';
import { CHROMIUM_FLAGS, mustRun } from './support/session.js';
import { ARTIFACTS, REPO } from './support/workspace.js';

const browserPath = chromiumPath();
if (!browserPath && mustRun()) throw new Error('e2e tier cannot run: Chromium is not installed at /usr/bin/chromium');

async function quietly<T>(f: () => Promise<T>): Promise<T> {
    const log = console.log,
        error = console.error;
    console.log = () => undefined;
    console.error = () => undefined;
    try {
        return await f();
    } finally {
        console.log = log;
        console.error = error;
    }
}

interface Table {
    heading: string;
    columns: number;
    right: number;
    scrolls: number;
}

describe(
    "the HTML report's tables in a 1,400 px window",
    { skip: browserPath ? false : 'e2e skipped: no Chromium', timeout: 300_000 },
    () => {
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hp-html-tables-'));
        // The rules example reads the soccer data beside it, the statements example the movie data, as in the repository.
        for (const example of ['rules', 'statements', 'soccer', 'movie'])
            fs.cpSync(path.join(REPO, 'examples', example), path.join(dir, example), {
                recursive: true,
                filter: src => !src.includes('.halluprobe'),
            });

        for (const example of ['rules', 'statements']) {
            it(`${example}: every table fits the window`, async () => {
                const spec = path.join(dir, example, `${example}.probe`);
                const db = path.join(dir, example, 'results.db');
                const html = path.join(dir, `${example}.html`);
                assert.equal(await quietly(() => main(['run', spec, '--db', db, '--yes'])), 0);
                assert.equal(await quietly(() => main(['report', '--db', db, '--format', 'html', '--out', html])), 0);
                const browser = await chromium.launch({ executablePath: browserPath, args: CHROMIUM_FLAGS });
                try {
                    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
                    await page.goto(`file://${html}`);
                    const m = (await page.evaluate(() => ({
                        page: document.documentElement.scrollWidth - innerWidth,
                        width: innerWidth,
                        tables: Array.from(document.querySelectorAll('table')).map(t => {
                            let box: Element = t.parentElement!;
                            // The box the table sits in: its own scroll box, if any, else the page.
                            if (getComputedStyle(box).overflowX === 'visible') box = document.documentElement;
                            return {
                                heading:
                                    t.previousElementSibling?.textContent ??
                                    t.parentElement?.previousElementSibling?.textContent ??
                                    '',
                                columns: t.rows[0]?.cells.length ?? 0,
                                right: t.getBoundingClientRect().right,
                                scrolls: box.scrollWidth - box.clientWidth,
                            };
                        }),
                    }))) as { page: number; width: number; tables: Table[] };
                    const widest = m.tables.reduce((a, b) => (b.columns > a.columns ? b : a));
                    await page.evaluate(
                        n =>
                            Array.from(document.querySelectorAll('table'))
                                .find(t => t.rows[0]?.cells.length === n)
                                ?.scrollIntoView(),
                        widest.columns,
                    );
                    fs.mkdirSync(ARTIFACTS, { recursive: true });
                    await page.screenshot({ path: path.join(ARTIFACTS, `html-tables-${example}.png`) });
                    assert.ok(widest.columns > 12, `${example} has a table of many columns (${widest.columns})`);
                    assert.ok(m.page <= 1, `${example}: the page scrolls sideways by ${m.page} px`);
                    const over = m.tables
                        .filter(t => t.right > m.width + 0.5 || t.scrolls > 1)
                        .map(t => `${t.heading} (${t.columns} columns, right ${t.right.toFixed(0)}, scrolls ${t.scrolls})`);
                    assert.deepEqual(over, [], `${example}: tables wider than the window`);
                } finally {
                    await browser.close();
                }
            });
        }
    },
);
