/**
 * One fact, every family in the editor (docs/facts.md): the hover model of an FD's line (`anchorResults`, which the
 * hover only formats) counts the same classes for the facts its questions test as the JSON report of the same run.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { cli } from '../support/cli-process.js';
import { tempDir } from '../support/runner-fixtures.js';
import { openStore } from '../../src/core/store/index.js';
import { anchorResults, fdOfProbe } from '../../src/core/report/light.js';
import { loadSpec } from '../../src/core/spec/load.js';

const SPEC = path.resolve('examples/facts/facts.probe');

test('the FD hover\'s facts are the JSON report\'s facts of that FD\'s questions, class by class', async () => {
    const db = path.join(tempDir('hp-facts-hover-'), 'r.db');
    const run = await cli(['run', SPEC, '--suite', 'paired', '--db', db, '--yes'], {});
    assert.equal(run.code, 0, run.stderr);
    const json = JSON.parse((await cli(['report', '--db', db, '--format', 'json'], {})).stdout) as { facts: { facts: { id: string; model: string; class: string }[] } };
    const store = await openStore(db);
    try {
        const runId = (await store.latestRun())!.id;
        const results = (await store.loadRunResults(runId))!;
        const { model: spec } = await loadSpec(SPEC);
        const lines = anchorResults(results, fdOfProbe(spec));
        const fd = lines.get('fd:movie_director')![0]!;
        assert.ok(fd.facts, 'the FD line has facts');
        // The FD's questions' facts, classed as the JSON report classes them (the report names the simulator as such).
        const ids = new Set(results.questions.filter(q => q.probe === 'director_yes_no').flatMap(q => (q.facts ?? []).map(f => f.id)));
        const mine = json.facts.facts.filter(f => ids.has(f.id) && f.model.startsWith(`${fd.model} `));
        assert.equal(fd.facts.n, mine.length);
        for (const [c, n] of Object.entries(fd.facts.classes)) assert.equal(n, mine.filter(f => f.class === c).length, c);
        assert.match(fd.facts.line, new RegExp(`^Facts across families \\(${mine.length}\\): `));
    } finally {
        await store.close();
    }
});
