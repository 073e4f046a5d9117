// ReEval's RealtimeQA items (../shared/data/reeval) through the CLI: swaps generated and validated (the share that
// passes and why the rest were dropped), then the example suite run end to end with the offline simulator.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { sharedMissing, sharedPath } from '../support/shared.js';
import { cliArgs } from '../support/cli-path.js';

const repo = path.resolve(import.meta.dirname, '..', '..');
const spec = path.join(repo, 'examples', 'reeval', 'reeval.probe');
const cli = (args: string[]) => spawnSync(process.execPath, cliArgs(...args), { cwd: repo, encoding: 'utf8', timeout: 300_000, maxBuffer: 256 << 20 });
const skip = sharedMissing(sharedPath('data', 'reeval', 'realtime_cat2_retrieve_by_evidence.json'));

describe('ReEval RealtimeQA evidence probes (examples/reeval)', { skip }, () => {
    let dir: string;
    before(() => { dir = mkdtempSync(path.join(os.tmpdir(), 'halluprobe-reeval-')); });
    after(() => rmSync(dir, { recursive: true, force: true }));

    it('validates the generated swaps and says why the rest were dropped', () => {
        const r = cli(['preview', spec, '--format', 'jsonl']);
        assert.equal(r.status, 0, r.stderr);
        const m = /swap: (\d+) of (\d+) cases valid; dropped: (.*)/.exec(r.stderr);
        assert.ok(m, r.stderr);
        const [valid, tried] = [Number(m[1]), Number(m[2])];
        console.log(`  RealtimeQA swaps: ${valid} of ${tried} valid (${((100 * valid) / tried).toFixed(1)} %); dropped: ${m[3]}`);
        assert.equal(tried, 814);
        // Issue 38 item 2 holds the fine type (a replacement asked for the same noun): swaps of another noun, 7 % of
        // the items, are dropped on purpose (0.645 → 0.574); 194 of 814 answers are not in their passage at all.
        assert.ok(valid / tried > 0.55, `${valid} of ${tried}`);
        const swaps = r.stdout.trim().split('\n').map(l => JSON.parse(l) as { phrasing: string; gold: { answer: string }; evidence: { original: string; passage: string } }).filter(q => q.phrasing === 'swap');
        assert.equal(swaps.length, valid);
        for (const q of swaps) assert.ok(q.evidence.passage.includes(q.gold.answer), 'the new answer is in the passage');
    });

    it('runs end to end offline: seed, swap, enrich and closed book, with a stale rate near the simulator\'s 0.30', () => {
        const db = path.join(dir, 'r.db');
        const run = cli(['run', spec, '--db', db, '--yes']);
        assert.equal(run.status, 0, run.stderr);
        const json = JSON.parse(cli(['report', '--db', db, '--format', 'json']).stdout) as { groups: { phrasing: string; mode: string; evidence?: { swap?: { n: number; stale: { value: number; ci: [number, number] } } } }[] };
        const swap = json.groups.find(g => g.phrasing === 'swap' && g.mode === 'all')!.evidence!.swap!;
        console.log(`  RealtimeQA with the simulator (trusts memory 0.30): stale ${swap.stale.value} [${swap.stale.ci.join(', ')}] over ${swap.n} swaps`);
        assert.ok(swap.stale.ci[0] <= 0.3 && 0.3 <= swap.stale.ci[1]);
        assert.deepEqual(new Set(json.groups.map(g => g.phrasing)), new Set(['seed', 'swap', 'enrich', 'closed']));
    });
});
