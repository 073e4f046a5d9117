/**
 * Issue 37's acceptance by simulation (fixed seeds; bench/compare-sim.ts, also `npm run bench -- compare`): Tango's
 * paired interval covers the true difference in ≥ 93 % of 500 pairs of models with correlated errors and is narrower
 * than the unpaired Newcombe interval compare used before; Holm keeps the family-wise error ≤ 5 % on 200 null
 * matrices of 6 cells.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { coverageSets, familyWiseError } from '../../../bench/compare-sim.js';

test('paired intervals cover the true difference and are narrower than unpaired ones', t => {
    // Ten sets of 500 pairs (seeds 1–10): each set must reach 93 %.
    const { sets, pooled } = coverageSets();
    for (const c of sets) {
        t.diagnostic(`coverage ${c.covered}/${c.pairs} = ${c.coverage}; median width paired ${c.medianPaired.toFixed(4)}, unpaired ${c.medianUnpaired.toFixed(4)}; narrower in ${c.narrower}/${c.pairs}`);
        assert.ok(c.coverage >= 0.93, `coverage ${c.coverage}`);
        assert.ok(c.medianPaired < c.medianUnpaired, `${c.medianPaired} vs ${c.medianUnpaired}`);
    }
    t.diagnostic(`pooled coverage ${pooled}`);
});

test('Holm keeps the family-wise error at or below 5 % on null matrices of 6 cells', t => {
    const f = familyWiseError();
    t.diagnostic(`family-wise error ${f.withError}/${f.matrices} = ${f.rate} over ${f.pairs} pairs each`);
    assert.ok(f.rate <= 0.05, `family-wise error ${f.rate}`);
});
