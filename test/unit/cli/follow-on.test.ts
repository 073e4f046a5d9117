/** A syntax error yields no follow-on "data not loaded" errors, and check and preview count the same errors. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { runCli } from '../../support/cli.js';
import { repoRoot, tempDir } from '../../support/runner-fixtures.js';

const cli = runCli;

test('a missing comma in a key: three errors in check and preview, none of them [probe-data]', async () => {
    const dir = tempDir('hp-syntax-');
    cpSync(path.join(repoRoot, 'examples', 'movie'), dir, { recursive: true, filter: s => !s.includes('.halluprobe') });
    const spec = path.join(dir, 'movie.probe');
    writeFileSync(spec, readFileSync(spec, 'utf8').replace('    key (title, year)', '    key (title year'));
    const check = await cli('check', spec);
    const preview = await cli('preview', spec);
    assert.equal(check.code, 1);
    assert.equal(preview.code, 1);
    assert.doesNotMatch(check.text, /probe-data/);
    const checkCount = /(\d+) error\(s\)/.exec(check.text)![1];
    const previewCount = /the spec has (\d+) error\(s\)/.exec(preview.text)![1];
    assert.equal(checkCount, previewCount);
});
