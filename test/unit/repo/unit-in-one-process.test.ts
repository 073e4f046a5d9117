// The unit tier runs with every file in one process (scripts/test.mjs). There a suite whose body awaits before it
// declares its tests declares them after the run has moved on ("test could not be started because its parent
// finished"), and a file that registers a family or changes the process's settings changes them for the others.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';

const UNIT = path.resolve(import.meta.dirname, '..');

function files(dir: string): string[] {
    return readdirSync(dir).flatMap(n => {
        const p = path.join(dir, n);
        return statSync(p).isDirectory() ? files(p) : p.endsWith('.test.ts') ? [p] : [];
    });
}

it('no unit suite awaits in its body (load before the describe, or in a before hook)', () => {
    const found = files(UNIT).filter(f => /\bdescribe\([^\n]*,\s*async\s*(\(\)|\w+)\s*=>/.test(readFileSync(f, 'utf8')));
    assert.deepEqual(
        found.map(f => path.relative(UNIT, f)),
        [],
    );
});

it('no unit file changes the working folder', () => {
    const found = files(UNIT).filter(f => /process\.chdir\(/.test(readFileSync(f, 'utf8')));
    assert.deepEqual(
        found.map(f => path.relative(UNIT, f)),
        [],
    );
});
