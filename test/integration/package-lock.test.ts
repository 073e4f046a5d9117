/**
 * `npm install` and `npm ci` leave a fresh clone clean: the committed package-lock.json is exactly what npm
 * writes for package.json (checked offline, on copies, without touching node_modules).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { repoRoot, tempDir } from '../support/runner-fixtures.js';

test('package-lock.json is what npm install writes for package.json', () => {
    const dir = tempDir('hp-lock-');
    for (const f of ['package.json', 'package-lock.json']) copyFileSync(path.join(repoRoot, f), path.join(dir, f));
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const r = spawnSync(npm, ['install', '--package-lock-only', '--ignore-scripts', '--offline', '--no-audit', '--no-fund'], {
        cwd: dir,
        encoding: 'utf8',
    });
    assert.equal(r.status, 0, r.stderr);
    const before = readFileSync(path.join(repoRoot, 'package-lock.json'), 'utf8').split('\n');
    const after = readFileSync(path.join(dir, 'package-lock.json'), 'utf8').split('\n');
    const changed = after
        .map((l, i) => [i + 1, before[i], l] as const)
        .filter(([, b, a]) => b !== a)
        .slice(0, 5);
    assert.deepEqual(changed, [], 'npm rewrote these lines of package-lock.json');
    assert.equal(after.length, before.length);
});
