"""Reference values for test/unit/verify/paired.test.ts, computed independently of HalluProbe's TypeScript:
Tango's score interval from the formulas of Tango (1998, Stat Med 17:891-908) solved with scipy's brentq, and
McNemar's exact test as scipy.stats.binomtest on the discordant pairs. Run: python3 paired-reference.py"""
from math import sqrt
from scipy.optimize import brentq
from scipy.stats import binomtest, norm

def tango_T(n12, n21, n, d):
    A = 2 * n
    B = -n12 - n21 + (2 * n - n12 + n21) * d
    C = -n21 * d * (1 - d)
    p21 = (-B + sqrt(max(0.0, B * B - 4 * A * C))) / (2 * A)
    return (n12 - n21 - n * d) / sqrt(n * (2 * p21 + d * (1 - d)))

def tango(n12, n21, n, level=0.95):
    z = norm.ppf(1 - (1 - level) / 2)
    est = (n12 - n21) / n
    eps = 1e-12
    lo = -1.0 if tango_T(n12, n21, n, -1 + eps) < z else brentq(lambda d: tango_T(n12, n21, n, d) - z, -1 + eps, est, xtol=1e-15, rtol=1e-15)
    hi = 1.0 if tango_T(n12, n21, n, 1 - eps) > -z else brentq(lambda d: tango_T(n12, n21, n, d) + z, est, 1 - eps, xtol=1e-15, rtol=1e-15)
    return lo, hi

examples = {
    # Bentur et al. (2009), airway hyper-responsiveness before/after stem cell transplantation, as worked in
    # Fagerland, Lydersen & Laake (2014, Stat Med 33:2850-2875) and their book, ch. 8: table [[1, 1], [7, 12]].
    'bentur': (1, 7, 21),
    # PropCIs::scoreci.mp's documented example (Agresti & Min 2005): b = 40, c = 20, n = 160.
    'propcis': (40, 20, 160),
    # Agresti, An Introduction to Categorical Data Analysis (2nd ed., 2007), Table 8.1: presidential approval
    # in two surveys of the same 1600 people: 794 approve both, 150 approve then not, 86 not then approve, 570 neither.
    'agresti': (86, 150, 1600),
}
for name, (n12, n21, n) in examples.items():
    lo, hi = tango(n12, n21, n)
    p = binomtest(min(n12, n21), n12 + n21, 0.5).pvalue
    print(f"{name}: n12={n12} n21={n21} n={n}  tango=[{lo:.12f}, {hi:.12f}]  mcnemar_exact_p={p:.12g}")
