/**
 * `npm install` in a fresh clone must leave the tree clean. npm rewrites package-lock.json when the lock says
 * less than the installed packages do — e.g. a package with an install script whose entry lacks
 * `hasInstallScript: true` (how better-sqlite3's entry once was: every `npm install` added the line back).
 * This checks the lock against the packages installed from it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../../..');
interface LockEntry {
    hasInstallScript?: boolean;
    link?: boolean;
    optional?: boolean;
}
const lock = JSON.parse(readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> };

/** What npm counts as an install script: install / preinstall / postinstall, or a binding.gyp (an implied `node-gyp rebuild`). */
function hasInstallScript(dir: string): boolean {
    const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { scripts?: Record<string, string> };
    const s = pkg.scripts ?? {};
    return Boolean(s.install || s.preinstall || s.postinstall) || existsSync(path.join(dir, 'binding.gyp'));
}

test('package-lock.json marks exactly the installed packages that have install scripts', () => {
    const wrong: string[] = [];
    for (const [where, entry] of Object.entries(lock.packages)) {
        if (!where.startsWith('node_modules/') || entry.link) continue;
        const dir = path.join(ROOT, where);
        if (!existsSync(path.join(dir, 'package.json'))) continue; // an optional package for another platform
        if (hasInstallScript(dir) !== (entry.hasInstallScript === true))
            wrong.push(`${where}: lock says ${entry.hasInstallScript === true}, package says ${!entry.hasInstallScript}`);
    }
    assert.deepEqual(wrong, []);
});
