/**
 * The graph panel in a real VS Code (code-server + headless Chromium), issue 25 item 3: a failed binary, multi-hop,
 * rule and open question, each picked from HalluProbe: Show Failures after an offline run, opens fitted to the
 * panel — every node and every edge label inside the canvas, every label at least 11 px on screen — with the
 * question's own entities marked and in view; an open question's large context opens collapsed behind "+N more"
 * nodes, which expand; one graph panel is reused for all four. Measured through cytoscape in the webview. Also
 * (items 4 and 5): every failure says why in the panel (an open one by its claims), the failure picker shows the
 * question, not its context prompt; an answered question's header is never "not run yet"; an open probe's
 * CodeLens reads R n/a AR n/a and counts answers, not rationales.
 * One fact, every family (issue 35, docs/facts.md): after an offline run of examples/facts, the hover of an FD and of a
 * data row's key in movies.csv show the facts' cross-family summary, and the fact view opens from the FD hover, whole
 * and readable at 1400 px; a family's answer in it opens that question's graph.
 * Screenshots go to test-artifacts/e2e/graph/.
 * The same session first runs readable-steps.ts (issue 36 items 5 and 6): the same examples, one code-server for both.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Frame, Locator } from 'playwright-core';
import { Workbench } from './support/workbench.js';
import { S } from './support/selectors.js';
import { cliQuietly, missingPrerequisite, mustRun, openSession, type Session } from './support/session.js';
import { ARTIFACTS, prepareGraphWorkspace } from './support/workspace.js';
import { addFreshMovie, readableSteps } from './readable-steps.js';

const missing = missingPrerequisite();
if (missing && mustRun()) throw new Error(`e2e tier cannot run: ${missing}`);
const skip = missing ? `e2e skipped: ${missing}` : false;

interface Box {
    x1: number;
    y1: number;
    x2: number;
    y2: number;
}
interface Measured {
    question: string;
    hops: string;
    why: string[];
    width: number;
    height: number;
    nodes: (Box & { id: string; label: string; kind: string; focus: boolean })[];
    edges: (Box & { id: string; label: string })[];
    labels: { id: string; text: string; px: number }[];
    more: string[];
}

/**
 * Reads the drawing from cytoscape itself (its instance hangs on the canvas element as `_cyreg.cy`). A string, so
 * that the test's transpiler adds no helper the page does not have.
 */
const MEASURE = `(() => {
    const cy = document.getElementById('graph')._cyreg.cy;
    const box = e => { const b = e.renderedBoundingBox({ includeLabels: true }); return { x1: b.x1, y1: b.y1, x2: b.x2, y2: b.y2 }; };
    const text = e => String(e.data('label') ?? '');
    return {
        question: document.querySelector('#rationale .question')?.textContent ?? '',
        hops: document.getElementById('hops')?.textContent ?? '',
        why: Array.from(document.querySelectorAll('#why li')).map(li => li.textContent ?? ''),
        width: cy.width(), height: cy.height(),
        nodes: cy.nodes().map(n => ({ id: n.id(), label: text(n), kind: String(n.data('kind')), focus: n.hasClass('focus'), ...box(n) })),
        edges: cy.edges().filter(e => text(e) !== '').map(e => ({ id: e.id(), label: text(e), ...box(e) })),
        labels: cy.elements().filter(e => text(e) !== '').map(e => ({ id: e.id(), text: text(e), px: parseFloat(e.style('font-size')) * cy.zoom() })),
        more: cy.nodes().filter(n => n.data('kind') === 'more').map(n => n.id()),
    };
})()`;

function measure(frame: Frame): Promise<Measured> {
    return frame.evaluate(MEASURE) as Promise<Measured>;
}

/** Every node and edge label inside the canvas, every label at least 11 px, the question's own entities marked and in view. */
function assertReadable(m: Measured, what: string): void {
    assertWhole(m, what);
    assert.doesNotMatch(m.hops, /not run yet/, `${what}: an answered question's header`);
    // A failure says why (issue 25 item 4): the answer read against the gold, a failed hop, or the family's own words.
    assert.ok(m.why.length > 0, `${what}: the panel does not say why the question failed`);
}

/** Every node and edge label inside the canvas, every label at least 11 px, the view's own entities marked. */
function assertWhole(m: Measured, what: string): void {
    const inside = (b: Box) => b.x1 >= -0.5 && b.y1 >= -0.5 && b.x2 <= m.width + 0.5 && b.y2 <= m.height + 0.5;
    const show = (b: Box) =>
        `${b.x1.toFixed(0)},${b.y1.toFixed(0)}–${b.x2.toFixed(0)},${b.y2.toFixed(0)} in ${m.width.toFixed(0)}×${m.height.toFixed(0)}`;
    assert.ok(m.width >= 200 && m.height >= 200, `${what}: a canvas of ${m.width}×${m.height}`);
    for (const n of m.nodes) assert.ok(inside(n), `${what}: node "${n.label}" is clipped (${show(n)})`);
    for (const e of m.edges) assert.ok(inside(e), `${what}: the label of edge "${e.label}" is clipped (${show(e)})`);
    for (const l of m.labels) assert.ok(l.px >= 11, `${what}: "${l.text}" is drawn ${l.px.toFixed(1)} px high`);
    assert.ok(
        m.nodes.some(n => n.focus),
        `${what}: no node is marked as the question's own (${m.nodes.map(n => n.id).join(', ')})`,
    );
}

/** The session both files' steps run in: the movie, rules, open and facts examples (and a never-run movie copy), run offline. */
const shared: { session?: Session } = {};

before(
    async () => {
        if (skip) return;
        shared.session = await openSession({
            prepare: dir => {
                prepareGraphWorkspace(dir);
                addFreshMovie(dir);
                return dir;
            },
            // The empty secondary side bar hidden (AI features are off): the graph gets the other half of the editor area.
            settings: { 'testing.automaticallyOpenPeekView': 'never', 'workbench.secondarySideBar.defaultVisibility': 'hidden' },
            // Offline runs into each spec's own store, before the workbench opens: the failures are there to pick.
            beforeOpen: async workspace => {
                for (const spec of ['movie/movie.probe', 'rules/rules.probe', 'open/open.probe', 'facts/facts.probe']) {
                    assert.equal(await cliQuietly(['run', path.join(workspace, spec), '--yes']), 0, `offline run of ${spec}`);
                }
            },
        });
        await new Workbench(shared.session.page, path.join(ARTIFACTS, 'graph')).open(shared.session.server.url);
    },
    { timeout: 300_000 },
);

after(async () => {
    await shared.session?.close();
});

readableSteps(shared, skip);

describe('the graph panel opens every kind of question readable', { skip, timeout: 420_000 }, () => {
    let session: Session;
    let wb: Workbench;
    let frame: Frame;

    before(async () => {
        session = shared.session!;
        wb = new Workbench(session.page, path.join(ARTIFACTS, 'graph'));
        // The workbench as it opened, as for readable-steps.ts: no editor, no panel, the first window size.
        await wb.command('View: Close All Editor Groups');
        await session.page.locator(S.editorTabs).first().waitFor({ state: 'detached', timeout: 30_000 });
        await session.page.setViewportSize({ width: 1500, height: 950 });
    });

    /** Show Failures on `spec`, the first failure matching `filter`; resolves once the panel draws that question. */
    async function openFailure(spec: string, filter: string): Promise<{ picked: string; m: Measured; rows: string[] }> {
        await wb.openFile(spec);
        await wb.command('HalluProbe: Show Failures');
        await session.page.locator(S.quickInputRows).first().waitFor({ timeout: 60_000 });
        const rows = await session.page.locator(`${S.quickInputRows} .label-name`).allInnerTexts();
        const picked = await wb.pickFiltered(filter);
        frame = await wb.webview('graph');
        // The panel has drawn this question once its rationale names it.
        await frame
            .locator('#rationale .question')
            .filter({ hasText: picked.replace(/…$/, '') })
            .waitFor({ timeout: 60_000 });
        await frame.locator('body[data-label-px]').waitFor();
        return { picked, m: await measure(frame), rows };
    }

    it('a binary question', async () => {
        const { m } = await openFailure('movie.probe', 'Is there a movie');
        await wb.screenshot('binary');
        assertReadable(m, 'binary');
        for (const w of m.why)
            assert.match(w, /^answer (yes|no|unsure|unparseable), expected (yes|no)|^hop \d+: /, 'binary: why');
        assert.ok(
            m.nodes.some(n => n.kind === 'entity' && n.focus),
            'the movie is the marked entity',
        );
    });

    it('a multi-hop question', async () => {
        const { m } = await openFailure('movie.probe', 'Was the director who directed');
        await wb.screenshot('multi-hop');
        assertReadable(m, 'multi-hop');
        assert.ok(m.nodes.length >= 3, `a path of two hops: ${m.nodes.map(n => n.label).join(', ')}`);
    });

    it('a rule question (its proof tree)', async () => {
        const { m } = await openFailure('rules.probe', 'Is it true that');
        await wb.screenshot('rule');
        assertReadable(m, 'rule');
        assert.ok(
            m.nodes.some(n => n.focus && n.id.startsWith('fact:')),
            "the derived fact, the proof's root, is marked",
        );
    });

    it('an open question: its context collapsed around its entities, "+N more" expands', async () => {
        const { m, rows } = await openFailure('open.probe', 'Explain the relationship');
        await wb.screenshot('open');
        // Figures that do not apply to open probes read n/a in the CodeLens, not 0.00 (issue 25 item 5).
        const lens = session.page
            .locator(S.codeLens)
            .filter({ hasText: /simulator \(offline simulator\) · A [.\d]+ R n\/a AR n\/a H [.\d]+/ });
        await lens.first().waitFor({ timeout: 60_000 });
        assert.doesNotMatch((await wb.codeLenses()).join(' | '), /R \.00 AR \.00/);
        // It counts answers; an open answer has no rationale keywords to fail (issue 25 item 4: not "0 of 80 rationales failed").
        assert.doesNotMatch(await lens.first().innerText(), /rationales failed/);
        // The failure picker shows the question, not the context prompt it was asked with.
        assert.ok(rows.length > 0);
        for (const r of rows) assert.doesNotMatch(r, /Below are the facts|Answer:|\n/, `a failure picker row: ${r}`);
        assertReadable(m, 'open');
        // An open failure is explained by its claims, never as "answer yes, expected yes" (issue 25 item 4).
        assert.ok(
            m.why.some(w => /^claim ".+" (at \d+–\d+ )?contradicted|^no claim supported by the data|^no claim read/.test(w)),
            `open: why ${m.why.join(' | ')}`,
        );
        for (const w of m.why) assert.doesNotMatch(w, /^answer yes, expected yes/, 'open: why');
        const entities = m.nodes.filter(n => n.focus).map(n => n.label);
        assert.ok(
            entities.some(l => m.question.includes(l)),
            `the marked entities (${entities.join(', ')}) are the question's: ${m.question.split('\n')[0]}`,
        );
        assert.ok(m.more.length > 0, `a large context opens collapsed: ${m.nodes.length} nodes drawn`);
        const before = m.nodes.length;
        await frame.locator(`${S.webview.graphNodes}[data-node="${m.more[0]}"] button`).click();
        // Drawn once the "+N more" node is gone and more nodes are there.
        await frame.waitForFunction(
            `(() => { const cy = document.getElementById('graph')._cyreg.cy; return cy.getElementById(${JSON.stringify(m.more[0])}).empty() && cy.nodes().length > ${before}; })()`,
        );
        const grown = await measure(frame);
        await wb.screenshot('open-expanded');
        for (const l of grown.labels) assert.ok(l.px >= 11, `after expanding: "${l.text}" is ${l.px.toFixed(1)} px`);
    });

    it('reuses one graph panel for all of them', async () => {
        const tabs = await session.page.locator('.tabs-container .tab').allInnerTexts();
        assert.equal(tabs.filter(t => t.startsWith('Graph ·')).length, 1, `tabs: ${tabs.join(' | ')}`);
    });

    it("the open probe's report as Show Results opens it (rendered in the Markdown preview): n/a where a figure does not apply, levels in the spec's order, failures explained by their claims", async () => {
        await wb.openFile('open.probe');
        await wb.command('HalluProbe: Show Results');
        // With focus in the graph panel no spec editor is active: the command asks which spec, as it would a user.
        const which = session.page.locator(S.quickInputRows).filter({ hasText: 'open.probe' }).first();
        const preview = wb.markdownPreview('HalluProbe report', 90_000);
        // The pick may come late on a loaded machine: it is clicked whenever it comes, until the preview is there.
        void which
            .waitFor({ timeout: 90_000 })
            .then(() => which.click())
            .catch(() => undefined);
        // Issue 36 item 4: the report opens rendered (headings and tables in VS Code's Markdown preview), from a file
        // beside the store, not as raw Markdown in a dirty Untitled buffer.
        const frame = await preview;
        assert.ok((await frame.locator('table').count()) > 0, "the preview renders the report's tables");
        await wb.screenshot('open-report');
        const tabs = await session.page.locator('.tabs-container .tab').allInnerTexts();
        assert.ok(!tabs.some(t => /^Untitled/.test(t)), `tabs: ${tabs.join(' | ')}`);
        const reports = path.join(session.workspace, 'open', '.halluprobe', 'reports');
        const text = fs.readFileSync(
            path.join(
                reports,
                fs.readdirSync(reports).find(f => f.endsWith('.md'))!,
            ),
            'utf8',
        );
        assert.match(text, /^# HalluProbe report/);
        /** The explain_pair rows of the table under `heading`, as cells. */
        const rows = (heading: string) => {
            const table = text.slice(text.indexOf(`## ${heading}`)).split('\n\n')[1] ?? '';
            return table
                .split('\n')
                .map(l =>
                    l
                        .split('|')
                        .slice(1, -1)
                        .map(c => c.trim()),
                )
                .filter(c => c[1] === 'explain\\_pair');
        };
        const metrics = rows('Metrics');
        assert.ok(metrics.length > 0, `no Metrics rows in: ${text.slice(0, 800)}`);
        // Item 5: R and AR do not apply to an open probe: n/a, never 0.00.
        for (const r of metrics) assert.deepEqual([r[7], r[8]], ['n/a', 'n/a'], `R / AR of ${r[2]}`);
        // Item 7: none, clean, then the perturbed levels in the spec's order (perturb ["rewire", "replace"]).
        const specOrder = ['none', 'clean', 'rewire-25', 'rewire-50', 'rewire-100', 'replace-25', 'replace-50', 'replace-100'];
        assert.deepEqual(
            metrics.map(r => r[2]),
            specOrder,
        );
        assert.deepEqual(
            rows('Open answers').map(r => r[2]),
            specOrder,
        );
        // Item 4: a failing open question is explained by its claims, not by "answer yes, expected yes".
        const failing = text.slice(text.indexOf('Failing questions'));
        assert.match(failing, /claim ".+" at \d+–\d+ contradicted by the data's /);
        assert.doesNotMatch(failing, /answer yes, expected yes/);
    });
    /** The editor's hover at the start of 1-based `line` of the active editor (Show or Focus Hover), once it says `text`. */
    async function hoverAt(line: number, text: RegExp): Promise<Locator> {
        await wb.goToLine(line);
        const hover = session.page.locator('.monaco-hover:not(.hidden)').filter({ hasText: text }).first();
        // The hover may come before the engine's part of it: asked again until that part is there. The first look is
        // short (a hover drawn without that part stays so: a first look of 20 s was spent on one), then 15 and 20 s:
        // 63 s in all, as the three looks of 20 s were.
        const looks = [8_000, 15_000, 20_000, 20_000];
        for (let attempt = 1; ; attempt++) {
            await wb.command('Show or Focus Hover');
            try {
                await hover.waitFor({ timeout: looks[attempt - 1] });
                return hover;
            } catch (err) {
                if (attempt >= looks.length) throw err;
            }
        }
    }

    it('one fact, every family: the FD hover summarises its facts and opens the fact view, whole and readable at 1400 px', async () => {
        await session.page.setViewportSize({ width: 1400, height: 950 });
        await wb.openFile('facts.probe');
        const spec = fs.readFileSync(path.join(session.workspace, 'facts/facts.probe'), 'utf8').split('\n');
        const hover = await hoverAt(spec.findIndex(l => l.includes('as movie_director')) + 1, /Facts across families \(\d+\)/);
        await wb.screenshot('fd-hover-facts');
        const text = await hover.innerText();
        assert.match(
            text,
            /Facts across families \(\d+\): (knows|fragile|believes|yields|does-not-know|abstains|not-enough-forms) \d+/,
        );
        const link = hover
            .locator('a')
            .filter({ hasText: /^Movie\(.+\)\.director$/ })
            .first();
        const label = await link.innerText();
        await link.click();
        await session.page.keyboard.press('Escape');
        frame = await wb.webview('graph');
        // The panel has drawn the fact once its summary names it.
        await frame.locator('#rationale .question').filter({ hasText: label }).waitFor({ timeout: 60_000 });
        await frame.locator('body[data-label-px]').waitFor();
        const m = await measure(frame);
        await wb.screenshot('fact-view');
        assertWhole(m, 'fact view');
        assert.ok(m.width + 1 < 1400, `the panel is part of a 1400 px window: ${m.width}`);
        const answers = m.nodes.filter(n => n.kind === 'answer');
        assert.ok(answers.length >= 2, `families around the fact: ${m.nodes.map(n => n.label).join(' | ')}`);
        for (const a of answers) assert.match(a.label, /^\w+\n(right|abstained|wrong(: .+)?)$/, "a family's answer");
        assert.ok(
            m.edges.some(e => e.label === 'director'),
            "the fact's edge",
        );
        // The fact and its families are in view above the drawing, not scrolled away.
        const inView = (await frame.evaluate(
            `['#rationale .question', '#verdict', '#answers'].map(s => { const b = document.querySelector(s).getBoundingClientRect(); return [s, b.top >= 0 && b.bottom <= innerHeight]; })`,
        )) as [string, boolean][];
        for (const [what, ok] of inView) assert.ok(ok, `${what} is in view`);
        const listed = await frame.locator('#answers button').allInnerTexts();
        assert.equal(listed.length, answers.length, `the families listed: ${listed.join(' | ')}`);
        // A family's answer opens its question's own graph.
        await frame.locator('#answers button').first().click();
        await frame.locator('#hops').waitFor({ timeout: 60_000 });
        assert.ok((await frame.locator('#rationale .question').innerText()).length > 0);
        await wb.screenshot('fact-question');
    });

    it("one fact, every family: the hover of a data row's key in movies.csv summarises that key's facts", async () => {
        await wb.openFile('movies.csv');
        const csv = fs.readFileSync(path.join(session.workspace, 'movie/data/movies.csv'), 'utf8').split('\n');
        const hover = await hoverAt(csv.findIndex(l => l.includes(',Avatar,2009')) + 1, /Movie\(Avatar, 2009\)/);
        await wb.screenshot('row-hover-facts');
        const text = await hover.innerText();
        // The facts example's run: the row's facts in several families (the movie example's own run is there too).
        assert.match(
            text,
            /Movie\(Avatar, 2009\) · simulator \(offline simulator\) · facts\.probe, run [\w-]+\s+Facts across families \(\d+\): /,
        );
        // Facts asked in several families come first.
        assert.ok(
            !text.includes('movie.probe') || text.indexOf('facts.probe') < text.indexOf('movie.probe'),
            `the cross-family summary first: ${text}`,
        );
        assert.ok(
            (await hover
                .locator('a')
                .filter({ hasText: /^Movie\(Avatar, 2009\)\.\w+$/ })
                .count()) > 0,
            `a fact view link: ${text}`,
        );
    });
});
