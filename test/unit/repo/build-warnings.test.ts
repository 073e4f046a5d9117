/**
 * `npm run build` prints nothing but its summary: no bundle has an esbuild warning (e.g. import.meta in CommonJS).
 * When `npm test` built the bundles this run (HALLUPROBE_CLI_BUNDLE=1, scripts/test.mjs), the test reads the warnings
 * that build recorded (dist/build-warnings.json) instead of building every bundle again; run alone, it builds them
 * in memory.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import * as esbuild from 'esbuild';

interface BuildScript {
    targets: esbuild.BuildOptions[];
    warningsRecord: string;
    warningLine: (w: esbuild.Message) => string;
}

test('every bundle builds without a warning', { timeout: 120_000 }, async () => {
    // @ts-expect-error — a plain .mjs script without types
    const { targets, warningsRecord, warningLine } = (await import('../../../scripts/build.mjs')) as BuildScript;
    assert.ok(targets.length >= 4);
    const root = path.resolve(import.meta.dirname, '../../..');
    const recorded =
        process.env.HALLUPROBE_CLI_BUNDLE === '1'
            ? (JSON.parse(readFileSync(path.join(root, warningsRecord), 'utf8')) as { outfile: string; warnings: string[] }[])
            : undefined;
    for (const t of targets) {
        const warnings = recorded
            ? recorded.find(r => r.outfile === t.outfile)?.warnings
            : (await esbuild.build({ ...t, write: false, logLevel: 'silent' })).warnings.map(warningLine);
        assert.deepEqual(warnings, [], String(t.outfile));
    }
});
