// Two loads of one spec in one workspace at the same time (a CodeLens and a preview in one extension host, two
// tests in one process): each gets the whole spec, neither fails because the other added the file first.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { createSpecServices, loadSpec } from '../../../src/core/spec/load.js';

const MOVIE = path.resolve(import.meta.dirname, '../../fixtures/probes/movie.probe');

it('loads the same spec twice at once in one workspace', async () => {
    const services = createSpecServices();
    const [a, b, c] = await Promise.all([
        loadSpec(MOVIE, undefined, services),
        loadSpec(MOVIE, undefined, services),
        loadSpec(MOVIE, undefined, services),
    ]);
    for (const l of [a, b, c]) {
        assert.deepEqual(
            l.diagnostics.filter(d => d.severity === 'error'),
            [],
        );
        assert.ok(l.model.relations.length > 0);
    }
    assert.deepEqual(JSON.stringify(b.model), JSON.stringify(a.model));
});
