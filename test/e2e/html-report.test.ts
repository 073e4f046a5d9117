/**
 * The HTML report as a reader sees it, in headless Chromium: a suite with two variants (zero_shot, cot), three
 * phrasings of one probe and two models, run offline through the CLI. Measured in the page: every chart label
 * lies inside its chart, no label overlaps its neighbour, text is at least 10 px, no two groups share a label,
 * and each chart is as wide as its data. The screenshot goes to test-artifacts/e2e/html-report.png.
 *
 * Issue 36 item 12: the HTML report's tables readable in a 1,400 px window — the rules and statements examples'
 * many-column tables (their families' figures) fit the window: the page does not scroll sideways and no table scrolls
 * inside its box. Screenshots go to test-artifacts/e2e/html-tables-<example>.png. One browser serves both.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { main } from '../../src/cli/main.js';
import { writeVariantsSuite } from '../support/variants-suite.js';
import { chromiumPath } from './support/code-server.js';
import { CHROMIUM_FLAGS, mustRun } from './support/session.js';
import { ARTIFACTS, REPO } from './support/workspace.js';

const browserPath = chromiumPath();
if (!browserPath && mustRun()) throw new Error('e2e tier cannot run: Chromium is not installed at /usr/bin/chromium');

interface Table {
    heading: string;
    columns: number;
    right: number;
    scrolls: number;
}

interface Measured {
    charts: {
        caption: string;
        width: number;
        dataRight: number;
        labels: { text: string; left: number; right: number; top: number; bottom: number; font: number }[];
        box: { left: number; right: number; top: number; bottom: number };
    }[];
}

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

describe('the HTML report in a browser', { skip: browserPath ? false : 'e2e skipped: no Chromium', timeout: 420_000 }, () => {
    let browser: Browser;
    before(async () => {
        browser = await chromium.launch({ executablePath: browserPath, args: CHROMIUM_FLAGS });
    });
    after(async () => {
        await browser?.close();
    });

    it('every chart label is readable, inside its chart, and names one group', async () => {
        const spec = writeVariantsSuite(['zero_shot', 'cot']);
        const dir = path.dirname(spec);
        const db = path.join(dir, 'results.db');
        const html = path.join(dir, 'report.html');
        assert.equal(await quietly(() => main(['run', spec, '--db', db, '--yes'])), 0);
        assert.equal(await quietly(() => main(['report', '--db', db, '--format', 'html', '--out', html])), 0);

        const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
        try {
            await page.goto(`file://${html}`);
            const m: Measured = await page.evaluate(() => ({
                charts: Array.from(document.querySelectorAll('figure.chart')).map(fig => {
                    const svg = fig.querySelector('svg')!;
                    const box = svg.getBoundingClientRect();
                    const marks = Array.from(svg.querySelectorAll('rect')).map(r => r.getBoundingClientRect().right);
                    return {
                        caption: fig.querySelector('figcaption')!.textContent!,
                        width: box.width,
                        dataRight: Math.max(...marks) - box.left,
                        // What the reader sees of the chart: the svg, within its (scrollable) figure.
                        box: {
                            left: box.left,
                            right: Math.min(box.right, fig.getBoundingClientRect().right),
                            top: box.top,
                            bottom: box.bottom,
                        },
                        labels: Array.from(svg.querySelectorAll('text.lbl')).map(t => {
                            const r = t.getBoundingClientRect();
                            return {
                                text: Array.from(t.querySelectorAll('tspan'))
                                    .map(s => s.textContent)
                                    .join(' | '),
                                left: r.left,
                                right: r.right,
                                top: r.top,
                                bottom: r.bottom,
                                font: parseFloat(getComputedStyle(t).fontSize),
                            };
                        }),
                    };
                }),
            }));
            fs.mkdirSync(ARTIFACTS, { recursive: true });
            await page.screenshot({ path: path.join(ARTIFACTS, 'html-report.png'), fullPage: true });

            const bars = m.charts.filter(c => !c.caption.endsWith('per hop'));
            const hops = m.charts.filter(c => c.caption.endsWith('per hop'));
            assert.ok(bars.length >= 2 && hops.length >= 2, `charts: ${m.charts.map(c => c.caption).join('; ')}`);
            const names: string[] = [];
            for (const c of m.charts) {
                for (const l of c.labels) {
                    assert.ok(l.font >= 10, `${c.caption}: label "${l.text}" is ${l.font} px`);
                    assert.ok(
                        l.left >= c.box.left - 0.5 && l.right <= c.box.right + 0.5 && l.bottom <= c.box.bottom + 0.5,
                        `${c.caption}: label "${l.text}" is cut (${l.left}–${l.right} in ${c.box.left}–${c.box.right})`,
                    );
                    names.push(`${c.caption} ▸ ${l.text}`);
                }
                const sorted = [...c.labels].sort((a, b) => a.left - b.left);
                for (let i = 1; i < sorted.length; i++)
                    assert.ok(
                        sorted[i]!.left >= sorted[i - 1]!.right,
                        `${c.caption}: "${sorted[i - 1]!.text}" overlaps "${sorted[i]!.text}"`,
                    );
                // Sized to its data: little room to the right of the last bar.
                assert.ok(c.width - c.dataRight < 120, `${c.caption}: ${c.width} px wide, data ends at ${c.dataRight} px`);
            }
            // Six groups (three phrasings × two variants) per model and probe, each told apart.
            assert.ok(
                bars.some(c => c.labels.length >= 6),
                bars.map(c => `${c.caption}: ${c.labels.length}`).join('; '),
            );
            assert.deepEqual(
                names.filter((n, i) => names.indexOf(n) !== i),
                [],
                'two groups share a label',
            );
        } finally {
            await page.close();
        }
    });

    // The tables: the rules and statements examples in a 1,400 px window.
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
            const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
            try {
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
                await page.close();
            }
        });
    }
});
