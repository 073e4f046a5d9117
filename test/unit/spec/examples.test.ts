/** The examples show what the README says they show: every probe an example declares is run by its suite. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { loadSpec } from '../../../src/core/spec/load.js';
import { repoRoot } from '../../support/runner-fixtures.js';

for (const example of ['movie/movie.probe', 'soccer/soccer.probe']) {
    test(`examples/${example}: its suites run every probe it declares`, async () => {
        const { model, diagnostics } = await loadSpec(path.join(repoRoot, 'examples', example));
        assert.deepEqual(
            diagnostics.filter(d => d.severity === 'error'),
            [],
        );
        const run = new Set(model.suites.flatMap(s => s.probes));
        assert.deepEqual(
            model.probes.map(p => p.name).filter(p => !run.has(p)),
            [],
        );
    });
}
