/**
 * One fact, every family, through the real CLI (docs/facts.md): a paired run of examples/facts, then the same facts
 * in the JSON report, in `report --facts` as JSON and as CSV, and as the Facts sections of the md and html reports;
 * `--fact` selects one fact by key and attribute.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { cli } from '../support/cli-process.js';
import { tempDir } from '../support/runner-fixtures.js';
import { csvRows } from '../support/csv-rows.js';

interface FactJson {
    id: string;
    label: string;
    key: string[];
    attribute: string;
    model: string;
    class: string;
    families: Record<string, { verdict: string; value?: string }>;
}
interface FactsJson {
    facts: FactJson[];
    summary: { model: string; facts: number; knows: { share: number; ci: [number, number] } }[];
    pairs: unknown[];
}

test('report: the facts of a paired run are the same in json, report --facts json and csv, md and html', async () => {
    const db = path.join(tempDir('hp-facts-cli-'), 'r.db');
    const run = await cli(['run', path.resolve('examples/facts/facts.probe'), '--suite', 'paired', '--db', db, '--yes'], {});
    assert.equal(run.code, 0, run.stderr);
    const report = JSON.parse((await cli(['report', '--db', db, '--format', 'json'], {})).stdout) as { facts: FactsJson };
    const only = await cli(['report', '--db', db, '--facts', '--format', 'json'], {});
    assert.equal(only.code, 0, only.stderr);
    const facts = JSON.parse(only.stdout) as FactsJson;
    assert.deepEqual(facts, report.facts, "report --facts writes the report's facts");
    assert.ok(facts.facts.length >= 20, `${facts.facts.length} facts`);
    assert.ok(
        facts.facts.some(f => Object.keys(f.families).length >= 5),
        'a drawn fact is asked in five families or more',
    );
    assert.equal(facts.summary[0]!.facts, facts.facts.length);
    // CSV: a row per fact and model, its class and each family's verdict and value as in the JSON.
    const [head, ...rows] = csvRows((await cli(['report', '--db', db, '--facts', '--format', 'csv'], {})).stdout);
    assert.equal(rows.length, facts.facts.length);
    for (const [i, f] of facts.facts.entries()) {
        const r = Object.fromEntries(head!.map((h, j) => [h, rows[i]![j]!]));
        assert.equal(r.id, f.id);
        assert.equal(r.label, f.label);
        assert.equal(r.class, f.class);
        for (const [kind, v] of Object.entries(f.families)) {
            assert.equal(r[`${kind}_verdict`], v.verdict, `${f.label} ${kind}`);
            assert.equal(r[`${kind}_value`], v.value ?? '');
        }
    }
    const md = (await cli(['report', '--db', db], {})).stdout;
    assert.match(md, /## Facts: what each model does with a fact across families/);
    assert.ok(
        md.includes(
            `${facts.summary[0]!.knows.share.toFixed(2)} \\[${facts.summary[0]!.knows.ci[0].toFixed(2)}, ${facts.summary[0]!.knows.ci[1].toFixed(2)}\\]`,
        ),
        'md shows the same share and interval',
    );
    const html = (await cli(['report', '--db', db, '--format', 'html'], {})).stdout;
    assert.match(html, /<h2>Facts: what each model does with a fact across families<\/h2>/);
    // --fact KEY.ATTRIBUTE: that fact alone.
    const some = facts.facts.find(f => f.key.length === 2)!;
    const one = JSON.parse(
        (
            await cli(
                ['report', '--db', db, '--facts', '--fact', `${some.key.join(', ')}.${some.attribute}`, '--format', 'json'],
                {},
            )
        ).stdout,
    ) as FactsJson;
    assert.deepEqual(
        one.facts.map(f => f.id),
        facts.facts.filter(f => f.id === some.id).map(f => f.id),
    );
    const bad = await cli(['report', '--db', db, '--fact', 'Avatar.director'], {});
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--fact needs --facts/);
});
