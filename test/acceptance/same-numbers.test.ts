/**
 * Issue 37, "the same numbers in md, json, csv, html and the editor (one test)". One offline run (the soccer example,
 * three simulated models, one phrasing and variant per probe, so that a CodeLens line — a model on a probe — is one
 * report group), a reviewer's labels imported with `halluprobe review --import`, then every face's output is parsed
 * and held against the others; nothing is recomputed here:
 * - the main figures (A R AR M H with their intervals) and the path family's figures: `report` as json, csv, md and
 *   html, and the editor's CodeLens line and hover (results/summary.ts over the engine's anchorResults, as the
 *   CodeLens provider calls them);
 * - the review's trust figures (agreement, corrected A / H / M): `report` as json, csv, md and html; the reader's
 *   agreement and A corrected in the editor: the agreement CodeLens and its hover (the engine's anchorTrust over the
 *   run's labels, as the CodeLens provider calls it) and the Review Answers panel's figure (reviewView's agreement, as
 *   the panel opens it from a lens and from the palette);
 * - compare's paired figures (A H R AR, and path's R-ext per question): `compare` as json, csv, md and html, and the
 *   Compare Models panel's grid (the engine's compareModels, as the panel's command calls it); the paired values are
 *   the report's own group figures.
 * A face that shows fewer places must agree to within half a unit of its last place; faces that show the same places
 * must show the same text.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { runCli } from '../support/cli.js';
import { repoRoot, tempDir } from '../support/runner-fixtures.js';
import * as engine from '../../src/extension/engine.js';
import { figuresLine, modelLabel, summaryLine } from '../../src/extension/results/summary.js';
import { anchorResults, anchorTrust, fdOfProbe } from '../../src/core/report/light.js';
import type { CellComparison } from '../../src/core/report/index.js';

type Row = Record<string, string>;
interface Table {
    header: string[];
    rows: string[][];
}

/** A shown number agrees with the engine's when it is within half a unit of its last place. */
function near(shown: string, value: number | null | undefined, what: string): void {
    if (value === null || value === undefined) {
        assert.equal(shown, 'n/a', what);
        return;
    }
    assert.match(shown, /^-?\d+(\.\d+)?(e-?\d+)?$|^-?\.\d+$/, `${what}: "${shown}" is not a number`);
    const places = /e/.test(shown) ? 0 : (shown.split('.')[1] ?? '').length;
    const tolerance = /e/.test(shown) ? Math.abs(Number(shown)) * 0.006 : 0.5 * 10 ** -places + 1e-12;
    assert.ok(Math.abs(Number(shown) - value) <= tolerance, `${what}: shown ${shown}, engine ${value}`);
}

/** "0.90 [0.77, 0.96]" (optionally followed by words) → value, low, high. */
function withInterval(cell: string, what: string): [string, string, string] {
    const m = /^(\S+) \[(\S+), (\S+)\]/.exec(cell);
    assert.ok(m, `${what}: "${cell}"`);
    return [m[1]!, m[2]!, m[3]!];
}

function csv(text: string): Row[] {
    const lines: string[][] = [];
    let field = '',
        line: string[] = [],
        quoted = false;
    for (let i = 0; i < text.length; i++) {
        const c = text[i]!;
        if (quoted) {
            if (c === '"' && text[i + 1] === '"') {
                field += '"';
                i++;
            } else if (c === '"') quoted = false;
            else field += c;
        } else if (c === '"') quoted = true;
        else if (c === ',') {
            line.push(field);
            field = '';
        } else if (c === '\n') {
            line.push(field);
            lines.push(line);
            line = [];
            field = '';
        } else if (c !== '\r') field += c;
    }
    if (field || line.length) {
        line.push(field);
        lines.push(line);
    }
    const [header, ...rows] = lines;
    return rows.map(r => Object.fromEntries(header!.map((h, i) => [h, r[i] ?? ''])));
}

/** Markdown: the tables under each `## ` heading, cells unescaped. */
function mdTables(md: string): Map<string, Table[]> {
    const unescape = (s: string) => s.trim().replace(/\\([\\`*_{}[\]()#+\-.!|<>&])/g, '$1');
    const out = new Map<string, Table[]>();
    let section = '',
        table: Table | undefined;
    for (const line of md.split('\n')) {
        if (line.startsWith('## ')) {
            section = unescape(line.slice(3));
            out.set(section, []);
            table = undefined;
            continue;
        }
        if (!line.startsWith('|')) {
            table = undefined;
            continue;
        }
        const cells = line
            .slice(1, line.endsWith('|') ? -1 : undefined)
            .split(/(?<!\\)\|/)
            .map(unescape);
        if (!table) {
            table = { header: cells, rows: [] };
            out.get(section)?.push(table);
            continue;
        }
        if (cells.every(c => /^:?-+:?$/.test(c))) continue;
        table.rows.push(cells);
    }
    return out;
}

const decode = (s: string) =>
    s
        .replace(/<[^>]+>/g, '')
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&quot;/g, '"')
        .replace(/&#39;/g, "'")
        .replace(/&amp;/g, '&')
        .trim();

/** HTML: the tables under each `<h2>`, cell text without tags; `cell` picks what of a cell to read. */
function htmlTables(html: string, cell = (inner: string) => decode(inner)): Map<string, Table[]> {
    const body = html.replace(/<style>[\s\S]*?<\/style>/g, '').replace(/<script[\s\S]*?<\/script>/g, '');
    const out = new Map<string, Table[]>();
    for (const part of body.split('<h2').slice(1)) {
        const title = decode(part.slice(part.indexOf('>') + 1, part.indexOf('</h2>')));
        const tables = [...part.matchAll(/<table[^>]*>([\s\S]*?)<\/table>/g)].map(t => {
            const rows = [...t[1]!.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map(r =>
                [...r[1]!.matchAll(/<t[hd][^>]*>([\s\S]*?)<\/t[hd]>/g)].map(c => cell(c[1]!)),
            );
            return { header: rows[0] ?? [], rows: rows.slice(1) };
        });
        out.set(title, tables);
    }
    return out;
}

function records(t: Table): Row[] {
    return t.rows.map(r => Object.fromEntries(t.header.map((h, i) => [h, r[i] ?? ''])));
}

function table(faces: Map<string, Table[]>, title: string, face: string, index = 0): Table {
    const t = faces.get(title)?.[index];
    assert.ok(t, `${face}: no table under "${title}" (sections: ${[...faces.keys()].join('; ')})`);
    return t;
}

async function out(dir: string, ...argv: string[]): Promise<string> {
    const file = path.join(dir, `out-${argv[0]}-${argv[argv.indexOf('--format') + 1]}`);
    const r = await runCli(...argv, '--out', file);
    assert.equal(r.code, 0, r.err);
    return readFileSync(file, 'utf8');
}

/** The soccer example with one phrasing per probe, three simulated models and no variants. */
function writeSpec(): string {
    const dir = tempDir('hp-same-numbers-');
    const example = path.join(repoRoot, 'examples', 'soccer');
    mkdirSync(path.join(dir, 'data'));
    for (const f of ['players.csv', 'clubs.csv', 'cities.csv'])
        copyFileSync(path.join(example, 'data', f), path.join(dir, 'data', f));
    let spec = readFileSync(path.join(example, 'soccer.probe'), 'utf8')
        .replace(/^\s*negated .*\n/gm, '')
        .replace('basic when "nonempty(host_years)" ', 'basic ');
    spec =
        spec.slice(0, spec.indexOf('suite olympics')) +
        `model simulator_two offline {
    knowledge 0.5
    seed 9
}

model weak offline {
    knowledge 0.1
    seed 5
}

suite olympics {
    probes club_city_olympics, player_club
    models simulator, simulator_two, weak
    sample all
}
`;
    const file = path.join(dir, 'soccer.probe');
    writeFileSync(file, spec);
    return file;
}

const FIGURES = ['A', 'R', 'AR', 'M', 'H'] as const;

test("one run: the same numbers in md, json, csv, html and the editor — main and family figures, review trust, compare's paired figures", async () => {
    const spec = writeSpec();
    const dir = path.dirname(spec);
    const db = path.join(dir, 'r.db');
    const ran = await runCli('run', spec, '--db', db, '--yes');
    assert.equal(ran.code, 0, ran.err);

    // A reviewer's labels, some against the reader, on two of simulator's groups (imported as a team would).
    const results = await engine.results(db);
    assert.ok(results);
    const labelled = results.verdicts.filter(v => v.model === 'simulator').slice(0, 16);
    assert.ok(
        new Set(labelled.map(v => results.questions.find(q => q.id === v.questionId)!.probe)).size === 2,
        'labels on both probes',
    );
    const labels = path.join(dir, 'labels.csv');
    writeFileSync(
        labels,
        [
            'question,model,sample,label,reviewer',
            ...labelled.map(
                (v, i) => `${v.questionId},${v.model},${v.sample},${(i % 3 === 0) === v.correct ? 'fail' : 'pass'},ann`,
            ),
        ].join('\n') + '\n',
    );
    const imported = await runCli('review', '--db', db, '--import', labels);
    assert.equal(imported.code, 0, imported.err);

    const report = {
        json: await out(dir, 'report', '--db', db, '--format', 'json'),
        csv: await out(dir, 'report', '--db', db, '--format', 'csv'),
        md: await out(dir, 'report', '--db', db, '--format', 'md'),
        html: await out(dir, 'report', '--db', db, '--format', 'html'),
    };
    const compare = {
        json: await out(dir, 'compare', 'latest', '--db', db, '--format', 'json'),
        csv: await out(dir, 'compare', 'latest', '--db', db, '--format', 'csv'),
        md: await out(dir, 'compare', 'latest', '--db', db, '--format', 'md'),
        html: await out(dir, 'compare', 'latest', '--db', db, '--format', 'html'),
    };

    // ---- The main figures and the path family's figures -------------------------------------------------------
    interface Group {
        model: string;
        probe: string;
        phrasing: string;
        variant: string;
        mode: string;
        kind: string;
        n: number;
        A: number;
        R: number | null;
        AR: number | null;
        M: number;
        H: number;
        ci: Record<string, [number, number]>;
        rExt?: { value: number };
        hops?: { hop: number; R: number; AR: number }[];
    }
    const json = JSON.parse(report.json) as {
        groups: Group[];
        trust: {
            agreement: { value: number; ci: [number, number]; n: number };
            groups: {
                model: string;
                probe: string;
                phrasing: string;
                n: number;
                reviewed: number;
                agreement: { value: number; ci: [number, number]; n: number } | null;
                corrected?: Record<'A' | 'H' | 'M', { raw: number; value: number; ci: [number, number] }>;
            }[];
        };
    };
    const groups = json.groups.filter(g => g.mode === 'all');
    assert.equal(groups.length, 6, 'three models × two probes, one group each');
    const csvRows = csv(report.csv);
    const md = mdTables(report.md),
        html = htmlTables(report.html);
    const key = (r: Row) => `${r.model} · ${r.probe} · ${r.phrasing} · ${r.variant}`;
    const mdMetrics = new Map(records(table(md, 'Metrics', 'md')).map(r => [key(r), r]));
    const htmlMetrics = new Map(records(table(html, 'Metrics', 'html')).map(r => [key(r), r]));
    const mdFigures = new Map(records(table(md, 'Figures: path', 'md')).map(r => [key(r), r]));
    const htmlFigures = new Map(records(table(html, 'Figures: path', 'html')).map(r => [key(r), r]));
    const figureNames = table(md, 'Figures: path', 'md').header.slice(5);
    assert.ok(figureNames.includes('r_ext') && figureNames.includes('r_by_hop'), figureNames.join(', '));

    // The editor: the CodeLens provider's calls (spec view, the engine's anchor results, the summary lines).
    const { spec: specModel } = await engine.specView(spec);
    const anchors = anchorResults(results, fdOfProbe(specModel));
    const shown = modelLabel(results.run);
    let lenses = 0;
    for (const g of groups) {
        const k = `${g.model} · ${g.probe} · ${g.phrasing} · ${g.variant}`;
        const c = csvRows.find(r => r.mode === 'all' && key(r) === k);
        assert.ok(c, `csv: ${k}`);
        const m = mdMetrics.get(k),
            h = htmlMetrics.get(k);
        assert.ok(m && h, `md / html Metrics: ${k}`);
        assert.deepEqual(h, m, `md and html show one Metrics row: ${k}`);
        for (const f of FIGURES) {
            near(c[f]!, g[f], `csv ${f} ${k}`);
            if (g[f] === null) {
                assert.equal(m[f], 'n/a', `md ${f} ${k}`);
                continue;
            }
            near(c[`${f}_low`]!, g.ci[f]![0], `csv ${f}_low ${k}`);
            near(c[`${f}_high`]!, g.ci[f]![1], `csv ${f}_high ${k}`);
            const [v, lo, hi] = withInterval(m[f]!, `md ${f} ${k}`);
            near(v, g[f], `md ${f} ${k}`);
            near(lo, g.ci[f]![0], `md ${f} low ${k}`);
            near(hi, g.ci[f]![1], `md ${f} high ${k}`);
        }
        assert.equal(Number(c.n), g.n);
        assert.equal(Number(m.N), g.n);
        if (g.kind === 'path') {
            const mf = mdFigures.get(k),
                hf = htmlFigures.get(k);
            assert.ok(mf && hf, `md / html Figures: path: ${k}`);
            assert.deepEqual(hf, mf, `md and html show one figures row: ${k}`);
            for (const name of figureNames) assert.equal(c[name], mf[name], `csv and md ${name} ${k}`);
            near(mf.r_ext!, g.rExt!.value, `md r_ext ${k}`);
            const byHop = mf.r_by_hop!.split('; ').map(x => x.split(': '));
            assert.deepEqual(
                byHop.map(x => Number(x[0])),
                g.hops!.map(x => x.hop),
            );
            byHop.forEach(([hop, r]) => near(r!, g.hops!.find(x => x.hop === Number(hop))!.R, `md r_by_hop ${hop} ${k}`));
        }
        // The CodeLens line of the probe (and of its FD): A R AR H to two places, the family's one-number figures.
        const fd = fdOfProbe(specModel).get(g.probe);
        for (const anchor of [`probe:${g.probe}`, ...(fd ? [`fd:${fd}`] : [])]) {
            const a = anchors.get(anchor)?.find(x => shown(x.model) === g.model);
            assert.ok(a, `CodeLens ${anchor} for ${g.model}`);
            const line = summaryLine(shown(a.model), a);
            const lens = /^(.*) · A (\S+) R (\S+) AR (\S+) H (\S+) · /.exec(line);
            assert.ok(lens, line);
            assert.equal(lens[1], g.model, line);
            near(lens[2]!, g.A, `lens A ${line}`);
            near(lens[3]!, g.R, `lens R ${line}`);
            near(lens[4]!, g.AR, `lens AR ${line}`);
            near(lens[5]!, g.H, `lens H ${line}`);
            lenses++;
            if (g.kind !== 'path') continue;
            near(/ · r_ext (\S+)/.exec(line)?.[1] ?? 'missing', g.rExt!.value, `lens r_ext ${line}`);
            // The hover: every figure, as the reports write them.
            const hover = figuresLine(a);
            assert.ok(hover.startsWith('Figures: '), hover);
            const mf = mdFigures.get(k)!;
            for (const [i, name] of figureNames.entries()) {
                const next = figureNames[i + 1];
                const value = new RegExp(`(?:^Figures: |, )${name} (.*?)(?:, ${next ?? '\\u0000'} |$)`).exec(hover)?.[1];
                assert.equal(value, mf[name], `hover ${name}: ${hover}`);
            }
        }
    }
    assert.equal(lenses, 6 + 3, "a lens per model on each probe line and on player_club's FD line");

    // ---- The review's trust figures ----------------------------------------------------------------------------
    const trustTitle = 'Review: the reader against the labels, and the figures corrected by them';
    const mdTrust = records(table(md, trustTitle, 'md')),
        htmlTrust = records(table(html, trustTitle, 'html'));
    assert.deepEqual(htmlTrust, mdTrust, 'md and html show one trust table');
    const reviewed = json.trust.groups.filter(t => t.reviewed > 0);
    assert.equal(reviewed.length, 2, 'labels on two groups');
    assert.equal(
        reviewed.reduce((s, t) => s + t.reviewed, 0),
        16,
    );
    for (const t of json.trust.groups) {
        const k = `${t.model} · ${t.probe} · ${t.phrasing}`;
        const m = mdTrust.find(r => r.group === k);
        const c = csvRows.find(r => r.mode === 'all' && `${r.model} · ${r.probe} · ${r.phrasing}` === k);
        assert.ok(m && c, `trust row ${k}`);
        assert.equal(m.reviewed, `${t.reviewed} of ${t.n}`);
        assert.equal(c.reviewed, String(t.reviewed));
        if (t.reviewed === 0) {
            assert.deepEqual([c.agreement, m['reader agrees']], ['n/a', 'n/a (no label yet)'], k);
            continue;
        }
        assert.ok(t.agreement && t.corrected, k);
        const [v, lo, hi] = withInterval(m['reader agrees']!, `md agreement ${k}`);
        assert.ok(m['reader agrees']!.endsWith(` on ${t.reviewed} reviewed`), m['reader agrees']);
        for (const [shownValue, value, what] of [
            [v, t.agreement.value, 'md agreement'],
            [lo, t.agreement.ci[0], 'md agreement low'],
            [hi, t.agreement.ci[1], 'md agreement high'],
            [c.agreement!, t.agreement.value, 'csv agreement'],
            [c.agreement_low!, t.agreement.ci[0], 'csv agreement low'],
            [c.agreement_high!, t.agreement.ci[1], 'csv agreement high'],
        ] as const)
            near(shownValue, value, `${what} ${k}`);
        for (const f of ['A', 'H', 'M'] as const) {
            const corrected = t.corrected[f];
            const [cv, clo, chi] = withInterval(m[`${f} corrected`]!, `md ${f} corrected ${k}`);
            near(cv, corrected.value, `md ${f} corrected ${k}`);
            near(clo, corrected.ci[0], `md ${f} corrected low ${k}`);
            near(chi, corrected.ci[1], `md ${f} corrected high ${k}`);
            near(c[`${f}_corrected`]!, corrected.value, `csv ${f}_corrected ${k}`);
            near(c[`${f}_corrected_low`]!, corrected.ci[0], `csv ${f}_corrected_low ${k}`);
            near(c[`${f}_corrected_high`]!, corrected.ci[1], `csv ${f}_corrected_high ${k}`);
            // The raw figure beside it is the Metrics table's.
            assert.equal(
                m[`${f} raw`],
                mdMetrics.get(`${k} · ${groups.find(g => `${g.model} · ${g.probe} · ${g.phrasing}` === k)!.variant}`)![f],
                `${f} raw ${k}`,
            );
        }
    }
    // The run's agreement line, in md and html alike.
    const agreement = /^Reviewed: 16 labels by ann; the reader agrees with them (\S+) \[(\S+), (\S+)\] on 16 reviewed\.$/m.exec(
        report.md,
    );
    assert.ok(agreement, report.md.slice(0, 1200));
    near(agreement[1]!, json.trust.agreement.value, 'md run agreement');
    near(agreement[2]!, json.trust.agreement.ci[0], 'md run agreement low');
    near(agreement[3]!, json.trust.agreement.ci[1], 'md run agreement high');
    assert.ok(report.html.includes(`<p>${agreement[0]}</p>`), 'html: the same agreement line');

    // ---- The editor's trust figures: the agreement CodeLens and the Review Answers panel ------------------------------
    // The CodeLens's calls (the run's labels as the editor reads them, the engine's anchorTrust over the lines' results);
    // each line is one report group here, so its lens, its hover and the panel opened from it show that group's
    // agreement and corrected A: the same text as md (the lens without the leading zero), and the json figures.
    const trust = anchorTrust(results, await engine.reviewLabels(db, results.run.id), fdOfProbe(specModel), anchors);
    const unzero = (s: string) => s.replace(/(^|[[ ])0\./g, '$1.');
    let trustLenses = 0,
        panels = 0;
    for (const t of json.trust.groups) {
        const k = `${t.model} · ${t.probe} · ${t.phrasing}`;
        const m = mdTrust.find(r => r.group === k)!;
        const c = csvRows.find(r => r.mode === 'all' && `${r.model} · ${r.probe} · ${r.phrasing}` === k)!;
        const fd = fdOfProbe(specModel).get(t.probe);
        for (const anchor of [`probe:${t.probe}`, ...(fd ? [`fd:${fd}`] : [])]) {
            const l = trust.get(anchor)?.find(x => shown(x.model) === t.model);
            assert.ok(l, `trust lens ${anchor} for ${t.model}`);
            trustLenses++;
            if (t.reviewed === 0) {
                assert.equal(l.lens, 'none reviewed here', `${anchor} ${k}`);
                continue;
            }
            // The lens: "reader agrees .80 [.38, .96] on 5 · A corrected .58 [.31, .84]".
            const lens = /^reader agrees (\S+) \[(\S+), (\S+)\] on (\d+) · A corrected (\S+) \[(\S+), (\S+)\]$/.exec(l.lens);
            assert.ok(lens, `lens ${anchor}: ${l.lens}`);
            assert.equal(
                `${lens[1]} [${lens[2]}, ${lens[3]}] on ${lens[4]} reviewed`,
                unzero(m['reader agrees']!),
                `lens and md agreement ${anchor} ${k}`,
            );
            assert.equal(
                `${lens[5]} [${lens[6]}, ${lens[7]}]`,
                unzero(m['A corrected']!),
                `lens and md A corrected ${anchor} ${k}`,
            );
            assert.equal(Number(lens[4]), t.agreement!.n, `lens reviewed ${anchor} ${k}`);
            for (const [v, value, what] of [
                [lens[1], t.agreement!.value, 'agreement'],
                [lens[2], t.agreement!.ci[0], 'agreement low'],
                [lens[3], t.agreement!.ci[1], 'agreement high'],
                [lens[5], t.corrected!.A.value, 'A corrected'],
                [lens[6], t.corrected!.A.ci[0], 'A corrected low'],
                [lens[7], t.corrected!.A.ci[1], 'A corrected high'],
            ] as const) {
                near(v!, value, `lens ${what} against json ${anchor} ${k}`);
            }
            near(lens[1]!, Number(c.agreement), `lens agreement against csv ${anchor} ${k}`);
            near(lens[5]!, Number(c.A_corrected), `lens A corrected against csv ${anchor} ${k}`);
            // The hover: the md cells' own text.
            assert.equal(l.line, `reader agrees ${m['reader agrees']} · A corrected ${m['A corrected']}`, `hover ${anchor} ${k}`);
        }
        // The Review Answers panel opened from the probe's lens (that line and model; ann's labels): its agreement figure.
        const a = anchors.get(`probe:${t.probe}`)!.find(x => shown(x.model) === t.model)!;
        const { view } = await engine.openReview(db, results.run.id, { reviewer: 'ann', probes: [t.probe], model: a.model });
        panels++;
        if (t.reviewed === 0) {
            assert.equal(view.agreement.text, 'Reader agrees n/a (no label yet).', `panel ${k}`);
            continue;
        }
        assert.equal(view.agreement.text, `Reader agrees ${m['reader agrees']}.`, `panel and md agreement ${k}`);
        const p = /^Reader agrees (\S+) \[(\S+), (\S+)\] on (\d+) reviewed\.$/.exec(view.agreement.text);
        assert.ok(p, view.agreement.text);
        near(p[1]!, t.agreement!.value, `panel agreement against json ${k}`);
        near(p[2]!, t.agreement!.ci[0], `panel agreement low ${k}`);
        near(p[3]!, t.agreement!.ci[1], `panel agreement high ${k}`);
        near(p[1]!, Number(c.agreement), `panel agreement against csv ${k}`);
        assert.equal(Number(p[4]), t.agreement!.n, `panel reviewed ${k}`);
    }
    assert.equal(trustLenses, 6 + 3, "a trust lens per model on each probe line and on player_club's FD line");
    assert.equal(panels, 6);
    // The panel over the whole run (opened from the palette): the run's agreement line.
    const whole = await engine.openReview(db, results.run.id, { reviewer: 'ann' });
    assert.equal(
        whole.view.agreement.text,
        `Reader agrees ${agreement[1]} [${agreement[2]}, ${agreement[3]}] on 16 reviewed.`,
        'panel over the run and md',
    );
    near(agreement[1]!, whole.view.agreement.value!, 'md run agreement against the panel');

    // ---- compare's paired figures ----------------------------------------------------------------------------
    const paired = JSON.parse(compare.json) as CellComparison;
    assert.equal(paired.cells.length, 3, paired.cells.map(c => c.id).join('; '));
    const fields = ['n', 'value_a', 'value_b', 'delta', 'ci_low', 'ci_high', 'p', 'p_adjusted', 'winner'] as const;
    type Pair = Partial<Record<(typeof fields)[number] | 'flipped_to_b' | 'flipped_to_a', string>>;
    const pairKey = (title: string, a: string, b: string) => `${title} | ${a} | ${b}`;
    const title = (figure: string, probe: string, phrasing: string | undefined, higher: boolean) =>
        `${figure} · ${probe}${phrasing !== undefined ? ` · ${phrasing}` : ''} (${higher ? 'higher' : 'lower'} is better)`;
    const higher = new Map(paired.matrices.map(m => [`${m.figure} · ${m.probe}`, m.higherIsBetter]));
    const byCsv = new Map<string, Pair>(
        csv(compare.csv).map(r => [
            pairKey(title(r.figure!, r.probe!, r.phrasing || undefined, higher.get(`${r.figure} · ${r.probe}`)!), r.a!, r.b!),
            r,
        ]),
    );
    const pairCount = paired.matrices.reduce((s, m) => s + m.pairs.length, 0);
    assert.ok(pairCount >= 4 * 2 * 3, `${pairCount} pairs: A R AR H (at least) on two probes, three pairs each`);
    assert.equal(byCsv.size, pairCount, 'one csv row per pair');
    // md and html: the table of pairs under each matrix's heading; their grids' cell texts.
    const cmpMd = mdTables(compare.md);
    const cmpHtml = htmlTables(compare.html, inner => decode(/<summary>([\s\S]*?)<\/summary>/.exec(inner)?.[1] ?? inner));
    // Both tables name a and b twice (the cells, then their values): read them by position.
    const PAIR_COLUMNS = ['a', 'b', 'N', 'a', 'b', 'b − a', '95 % interval', 'p', 'p adjusted', 'winner'];
    const fromTable = (t: Table): Map<string, Pair> => {
        assert.deepEqual(t.header.slice(0, PAIR_COLUMNS.length), PAIR_COLUMNS);
        const flips = t.header.indexOf('flipped to b');
        return new Map(
            t.rows.map(r => {
                const ci = /^\[(\S+), (\S+)\]$/.exec(r[6]!);
                const p: Pair = {
                    n: r[2],
                    value_a: r[3],
                    value_b: r[4],
                    delta: r[5],
                    ci_low: ci?.[1],
                    ci_high: ci?.[2],
                    p: r[7],
                    p_adjusted: r[8],
                    winner: r[9] === '–' ? '' : r[9],
                };
                if (flips >= 0) Object.assign(p, { flipped_to_b: r[flips], flipped_to_a: r[flips + 1] });
                return [`${r[0]} | ${r[1]}`, p];
            }),
        );
    };
    const grid = await engine.compareModels(db, [paired.runs[0]!]);
    assert.equal(grid.matrices.length, paired.matrices.length);
    for (const [i, m] of paired.matrices.entries()) {
        const t = title(m.figure, m.probe, m.phrasing, m.higherIsBetter);
        const g = grid.matrices[i]!;
        assert.equal(g.title, t, 'the panel titles the matrix as the reports do');
        const mdGrid = table(cmpMd, t, 'compare md', 0),
            mdPairs = table(cmpMd, t, 'compare md', 1);
        const htmlGrid = table(cmpHtml, t, 'compare html', 0),
            htmlPairs = table(cmpHtml, t, 'compare html', 1);
        // The grids: md, html and the panel show one text per cell.
        assert.deepEqual(htmlGrid, mdGrid, `md and html grids: ${t}`);
        assert.deepEqual(
            g.rows.map((r, ri) => [m.cells[ri], ...r.map(c => c?.text ?? '')]),
            mdGrid.rows,
            `the panel's grid: ${t}`,
        );
        const mdP = fromTable(mdPairs),
            htmlP = fromTable(htmlPairs);
        for (const p of m.pairs) {
            const k = pairKey(t, p.a, p.b),
                ab = `${p.a} | ${p.b}`;
            const c = byCsv.get(k);
            assert.ok(c, `csv: ${k}`);
            const fromMd = mdP.get(ab) ?? {},
                fromHtml = htmlP.get(ab) ?? {};
            for (const f of fields) {
                assert.equal(fromMd[f], c[f], `md ${f}: ${k}`);
                assert.equal(fromHtml[f], c[f], `html ${f}: ${k}`);
            }
            assert.equal(fromMd.flipped_to_b, c.flipped_to_b, `md flipped to b: ${k}`);
            assert.equal(fromMd.flipped_to_a, c.flipped_to_a, `md flipped to a: ${k}`);
            // json: the engine's numbers, which the four decimals of the others round.
            for (const [f, v] of [
                ['value_a', p.valueA],
                ['value_b', p.valueB],
                ['delta', p.delta],
                ['ci_low', p.ci[0]],
                ['ci_high', p.ci[1]],
                ['p', p.p],
                ['p_adjusted', p.pAdjusted],
            ] as const)
                near(c[f]!, v, `json ${f}: ${k}`);
            assert.equal(c.n, String(p.n));
            assert.equal(c.winner, p.winner ?? '');
            assert.deepEqual([c.flipped_to_b, c.flipped_to_a], [String(p.flips.toB.length), String(p.flips.toA.length)]);
            // The panel: the cell of the pair says the same (its detail, and its flipped questions).
            const cell = g.rows[m.cells.indexOf(p.a)]![m.cells.indexOf(p.b)];
            assert.ok(cell, `panel cell: ${k}`);
            const d = new RegExp(
                `^${escapeRe(p.b)} − ${escapeRe(p.a)}: (\\S+) \\[(\\S+), (\\S+)\\], N (\\d+), p (\\S+), p adjusted (\\S+) \\(.*\\)(?:; winner (.*))?$`,
            ).exec(cell.detail);
            assert.ok(d, cell.detail);
            assert.deepEqual(
                [d[1], d[2], d[3], d[4], d[5], d[6], d[7] ?? ''],
                [c.delta, c.ci_low, c.ci_high, c.n, c.p, c.p_adjusted, c.winner],
                `panel detail: ${k}`,
            );
            assert.deepEqual(
                cell.flips.map(f => /\((\d+)\)$/.exec(f.title)?.[1]),
                [c.flipped_to_b, c.flipped_to_a],
                `panel flips: ${k}`,
            );
            assert.deepEqual(
                cell.flips.map(f => f.questions.length),
                [Number(c.flipped_to_b), Number(c.flipped_to_a)],
            );
        }
        // A cell's value is the report's own group figure (one engine, not a second count): A H R AR, and path's R-ext.
        if (['A', 'H', 'R', 'AR', 'r_ext'].includes(m.figure)) {
            for (const p of m.pairs) {
                const cell = paired.cells.find(x => x.id === p.a)!;
                const r = csvRows.find(
                    x =>
                        x.mode === 'all' &&
                        x.model === cell.model &&
                        x.variant === cell.variant &&
                        x.probe === p.probe &&
                        x.phrasing === p.phrasing,
                );
                assert.ok(r, `report row of ${p.a} ${p.probe}`);
                near(
                    r[m.figure]!,
                    Number(byCsv.get(pairKey(t, p.a, p.b))!.value_a),
                    `report ${m.figure} against compare's value of ${p.a}, ${p.probe}`,
                );
            }
        }
    }
    assert.ok(
        paired.matrices.some(m => m.pairs.some(p => p.winner)),
        'the weak model loses somewhere: winners are compared too',
    );
    // The path family's own per-question figure is paired too (a score: the cluster bootstrap).
    const rExt = paired.matrices.filter(m => m.figure === 'r_ext');
    assert.deepEqual(
        rExt.map(m => m.probe),
        ['club_city_olympics'],
    );
    assert.ok(rExt.every(m => m.higherIsBetter && m.pairs.length === 3 && m.pairs.every(p => p.method === 'cluster-bootstrap')));
});

function escapeRe(s: string): string {
    return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
