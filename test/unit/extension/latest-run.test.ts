// Export Report and reloading results after a restart take the newest run (the store lists runs newest first;
// taking the last entry gave the oldest).
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { openStore } from '../../../src/core/store/index.js';
import { newestRun } from '../../../src/extension/engine.js';

it('the newest run of a store, and of one spec in it', async t => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'halluprobe-latest-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const db = path.join(dir, 'results.db');
    const store = await openStore(db);
    const first = await store.createRun('/ws/a.probe', 's', {});
    const second = await store.createRun('/ws/a.probe', 's', {});
    const other = await store.createRun('/ws/b.probe', 's', {});
    const listed = await store.listRuns();
    await store.close();
    assert.deepEqual(
        listed.map(r => r.id),
        [other.id, second.id, first.id],
        'the store lists newest first',
    );
    assert.equal(newestRun(listed)?.id, other.id);
    assert.equal(newestRun(listed, '/ws/a.probe')?.id, second.id);
    assert.equal(newestRun(listed, '/ws/none.probe'), undefined);
});
