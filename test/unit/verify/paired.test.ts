/**
 * The paired statistics against references on published examples (values from paired-reference.py beside this
 * file: scipy's brentq on Tango's 1998 formulas and scipy.stats.binomtest, independent of this code), to 1e-6.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
    benjaminiHochberg,
    clusterBootstrap,
    holm,
    mcnemarExact,
    questionsNeeded,
    signFlipTest,
    smallestDetectable,
    tangoInterval,
} from '../../../src/core/verify/paired.js';

const close = (actual: number, expected: number, what: string) =>
    assert.ok(Math.abs(actual - expected) < 1e-6, `${what}: ${actual} ≠ ${expected}`);

const EXAMPLES = [
    // Bentur et al. (2009) as worked in Fagerland, Lydersen & Laake, "Recommended tests and confidence intervals for
    // paired binomial proportions", Stat Med 33 (2014) 2850–2875: printed Tango interval −0.517 to −0.026, McNemar exact p 0.070.
    { name: 'Bentur 2009 (Fagerland et al. 2014)', n12: 1, n21: 7, n: 21, ci: [-0.517232276421, -0.026003032481], p: 0.0703125 },
    // PropCIs::scoreci.mp's documented example (after Agresti & Min 2005).
    { name: 'PropCIs scoreci.mp example', n12: 40, n21: 20, n: 160, ci: [0.030864533133, 0.218064244167], p: 0.0134892937312 },
    // Agresti, An Introduction to Categorical Data Analysis (2nd ed. 2007), Table 8.1, presidential approval.
    { name: 'Agresti 2007 Table 8.1', n12: 86, n21: 150, n: 1600, ci: [-0.058998033306, -0.021361564755], p: 3.71593613957e-5 },
];

for (const e of EXAMPLES) {
    test(`Tango's interval and McNemar's exact test: ${e.name}`, () => {
        const [lo, hi] = tangoInterval(e.n12, e.n21, e.n);
        close(lo, e.ci[0]!, 'lower');
        close(hi, e.ci[1]!, 'upper');
        close(mcnemarExact(e.n12, e.n21), e.p, 'McNemar p');
        // The printed figures of the paper, to their three decimals.
        if (e.n === 21) {
            assert.equal(lo.toFixed(3), '-0.517');
            assert.equal(hi.toFixed(3), '-0.026');
            assert.equal(mcnemarExact(1, 7).toFixed(3), '0.070');
        }
    });
}

test("Tango's interval with no discordant pair contains 0 and stays inside [−1, 1]", () => {
    const [lo, hi] = tangoInterval(0, 0, 30);
    assert.ok(lo < 0 && hi > 0 && lo >= -1 && hi <= 1);
    const [lo2, hi2] = tangoInterval(30, 0, 30);
    assert.ok(lo2 > 0.7 && hi2 === 1, String([lo2, hi2]));
});

test('Holm and Benjamini–Hochberg adjust as their definitions say', () => {
    // Holm: sorted 0.01, 0.02, 0.04 → 3·0.01, max(0.03, 2·0.02), max(0.04, 1·0.04).
    assert.deepEqual(
        holm([0.04, 0.01, 0.02]).map(p => +p.toFixed(10)),
        [0.04, 0.03, 0.04],
    );
    // BH: m = 3 → 0.04·3/3, 0.01·3/1, 0.02·3/2, each the minimum of those above it.
    assert.deepEqual(
        benjaminiHochberg([0.04, 0.01, 0.02]).map(p => +p.toFixed(10)),
        [0.04, 0.03, 0.03],
    );
});

test("the sign-flip test on single 0/1 questions is McNemar's exact test", () => {
    const clusters = [
        ...Array.from({ length: 7 }, () => ({ a: 1, b: 0, m: 1 })),
        { a: 0, b: 1, m: 1 },
        ...Array.from({ length: 13 }, () => ({ a: 1, b: 1, m: 1 })),
    ];
    close(signFlipTest(clusters), mcnemarExact(1, 7), 'sign flip');
    const [lo, hi] = clusterBootstrap(clusters, 3);
    assert.ok(lo < -6 / 21 && hi > -6 / 21 && hi <= 0);
});

test("power: Connor's sample size and its inverse agree", () => {
    const n = questionsNeeded(0.1, { discordant: 0.3 });
    // Connor (1987): n = (1.96·√0.3 + 0.8416·√(0.3 − 0.01))² / 0.01 ≈ 233.1, rounded up.
    assert.equal(n, 234);
    const d = smallestDetectable(n, { discordant: 0.3 })!;
    assert.ok(d <= 0.1 && d > 0.099, String(d));
});
