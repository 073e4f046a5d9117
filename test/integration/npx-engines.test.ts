/**
 * `npx halluprobe` in this repository with npm on an older Node prints no EBADENGINE warnings: the repository
 * runs its CLI and tests on its own Node 22 (the `node` dev dependency, first on PATH under npm), so its
 * manifest accepts npm's Node 20; the packed CLI still declares Node >= 22 (install-outside.test.ts).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { repoRoot } from '../support/runner-fixtures.js';

const olderNode = (() => {
    const r = spawnSync('/usr/bin/node', ['-p', 'process.versions.node'], { encoding: 'utf8' });
    return r.status === 0 && Number(r.stdout.split('.')[0]) < 22 ? r.stdout.trim() : undefined;
})();

test(
    'npx halluprobe under npm on Node 20 prints no EBADENGINE block',
    { skip: olderNode ? false : 'no Node older than 22 at /usr/bin/node to run npm on', timeout: 120_000 },
    () => {
        const r = spawnSync('npx', ['halluprobe', '--version'], {
            cwd: repoRoot,
            encoding: 'utf8',
            env: { ...process.env, PATH: '/usr/bin:/bin' },
        });
        assert.equal(r.status, 0, r.stderr);
        assert.equal(r.stdout.trim(), 'halluprobe 0.1.0');
        assert.doesNotMatch(r.stderr, /EBADENGINE/, `npm on Node ${olderNode}`);
    },
);
