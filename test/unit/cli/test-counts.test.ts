/** `npm test` ends with the runner's real counts, not a fixed "0 passed, 1 failed". */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { tempDir } from '../../support/temp.js';
// @ts-expect-error — a plain .mjs script without types
import { countsLine, tapCounts } from '../../../scripts/test-counts.mjs';

/** The closing line `npm test` would print for a test file of `source`, run by Node's runner outside this one. */
function closingLine(prefix: string, source: string): string {
    const dir = tempDir(prefix);
    const file = path.join(dir, 'sample.test.mjs');
    writeFileSync(file, source);
    const tap = path.join(dir, 'r.tap');
    // Outside this runner's own context, as npm test runs it.
    const env = { ...process.env };
    delete env.NODE_TEST_CONTEXT;
    spawnSync(process.execPath, ['--test', '--test-reporter=tap', `--test-reporter-destination=${tap}`, file], { env });
    return (countsLine as (c: unknown) => string)((tapCounts as (t: string) => unknown)(readFileSync(tap, 'utf8')));
}

test("the counts line reads the runner's TAP report", () => {
    const line = closingLine(
        'hp-counts-',
        "import { test } from 'node:test';\ntest('a', () => {});\ntest('b', () => {});\ntest('c', () => { throw new Error('no'); });\ntest('d', { skip: true }, () => {});\n",
    );
    assert.equal(line, '2 passed, 1 failed, 1 skipped');
    assert.match(line, /^\d+ passed, \d+ failed(, \d+ skipped)?$/, 'the plain closing line CI reads');
});

test('a skipped suite (the e2e tier without code-server) counts as skipped on the closing line', () => {
    const line = closingLine(
        'hp-counts-suite-',
        "import { describe, it, test } from 'node:test';\ndescribe('e2e', { skip: 'no code-server' }, () => { it('a', () => {}); });\ndescribe('ok', () => { it('b', () => {}); it('c', t => t.skip('x')); });\ntest('d', () => {});\n",
    );
    assert.equal(line, '2 passed, 0 failed, 2 skipped');
});

test('a suite whose body throws counts as failed, though the runner counts no failed test', () => {
    const line = closingLine(
        'hp-counts-broken-',
        "import { describe, it, test } from 'node:test';\ndescribe('broken', () => { throw new Error('no data'); });\ndescribe('ok', () => { it('a', () => {}); it('b', () => { throw new Error('x'); }); });\ntest('d', () => {});\n",
    );
    // b failed; the 'ok' suite is not ok only because b is (not counted again); 'broken' declared nothing and failed.
    assert.equal(line, '2 passed, 2 failed');
});
