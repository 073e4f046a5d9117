/**
 * The Compare Models panel in a real VS Code (code-server + headless Chromium), issue 37: an offline run of
 * 3 models × 2 variants, HalluProbe: Compare Models on it; at 1,400 px every grid fits the panel without
 * scrolling sideways, its text is at least 11 px, the numbers are the engine's (as `compare --format json`
 * writes them), and a cell opens its flipped questions. Run Suite's picker shows each suite's power before a run (the
 * engine's words). Screenshots go to test-artifacts/e2e/compare/.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { main } from '../../src/cli/main.js';
import { writeVariantsSuite } from '../support/variants-suite.js';
import { Workbench } from './support/workbench.js';
import { missingPrerequisite, mustRun, openSession, type Session } from './support/session.js';
import { ARTIFACTS } from './support/workspace.js';
import { pairedNumber as num, type CellComparison } from '../../src/core/report/index.js';
import { powerSummary, suitePower } from '../../src/core/run/index.js';
import { S } from './support/selectors.js';

const missing = missingPrerequisite();
if (missing && mustRun()) throw new Error(`e2e tier cannot run: ${missing}`);
const skip = missing ? `e2e skipped: ${missing}` : false;

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

interface Measured {
    grids: { right: number; font: number; cells: number }[];
    width: number;
    scrollWidth: number;
    titles: string[];
    texts: string[];
}

describe("Compare Models: the grid of a run's models × variants", { skip, timeout: 300_000 }, () => {
    let session: Session;
    let wb: Workbench;
    let expected: CellComparison;

    before(async () => {
        session = await openSession({
            prepare: dir => {
                const spec = writeVariantsSuite(['zero_shot', 'cot']);
                fs.cpSync(path.dirname(spec), dir, { recursive: true });
                const file = path.join(dir, 'soccer.probe');
                // A third model, much weaker, so that some pairs have a winner.
                fs.writeFileSync(
                    file,
                    fs
                        .readFileSync(file, 'utf8')
                        .replace('models simulator, simulator_two', 'models simulator, simulator_two, weak') +
                        '\nmodel weak offline {\n    knowledge 0.1\n    seed 5\n}\n' +
                        // A second suite, so that Run Suite asks which (its picker shows each suite's power).
                        '\nsuite clubs {\n    probes player_club\n    models simulator\n    sample first 10\n}\n',
                );
                return dir;
            },
            settings: { 'testing.automaticallyOpenPeekView': 'never', 'workbench.secondarySideBar.defaultVisibility': 'hidden' },
        });
        const spec = path.join(session.workspace, 'soccer.probe');
        assert.equal(await quietly(() => main(['run', spec, '--suite', 'olympics', '--yes'])), 0);
        const out = path.join(session.workspace, 'compare.json');
        assert.equal(
            await quietly(() =>
                main([
                    'compare',
                    'latest',
                    '--db',
                    path.join(session.workspace, '.halluprobe', 'results.db'),
                    '--format',
                    'json',
                    '--out',
                    out,
                ]),
            ),
            0,
        );
        expected = JSON.parse(fs.readFileSync(out, 'utf8')) as CellComparison;
        await session.page.setViewportSize({ width: 1400, height: 900 });
        wb = new Workbench(session.page, path.join(ARTIFACTS, 'compare'));
        await wb.open(session.server.url);
    });

    after(async () => {
        await session?.close();
    });

    it("Run Suite's picker says under each suite what difference its questions can detect (the engine's power)", async () => {
        const spec = path.join(session.workspace, 'soccer.probe');
        const expected = new Map<string, string>();
        for (const suite of ['olympics', 'clubs']) {
            const r = await suitePower({ spec, suite });
            assert.ok(!r.blocked);
            expected.set(suite, powerSummary(r));
        }
        assert.notEqual(
            expected.get('olympics'),
            expected.get('clubs'),
            'the suites ask different numbers of questions a group (all rows, the first 10)',
        );
        await wb.openFile('soccer.probe');
        await wb.command('HalluProbe: Run Suite');
        const rows = session.page.locator(S.quickInputRows);
        for (const [suite, text] of expected)
            await rows.filter({ hasText: suite }).filter({ hasText: text }).first().waitFor({ timeout: 60_000 });
        await session.page.mouse.move(700, 850);
        await wb.screenshot('run-picker');
        // Readable: each suite's power line is shown whole, not cut off with an ellipsis.
        const shown = await rows.evaluateAll(rs =>
            rs.map(r => ({
                text: r.textContent ?? '',
                cut: Array.from(r.querySelectorAll('*')).some(
                    e => e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).textOverflow === 'ellipsis',
                ),
            })),
        );
        for (const [suite, text] of expected) {
            const row = shown.find(r => r.text.includes(suite) && r.text.includes(text));
            assert.ok(row, `${suite}: ${text} in ${JSON.stringify(shown)}`);
            assert.ok(!row.cut, `${suite}: the power line is cut off`);
        }
        await session.page.keyboard.press('Escape');
    });

    it("is readable at 1,400 px, shows the engine's numbers, and a cell opens its flipped questions", async () => {
        assert.equal(expected.cells.length, 6, expected.cells.map(c => c.id).join('; '));
        await wb.openFile('soccer.probe');
        await wb.command('HalluProbe: Compare Models');
        await wb.pick(/\d{8}-\d{6}-/);
        await session.page.keyboard.press('Enter');
        const frame = await wb.webview('compare');
        await frame.locator('table.grid').first().waitFor({ timeout: 90_000 });
        await wb.screenshot('grid');
        const m = (await frame.evaluate(`(() => ({
            width: document.documentElement.clientWidth,
            scrollWidth: document.documentElement.scrollWidth,
            titles: Array.from(document.querySelectorAll('section.matrix h2')).map(h => h.textContent),
            texts: Array.from(document.querySelectorAll('table.grid td.pair button')).map(b => b.textContent),
            grids: Array.from(document.querySelectorAll('table.grid')).map(t => ({
                right: t.getBoundingClientRect().right,
                font: Math.min(...Array.from(t.querySelectorAll('th, td')).map(c => parseFloat(getComputedStyle(c).fontSize))),
                cells: t.querySelectorAll('td.pair').length,
            })),
        }))()`)) as Measured;
        assert.equal(m.grids.length, expected.matrices.length);
        assert.equal(m.scrollWidth, m.width, `the page scrolls sideways: ${m.scrollWidth} px of content in ${m.width}`);
        for (const g of m.grids) {
            assert.ok(g.right <= m.width + 0.5, `a grid ends at ${g.right} px in a ${m.width} px panel`);
            assert.ok(g.font >= 11, `grid text ${g.font} px`);
        }
        // One matrix per figure and group, all 15 pairs of the 6 cells, each the engine's difference.
        assert.equal(m.grids[0]!.cells, 15);
        const deltas = expected.matrices.flatMap(x => x.pairs.map(p => `${num(p.delta)}${p.winner ? ' ✓' : ''}`));
        assert.deepEqual(m.texts, deltas);
        assert.ok(
            expected.matrices.some(x => x.pairs.some(p => p.winner)),
            'the weak model loses somewhere',
        );
        // A cell with a winner opens its flipped questions.
        const winner = frame.locator('td.win-column button, td.win-row button').first();
        await winner.click();
        const flips = frame.locator('.details .flips li');
        await flips.first().waitFor({ timeout: 10_000 });
        assert.match(await flips.first().innerText(), /^Player\(|^Club\(|\(\d\.\d{4} → \d\.\d{4}\)$/);
        await frame.locator('.details .flips').first().scrollIntoViewIfNeeded();
        await wb.screenshot('flips');
    });
});
