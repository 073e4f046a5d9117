/** Comparing a run of the spec's simulator with a `--model offline` run: one model each, so they are paired. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { runCli } from '../../support/cli.js';
import { writeVariantsSuite } from '../../support/variants-suite.js';

test('one model per run: compared model to model whatever their names', async () => {
    const spec = writeVariantsSuite(['zero_shot']);
    const dir = path.dirname(spec);
    const db = path.join(dir, 'r.db');
    assert.equal((await runCli('run', spec, '--db', db, '--yes', '--model', 'simulator')).code, 0);
    assert.equal((await runCli('run', spec, '--db', db, '--yes', '--new', '--model', 'offline')).code, 0);
    const runs = JSON.parse((await runCli('runs', '--db', db, '--format', 'json')).out) as { id: string }[];
    const out = path.join(dir, 'c.json');
    const r = await runCli('compare', runs[1]!.id, runs[0]!.id, '--db', db, '--format', 'json', '--out', out);
    assert.equal(r.code, 0, r.err);
    const c = JSON.parse(readFileSync(out, 'utf8')) as {
        onlyA: number;
        onlyB: number;
        deltas: unknown[];
        paired?: { a: string; b: string };
    };
    assert.deepEqual([c.onlyA, c.onlyB], [0, 0]);
    assert.ok(c.deltas.length > 0);
    assert.match(c.paired?.a ?? '', /^simulator/);
    assert.match(c.paired?.b ?? '', /^offline/);
});
