// `halluprobe estimate` is an engine step of the run room (`estimateProbe`) that reaches the family through the
// registry: a probe whose family has no `estimate` hook is a located `estimate-kind` problem naming the families
// that have one, after the cheap model's run (as before the hook), never a crash or a default.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { estimateProbe } from '../../src/core/run/index.js';
import { HalluProbeError } from '../../src/core/errors.js';

describe('estimate through the registry', () => {
    let dir: string;
    before(() => {
        dir = mkdtempSync(path.join(os.tmpdir(), 'halluprobe-estimate-kind-'));
        cpSync(path.join(import.meta.dirname, '..', '..', 'examples', 'movie'), dir, { recursive: true });
    });
    after(() => rmSync(dir, { recursive: true, force: true }));

    it('a binary probe has no estimate: estimate-kind, naming the statement probes', async () => {
        const error = await estimateProbe({
            spec: path.join(dir, 'movie.probe'),
            probe: 'movie_binary',
            expensive: 'simulator',
            cheap: 'offline',
            budget: { share: 0.1 },
            db: path.join(dir, 'e.db'),
            confirmHost: async () => true,
            confirmCost: async () => true,
        }).then(
            () => undefined,
            (e: unknown) => e,
        );
        assert.ok(error instanceof HalluProbeError, String(error));
        assert.deepEqual(
            error.problems.map(p => p.code),
            ['estimate-kind'],
        );
        assert.equal(error.problems[0]!.message, 'Probe movie_binary is not a statement probe.');
        assert.match(error.problems[0]!.remedy!, /^Estimates are made for statement probes/);
    });
});
