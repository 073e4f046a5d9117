/**
 * How the graph panel opens (issue 25 item 3): every failed question of the movie, rules and open examples, run
 * offline, drawn by the built graph webview (dist/webview/graph.js, `npm run build` first) in headless Chromium at
 * panel widths of 400, 500 and 600 px. Counted: the graphs that open whole (every node and edge label inside the
 * canvas) with every label at least 11 px high. Needs Chromium at /usr/bin/chromium (or $HALLUPROBE_CHROMIUM).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { chromium } from 'playwright-core';
import { report, type BenchRow } from './support.js';
import { main } from '../src/cli/main.js';
import { openStore } from '../src/core/store/index.js';
import { questionView } from '../src/core/kg/index.js';
import type { GraphView } from '../src/protocol/webview.js';

const REPO = path.resolve(import.meta.dirname, '..');
const browserPath = [process.env.HALLUPROBE_CHROMIUM, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find(
    (c): c is string => !!c && fs.existsSync(c),
);
if (!browserPath) throw new Error('graph-fit needs Chromium (/usr/bin/chromium or $HALLUPROBE_CHROMIUM)');
const script = path.join(REPO, 'dist/webview/graph.js');
if (!fs.existsSync(script)) throw new Error('graph-fit needs the built webview: npm run build');

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'halluprobe-graph-fit-'));
for (const name of ['movie', 'rules', 'open'])
    fs.cpSync(path.join(REPO, 'examples', name), path.join(dir, name), {
        recursive: true,
        filter: src => !src.includes('.halluprobe'),
    });
fs.cpSync(path.join(REPO, 'examples/soccer/data'), path.join(dir, 'soccer/data'), { recursive: true });

const views: { kind: string; view: GraphView }[] = [];
const log = console.log;
console.log = () => undefined;
try {
    for (const spec of ['movie/movie.probe', 'rules/rules.probe', 'open/open.probe']) {
        const db = path.join(dir, `${spec.split('/')[0]}.db`);
        if ((await main(['run', path.join(dir, spec), '--db', db, '--yes'])) !== 0)
            throw new Error(`offline run of ${spec} failed`);
        const store = await openStore(db);
        const r = (await store.loadRunResults((await store.latestRun())!.id))!;
        const questions = new Map(r.questions.map(q => [q.id, q]));
        for (const v of r.verdicts.filter(x => !x.correct)) {
            const q = questions.get(v.questionId)!;
            const a = r.answers.find(x => x.questionId === v.questionId && x.model === v.model && x.sample === v.sample);
            views.push({ kind: q.kind, view: questionView(q, v, a?.text) });
        }
        await store.close();
    }
} finally {
    console.log = log;
}

const css = ['webview.css', 'graph.css'].map(f => fs.readFileSync(path.join(REPO, 'media', f), 'utf8')).join('\n');
const page = path.join(dir, 'graph.html');
fs.writeFileSync(
    page,
    `<!DOCTYPE html><html><head><style>${css}</style></head><body data-panel="graph"><div id="app"></div>
<script>window.acquireVsCodeApi = () => ({ postMessage() {}, getState() {}, setState() {} });</script>
<script>${fs.readFileSync(script, 'utf8')}</script></body></html>`,
);

/** Measured in the page: the whole drawing inside the canvas, and the smallest label on screen. */
const MEASURE = `(() => {
    const cy = document.getElementById('graph')._cyreg.cy;
    const b = cy.elements().renderedBoundingBox({ includeLabels: true });
    const px = Math.min(...cy.elements().filter(e => String(e.data('label') ?? '') !== '').map(e => parseFloat(e.style('font-size')) * cy.zoom()));
    return { whole: b.x1 >= -0.5 && b.y1 >= -0.5 && b.x2 <= cy.width() + 0.5 && b.y2 <= cy.height() + 0.5, px };
})()`;

const rows: BenchRow[] = [];
const browser = await chromium.launch({ executablePath: browserPath, args: ['--headless', '--no-sandbox', '--disable-gpu'] });
try {
    for (const width of [400, 500, 600]) {
        const tab = await browser.newPage({ viewport: { width, height: 900 } });
        await tab.goto(`file://${page}`);
        const byKind = new Map<string, { n: number; fit: number }>();
        for (const { kind, view } of views) {
            await tab.evaluate(data => {
                document.getElementById('graph')?.remove();
                window.postMessage({ type: 'init', panel: 'graph', data }, '*');
            }, view);
            await tab.waitForFunction('!!document.getElementById("graph") && document.body.dataset.labelPx !== undefined');
            const m = (await tab.evaluate(MEASURE)) as { whole: boolean; px: number };
            const k = byKind.get(kind) ?? { n: 0, fit: 0 };
            k.n++;
            if (m.whole && m.px >= 11) k.fit++;
            byKind.set(kind, k);
        }
        await tab.close();
        const all = [...byKind.values()].reduce((a, k) => ({ n: a.n + k.n, fit: a.fit + k.fit }), { n: 0, fit: 0 });
        for (const [kind, k] of [...byKind, ['all', all] as const]) {
            rows.push({
                bench: 'graph-fit',
                case: `${kind} failures open whole, labels >= 11 px, panel ${width} px (${k.fit} of ${k.n})`,
                value: k.fit / k.n,
                unit: 'share',
                goal: width >= 600 ? 'all' : undefined,
                met: width >= 600 ? k.fit === k.n : undefined,
            });
        }
    }
} finally {
    await browser.close();
    fs.rmSync(dir, { recursive: true, force: true });
}
report(rows);
