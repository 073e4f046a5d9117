/**
 * `halluprobe compare` through the real CLI on a real SQLite store (issue 37): one run of 2 models × 2 variants
 * compares every pair of cells (the same numbers in every face: test/acceptance/same-numbers.test.ts); `--fail-on-regression`
 * exits 1 only when the paired interval says H rose by the margin, and names the flipped questions.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { runCli } from '../support/cli.js';
import { writeVariantsSuite } from '../support/variants-suite.js';
import { repoRoot } from '../support/runner-fixtures.js';
import type { CellComparison } from '../../src/core/report/index.js';

/** The CLI writes reports to stdout itself (not through console): read them from --out. */
async function written(dir: string, ...argv: string[]): Promise<{ code: number; err: string; text: string }> {
    const out = path.join(dir, `out-${Math.random().toString(36).slice(2)}`);
    const r = await runCli(...argv, '--out', out);
    return { code: r.code, err: r.err, text: r.code === 0 || r.code === 1 ? readFileSync(out, 'utf8') : '' };
}

const runsOf = async (db: string) =>
    (JSON.parse((await runCli('runs', '--db', db, '--format', 'json')).out) as { id: string }[]).map(r => r.id);

test('one run, models × variants: every pair of cells, a winner only where the adjusted test says so; BH and pooled phrasings', async () => {
    const spec = writeVariantsSuite(['zero_shot', 'cot']);
    const dir = path.dirname(spec);
    const db = path.join(dir, 'r.db');
    assert.equal((await runCli('run', spec, '--suite', 'olympics', '--db', db, '--yes')).code, 0);
    const c = JSON.parse((await written(dir, 'compare', 'latest', '--db', db, '--format', 'json')).text) as CellComparison;
    assert.equal(c.cells.length, 4, c.cells.map(x => x.id).join('; '));
    const pairs = c.matrices.flatMap(m => m.pairs);
    assert.ok(pairs.length >= 6 * 4, String(pairs.length));
    // The same numbers in md, csv, html, json and the editor, and the report's own figures: test/acceptance/same-numbers.test.ts.
    for (const p of pairs) {
        assert.equal(p.flips.toB.length + p.flips.toA.length > 0, p.delta !== 0 || p.flips.toB.length > 0);
        if (p.winner) assert.ok(p.pAdjusted < 0.05 && (p.winner === p.a || p.winner === p.b));
        else assert.ok(p.pAdjusted >= 0.05 || p.delta === 0);
    }
    // Paired interval and McNemar on single 0/1 questions; the BH option adjusts less than Holm.
    assert.ok(pairs.filter(p => p.figure !== 'r_ext').every(p => p.method === 'tango-mcnemar'));
    // Path's R-ext per question is a score (the share of a path's hops named): bootstrapped.
    assert.ok(
        pairs.some(p => p.figure === 'r_ext') &&
            pairs.filter(p => p.figure === 'r_ext').every(p => p.method === 'cluster-bootstrap'),
    );
    const bh = JSON.parse(
        (await written(dir, 'compare', 'latest', '--db', db, '--format', 'json', '--correction', 'bh')).text,
    ) as CellComparison;
    const bhPairs = bh.matrices.flatMap(m => m.pairs);
    bhPairs.forEach((p, i) => assert.ok(p.pAdjusted <= pairs[i]!.pAdjusted + 1e-12));
    // Pooling a probe's phrasings clusters the questions of one row: the cluster bootstrap.
    const pooled = JSON.parse(
        (await written(dir, 'compare', 'latest', '--db', db, '--format', 'json', '--by', 'probe', '--figures', 'A')).text,
    ) as CellComparison;
    assert.ok(pooled.matrices.flatMap(m => m.pairs).every(p => p.method === 'cluster-bootstrap' && p.clusters < p.n));
});

test('--fail-on-regression H:0.02 fails only when the paired interval says H rose by the margin', async () => {
    const spec = writeVariantsSuite(['zero_shot']);
    appendFileSync(spec, '\nmodel weak offline {\n    knowledge 0.1\n    seed 5\n}\n');
    const dir = path.dirname(spec);
    const db = path.join(dir, 'r.db');
    // simulator (knowledge 0.7), then weak (0.1: many more wrong answers), then simulator again (the same seed: the same answers).
    for (const model of ['simulator', 'weak', 'simulator'])
        assert.equal((await runCli('run', spec, '--db', db, '--yes', '--new', '--model', model)).code, 0);
    const [third, second, first] = await runsOf(db);
    const worse = await written(
        dir,
        'compare',
        first!,
        second!,
        '--db',
        db,
        '--format',
        'json',
        '--fail-on-regression',
        'H:0.02',
    );
    assert.equal(worse.code, 1, worse.err);
    assert.match(worse.err, /Regression: H got worse by 0\.0200 or more/);
    assert.match(worse.err, /flipped the worse way \(\d+\):\n {6}\S/);
    const c = JSON.parse(worse.text) as CellComparison & { changed: unknown[] };
    assert.ok(c.changed.length > 0, 'the two-run fields stay');
    // The same model again: nothing changed, no regression; a margin the data cannot show passes too.
    assert.equal((await written(dir, 'compare', first!, third!, '--db', db, '--fail-on-regression', 'H:0.02')).code, 0);
    const wide = await written(dir, 'compare', first!, second!, '--db', db, '--fail-on-regression', 'H:60%');
    assert.equal(wide.code, 0, wide.err);
    assert.match(wide.err, /No regression/);
    // Improvement is not a regression: the other way round H fell.
    assert.equal((await written(dir, 'compare', second!, first!, '--db', db, '--fail-on-regression', 'H:0.02')).code, 0);
    assert.equal((await runCli('compare', first!, second!, third!, '--db', db, '--fail-on-regression', 'H:0.02')).code, 2);
    assert.equal((await runCli('compare', first!, second!, '--db', db, '--fail-on-regression', 'H')).code, 2);
});

test("a family's score per question (open: FActScore per answer) is paired by the cluster bootstrap", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'hp-open-compare-'));
    try {
        const db = path.join(dir, 'r.db');
        const spec = path.join(repoRoot, 'examples', 'open', 'open.probe');
        assert.equal((await runCli('run', spec, '--db', db, '--yes', '--model', 'simulator')).code, 0);
        assert.equal((await runCli('run', spec, '--db', db, '--yes', '--new', '--model', 'offline')).code, 0);
        const [second, first] = await runsOf(db);
        const c = JSON.parse(
            (await written(dir, 'compare', first!, second!, '--db', db, '--format', 'json', '--figures', 'factscore')).text,
        ) as CellComparison;
        const pairs = c.matrices.flatMap(m => m.pairs);
        assert.ok(pairs.length > 0 && pairs.every(p => p.figure === 'factscore'));
        for (const p of pairs) {
            assert.equal(
                p.method,
                'cluster-bootstrap',
                `${p.probe} · ${p.phrasing}: a score, even where each answer's happens to be 0 or 1`,
            );
            assert.ok(p.valueA >= 0 && p.valueA <= 1 && p.valueB >= 0 && p.valueB <= 1);
            assert.ok(Math.abs(p.delta - (p.valueB - p.valueA)) < 1e-9);
            assert.ok(p.ci[0] <= p.delta + 1e-9 && p.delta - 1e-9 <= p.ci[1]);
        }
        assert.ok(
            c.matrices.every(m => m.higherIsBetter),
            'a higher FActScore is better',
        );
    } finally {
        rmSync(dir, { recursive: true, force: true });
    }
});
