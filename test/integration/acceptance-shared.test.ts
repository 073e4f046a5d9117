// The acceptance tier must never pass green by skipping: in CI a missing ../shared fails it; locally it is
// skipped (counted as skipped) with a loud line saying what is missing.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { tsImport } from '../support/ts-loader.js';

const tier = path.resolve('test/acceptance/erbench-metrics.test.ts');

function runTier(ci: boolean) {
    const { NODE_TEST_CONTEXT: _nested, ...outer } = process.env;
    const env = { ...outer, HALLUPROBE_SHARED: path.resolve('test/fixtures/no-such-shared-folder'), CI: ci ? 'true' : '' };
    return spawnSync(process.execPath, [...tsImport(), '--test', '--test-reporter=tap', tier], {
        env,
        encoding: 'utf8',
        timeout: 120_000,
    });
}

describe('acceptance tier without ../shared', () => {
    it('fails in CI', () => {
        const r = runTier(true);
        assert.notEqual(r.status, 0, r.stdout);
        assert.match(r.stdout + r.stderr, /shared data missing: .*In CI this is a failure, not a skip/);
    });

    it('skips locally, loudly, and never counts a pass', () => {
        const r = runTier(false);
        assert.equal(r.status, 0, r.stdout + r.stderr);
        assert.match(r.stdout + r.stderr, /!! SKIPPED \(not passed\): shared data missing/);
        assert.match(r.stdout, /# pass 0/);
        assert.match(r.stdout, /# SKIP shared data missing/);
    });
});
