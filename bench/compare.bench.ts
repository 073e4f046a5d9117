/**
 * `npm run bench -- compare` (issue 37): the paired interval's coverage over 500 simulated pairs of models with
 * correlated errors (goal ≥ 93 %), its median width beside today's unpaired Newcombe interval (goal: narrower),
 * and Holm's family-wise error over 200 null matrices of 6 cells (goal ≤ 5 %). See bench/compare-sim.ts.
 */
import { coverageSets, familyWiseError } from './compare-sim.js';
import type { BenchRow } from './support.js';

const { sets, pooled } = coverageSets();
const c = sets[0]!;
const worst = Math.min(...sets.map(x => x.coverage));
const f = familyWiseError();
const rows: BenchRow[] = [
    {
        bench: 'compare',
        case: `coverage of Tango's paired interval, worst of ${sets.length} sets of ${c.pairs} pairs × 200 questions (pooled ${pooled.toFixed(4)})`,
        value: worst,
        unit: 'share',
        goal: '≥ 0.93',
        met: worst >= 0.93,
    },
    {
        bench: 'compare',
        case: 'median width: paired (Tango) vs unpaired (Newcombe)',
        value: c.medianPaired,
        unit: 'width',
        reference: c.medianUnpaired,
        referenceName: 'unpaired Newcombe',
        ratio: c.medianPaired / c.medianUnpaired,
        goal: 'ratio < 1',
        met: c.medianPaired < c.medianUnpaired,
    },
    {
        bench: 'compare',
        case: `Holm family-wise error, ${f.matrices} null matrices of 6 cells (${f.pairs} pairs)`,
        value: f.rate,
        unit: 'share',
        goal: '≤ 0.05',
        met: f.rate <= 0.05,
    },
];
console.log(JSON.stringify({ coverage: sets, pooled, familyWise: f }));
console.log(`BENCH_RESULT ${JSON.stringify(rows)}`);
