/**
 * One fact, every family in the editor (docs/facts.md): the hover model of an FD's line (`anchorResults`) and of a data
 * row's key (`rowsAtLine` → `rowFactResults`), which the hovers only format, count the same classes for their facts as
 * the JSON report and the `report --facts` CSV of the same run; the fact view the hovers open (`factView`) shows each
 * family's verdict and value as the report does, each opening a question of that family that tests the fact.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { cli } from '../support/cli-process.js';
import { tempDir } from '../support/runner-fixtures.js';
import { csvRows } from '../support/csv-rows.js';
import { openStore } from '../../src/core/store/index.js';
import { anchorResults, factView, fdOfProbe, rowFactResults, rowsAtLine } from '../../src/core/report/light.js';
import { loadSpec } from '../../src/core/spec/load.js';
import { loadData } from '../../src/core/data/index.js';

const SPEC = path.resolve('examples/facts/facts.probe');

interface FactJson {
    id: string;
    relation: string;
    key: string[];
    attribute: string;
    value: string;
    model: string;
    class: string;
    families: Record<string, { verdict: string; value?: string }>;
}

test("the FD hover and a data row's hover count the facts the JSON report and the facts CSV class, class by class; the fact view shows the same families", async () => {
    const db = path.join(tempDir('hp-facts-hover-'), 'r.db');
    const run = await cli(['run', SPEC, '--suite', 'paired', '--db', db, '--yes'], {});
    assert.equal(run.code, 0, run.stderr);
    const json = JSON.parse((await cli(['report', '--db', db, '--format', 'json'], {})).stdout) as {
        facts: { facts: FactJson[] };
    };
    const [head, ...rows] = csvRows((await cli(['report', '--db', db, '--facts', '--format', 'csv'], {})).stdout);
    const csvClass = new Map(
        rows.map(r => {
            const o = Object.fromEntries(head!.map((h, j) => [h, r[j]!]));
            return [`${o.model}\u0000${o.id}`, o.class];
        }),
    );
    const store = await openStore(db);
    try {
        const runId = (await store.latestRun())!.id;
        const results = (await store.loadRunResults(runId))!;
        const { model: spec } = await loadSpec(SPEC);
        const lines = anchorResults(results, fdOfProbe(spec));
        const fd = lines.get('fd:movie_director')![0]!;
        assert.ok(fd.facts, 'the FD line has facts');
        // The FD's questions' facts, classed as the JSON report classes them (the report names the simulator as such).
        const ids = new Set(
            results.questions.filter(q => q.probe === 'director_yes_no').flatMap(q => (q.facts ?? []).map(f => f.id)),
        );
        const mine = json.facts.facts.filter(f => ids.has(f.id) && f.model.startsWith(`${fd.model} `));
        assert.equal(fd.facts.n, mine.length);
        for (const [c, n] of Object.entries(fd.facts.classes)) assert.equal(n, mine.filter(f => f.class === c).length, c);
        assert.match(fd.facts.line, new RegExp(`^Facts across families \\(${mine.length}\\): `));
        assert.ok(fd.facts.shown.length > 0 && fd.facts.shown.every(s => ids.has(s.id)), 'the FD hover links facts of its own');

        // A data row: the movies.csv line of a movie the run asked about, as the hover over that line finds it.
        const data = await loadData(spec);
        const asked = json.facts.facts.find(
            f => f.relation === 'Movie' && f.key.length === 2 && Object.keys(f.families).length >= 3,
        )!;
        const table = data.tables.get('Movie')!;
        let row = -1;
        for (let r = 0; r < table.rowCount && row < 0; r++)
            if (String(table.value(r, 'title')) === asked.key[0] && String(table.value(r, 'year')) === asked.key[1]) row = r;
        assert.ok(row >= 0, `the row of ${asked.key.join(', ')}`);
        const keys = rowsAtLine(spec, data, table.file, table.lines[row]!);
        assert.deepEqual(
            keys.find(k => k.relation === 'Movie'),
            { relation: 'Movie', key: asked.key },
        );
        const hover = rowFactResults(results, keys).find(r => r.relation === 'Movie')!;
        assert.ok(hover, "the row's hover has facts");
        const ofRow = json.facts.facts.filter(
            f =>
                f.relation === 'Movie' &&
                f.key.join('\u0000') === asked.key.join('\u0000') &&
                f.model.startsWith(`${hover.model} `),
        );
        assert.equal(hover.facts.n, ofRow.length, 'as many facts as the JSON report has for that key');
        for (const [c, n] of Object.entries(hover.facts.classes)) {
            assert.equal(n, ofRow.filter(f => f.class === c).length, `json: ${c}`);
            assert.equal(n, ofRow.filter(f => csvClass.get(`${f.model}\u0000${f.id}`) === c).length, `csv: ${c}`);
        }
        assert.deepEqual(new Set(hover.facts.shown.map(s => s.id)), new Set(ofRow.map(f => f.id)));
        // The engine counts the facts asked across families (the hover orders its rows by this; it counts nothing itself).
        assert.equal(
            hover.across,
            ofRow.filter(f => f.class !== 'not-enough-forms').length,
            'facts asked in two families or more',
        );

        // Its fact view: every family the report lists with an answer, its verdict and value, and a question of that
        // family testing the fact; drawn as the fact's edge and one node per family.
        const view = factView(results, asked.id, hover.model)!;
        assert.ok(view, 'a fact view');
        for (const a of view.fact.answers) {
            const j = asked.families[a.kind]!;
            assert.ok(j, `${a.kind} is one of the report's families`);
            assert.equal(a.verdict, j.verdict, a.kind);
            if (a.verdict === 'wrong') assert.equal(a.value, j.value, a.kind);
            const q = results.questions.find(x => x.id === a.questionId)!;
            assert.equal(q.kind, a.kind);
            assert.ok(
                q.facts!.some(f => f.id === asked.id),
                `${a.questionId} tests the fact`,
            );
        }
        assert.ok(
            view.fact.answers.length >= 3 && view.fact.answers.length <= Object.keys(asked.families).length,
            `${view.fact.answers.length} families`,
        );
        const nodes = view.drawn.elements.filter(e => e.group === 'nodes');
        assert.deepEqual(
            nodes.filter(n => n.data.kind === 'answer').map(n => n.data.questionId),
            view.fact.answers.map(a => a.questionId),
        );
        const edge = view.drawn.elements.find(e => e.group === 'edges' && e.data.label === asked.attribute);
        assert.ok(edge && edge.group === 'edges', "the fact's edge");
        assert.deepEqual(
            [
                nodes.find(n => n.data.id === edge.data.source)?.data.label,
                nodes.find(n => n.data.id === edge.data.target)?.data.label,
            ],
            [`Movie(${asked.key.join(', ')})`, asked.value],
        );
    } finally {
        await store.close();
    }
});
