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
    // Ten sets of 500 pairs (seeds 1–10): each set must reach 93 %. Disclosure: the seeds were set to 1–10 after the
    // first seed tried (37) gave 0.928. One set of 500 is a sample: at a true coverage of 95 % its spread is ±0.01, and
    // of seeds 1–100, three fall below 0.93 (37: 0.928, 56: 0.926, 70: 0.926; mean 0.9495). So the pooled 5,000 pairs
    // are held to 94 % too (about three standard errors below 95 %): an interval that truly covered only 93 % would
    // pass that with a chance of about 0.3 % (0.94 is 2.8 standard errors above 0.93 on 5,000 pairs).
    const { sets, pooled } = coverageSets();
    for (const c of sets) {
        t.diagnostic(
            `coverage ${c.covered}/${c.pairs} = ${c.coverage}; median width paired ${c.medianPaired.toFixed(4)}, unpaired ${c.medianUnpaired.toFixed(4)}; narrower in ${c.narrower}/${c.pairs}`,
        );
        assert.ok(c.coverage >= 0.93, `coverage ${c.coverage}`);
        assert.ok(c.medianPaired < c.medianUnpaired, `${c.medianPaired} vs ${c.medianUnpaired}`);
    }
    t.diagnostic(`pooled coverage ${pooled}`);
    assert.ok(pooled >= 0.94, `pooled coverage ${pooled}`);
});

test('Holm keeps the family-wise error at or below 5 % on null matrices of 6 cells', t => {
    const f = familyWiseError();
    t.diagnostic(`family-wise error ${f.withError}/${f.matrices} = ${f.rate} over ${f.pairs} pairs each`);
    assert.ok(f.rate <= 0.05, `family-wise error ${f.rate}`);
});
