/** `npm run build` prints nothing but its summary: no bundle has an esbuild warning (e.g. import.meta in CommonJS). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as esbuild from 'esbuild';

test('every bundle builds without a warning', { timeout: 120_000 }, async () => {
    // @ts-expect-error — a plain .mjs script without types
    const { targets } = (await import('../../../scripts/build.mjs')) as { targets: esbuild.BuildOptions[] };
    assert.ok(targets.length >= 4);
    for (const t of targets) {
        const r = await esbuild.build({ ...t, write: false, logLevel: 'silent' });
        assert.deepEqual(
            r.warnings.map(w => `${w.location?.file}:${w.location?.line} ${w.text}`),
            [],
            String(t.outfile),
        );
    }
});
