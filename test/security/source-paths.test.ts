// Issue 11, "Also": a source outside the spec's folder is named where it resolved, and its content is not quoted.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { writeSpec, tempDir } from '../support/runner-fixtures.js';
import { cli } from '../support/cli-process.js';

test("a csv source outside the spec's folder: check says where it resolved and quotes none of its lines", async () => {
    const outside = path.join(tempDir('hp-secret-'), 'shadow');
    writeFileSync(outside, 'root:$6$SECRETHASH:19000:0:99999:7:::\ndaemon:*:19000:0:99999:7:::\n');
    const spec = writeSpec('http://127.0.0.1:9/v1');
    writeFileSync(spec, readFileSync(spec, 'utf8').replace('source movies csv "movies.csv"', `source movies csv "${outside}"`));
    const r = await cli(['check', spec], {});
    assert.equal(r.code, 1);
    assert.doesNotMatch(r.stdout + r.stderr, /SECRETHASH|daemon/);
    assert.ok(r.stderr.includes(`source movies: ${outside}  (outside the spec's folder)`), r.stderr);
    assert.match(r.stdout, /missing-column\] .*outside the spec's folder \(its header is not shown\)/);
});

test("a source inside the spec's folder is listed plainly and its columns are suggested", async () => {
    const spec = writeSpec('http://127.0.0.1:9/v1');
    writeFileSync(spec, readFileSync(spec, 'utf8').replace('"entity3"', '"entity33"'));
    const r = await cli(['check', spec], {});
    assert.ok(r.stderr.includes(`source movies: ${path.join(path.dirname(spec), 'movies.csv')}\n`), r.stderr);
    assert.match(r.stdout, /did you mean 'entity3'\?/);
});

test('run says where each source resolved to before reading it', async () => {
    const spec = writeSpec('http://127.0.0.1:9/v1');
    const outside = path.join(tempDir('hp-elsewhere-'), 'movies.csv');
    writeFileSync(outside, readFileSync(path.join(path.dirname(spec), 'movies.csv')));
    writeFileSync(spec, readFileSync(spec, 'utf8').replace('source movies csv "movies.csv"', `source movies csv "${outside}"`));
    const r = await cli(['run', spec, '--model', 'sim', '--db', path.join(path.dirname(spec), 'r.db'), '--no-verify'], {});
    assert.equal(r.code, 0, r.stderr);
    assert.ok(r.stderr.startsWith(`source movies: ${outside}  (outside the spec's folder)\n`), r.stderr);
});
