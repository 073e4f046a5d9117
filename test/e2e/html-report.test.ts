/**
 * The HTML report as a reader sees it, in headless Chromium: a suite with two variants (zero_shot, cot), three
 * phrasings of one probe and two models, run offline through the CLI. Measured in the page: every chart label
 * lies inside its chart, no label overlaps its neighbour, text is at least 10 px, no two groups share a label,
 * and each chart is as wide as its data. The screenshot goes to test-artifacts/e2e/html-report.png.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { chromium } from 'playwright-core';
import { main } from '../../src/cli/main.js';
import { writeVariantsSuite } from '../support/variants-suite.js';
import { chromiumPath } from './support/code-server.js';
import { CHROMIUM_FLAGS, mustRun } from './support/session.js';
import { ARTIFACTS } from './support/workspace.js';

const browserPath = chromiumPath();
if (!browserPath && mustRun()) throw new Error('e2e tier cannot run: Chromium is not installed at /usr/bin/chromium');

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

describe('the HTML report in a browser', { skip: browserPath ? false : 'e2e skipped: no Chromium', timeout: 120_000 }, () => {
    it('every chart label is readable, inside its chart, and names one group', async () => {
        const spec = writeVariantsSuite(['zero_shot', 'cot']);
        const dir = path.dirname(spec);
        const db = path.join(dir, 'results.db');
        const html = path.join(dir, 'report.html');
        assert.equal(await quietly(() => main(['run', spec, '--db', db, '--yes'])), 0);
        assert.equal(await quietly(() => main(['report', '--db', db, '--format', 'html', '--out', html])), 0);

        const browser = await chromium.launch({ executablePath: browserPath, args: CHROMIUM_FLAGS });
        try {
            const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
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
            await browser.close();
        }
    });
});
