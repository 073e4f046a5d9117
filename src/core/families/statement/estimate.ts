/**
 * Whole-graph estimates at a fraction of the cost (what GraphEval's white-box judge was for, done black-box and
 * with valid intervals): a cheap model (or the offline simulator) scores every triple, the expensive model a
 * sample, and prediction-powered inference (Angelopoulos et al., 2023) combines them, stratified by relation:
 *
 *   θ̂ = Σ_h W_h [ mean_h(f, all N_h triples) + mean_h(y − f, the n_h labelled ones) ]
 *   Var = Σ_h W_h² · var_h(y − f) / n_h · (1 − n_h / N_h)
 *
 * (the target is the full-run value over this graph's triples, so the cheap mean is exact and sampling without
 * replacement takes the finite-population correction),
 * with y the expensive model's per-triple score and f the cheap one's. When the cheap model does not help
 * (its interval would be wider), the sample-only stratified mean Σ_h W_h mean_h(y) is used instead. Sampling is
 * active: a pilot spreads calls over the strata, then each round goes to the stratum that adds most to the
 * interval's width (Neyman allocation on the current residual spread), until the budget or a target half-width.
 *
 * With a target, the calls are planned from the spread rather than from the budget: a small pilot (5 % of the
 * triples, at least 30 and 2 per stratum, at most a third of the budget) measures it, and each round asks for half of
 * what the current interval says is still needed (n* from hw² = z² v (1/n − 1/N)), so the estimate stops close to the
 * fewest calls the target needs instead of overshooting by a third of the budget.
 */
import { prng } from '../../probes/sampling.js';
import type { Estimate, EstimateResult } from '../../probes/estimate-types.js';

export type { EstimateResult } from '../../probes/estimate-types.js';

const Z = 1.959963984540054;

interface Stratum {
    name: string;
    members: number[];
    cheapMean: number;
    cheapVar: number;
}

const mean = (xs: readonly number[]) => (xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : 0);
const variance = (xs: readonly number[]) => {
    if (xs.length < 2) return 0;
    const m = mean(xs);
    return xs.reduce((s, x) => s + (x - m) ** 2, 0) / (xs.length - 1);
};

function strataOf(strata: readonly string[], cheap: readonly number[]): Stratum[] {
    const by = new Map<string, number[]>();
    strata.forEach((s, i) => {
        const members = by.get(s);
        if (members) members.push(i);
        else by.set(s, [i]);
    });
    return [...by].map(([name, members]) => {
        const f = members.map(i => cheap[i]!);
        return { name, members, cheapMean: mean(f), cheapVar: variance(f) };
    });
}

/** The two estimators on what is labelled so far. */
function estimateFrom(
    cheap: readonly number[],
    strata: readonly string[],
    labels: ReadonlyMap<number, number>,
): { ppi: Estimate; sampleOnly: Estimate } {
    const all = strataOf(strata, cheap);
    const N = cheap.length;
    let ppi = 0,
        ppiVar = 0,
        plain = 0,
        plainVar = 0;
    for (const s of all) {
        const w = s.members.length / N;
        const done = s.members.filter(i => labels.has(i));
        const y = done.map(i => labels.get(i)!);
        const r = done.map(i => labels.get(i)! - cheap[i]!);
        // A stratum without labels borrows the cheap model's mean for PPI and counts as unknown (±1) for the sample.
        // The target is this graph's full-run value: the cheap mean over every triple is exact, and sampling
        // without replacement gets the finite-population correction (all labelled: no error left).
        const fpc = 1 - done.length / s.members.length;
        ppi += w * (s.cheapMean + mean(r));
        ppiVar += w * w * (done.length > 1 ? (variance(r) / done.length) * fpc : 1);
        plain += w * (done.length ? mean(y) : 0);
        plainVar += w * w * (done.length > 1 ? (variance(y) / done.length) * fpc : 1);
    }
    const make = (value: number, v: number, method: Estimate['method']): Estimate => {
        const half = Z * Math.sqrt(v);
        return { value, ci: [value - half, value + half], halfWidth: half, method };
    };
    return { ppi: make(ppi, ppiVar, 'ppi'), sampleOnly: make(plain, plainVar, 'sample') };
}

export interface EstimateOptions {
    /** The cheap model's score per triple (every triple). */
    cheap: readonly number[];
    /** The stratum (relation / attribute) of each triple. */
    strata: readonly string[];
    /** How many triples the expensive model may score. */
    budget: number;
    /** Asks the expensive model about these triples and returns their scores (in order; undefined: the calls failed). */
    label: (triples: number[]) => (number | undefined)[] | Promise<(number | undefined)[]>;
    seed?: number;
    /** Stop early once the chosen interval's half-width is at most this. */
    target?: number;
    /** Triples labelled per round after the pilot (default: a tenth of the budget). */
    round?: number;
}

export async function estimateMean(o: EstimateOptions): Promise<EstimateResult> {
    const random = prng(o.seed ?? 1);
    const strata = strataOf(o.strata, o.cheap);
    const budget = Math.min(o.budget, o.cheap.length);
    // Each stratum's unlabelled triples in a seeded order.
    const queues = new Map(strata.map(s => [s.name, shuffle([...s.members], random)]));
    const labels = new Map<number, number>();
    let failed = 0;
    const take = async (picked: number[]) => {
        if (picked.length === 0) return;
        const ys = await o.label(picked);
        picked.forEach((t, i) => {
            const y = ys[i];
            if (y === undefined) failed++;
            else labels.set(t, y);
        });
    };
    const spent = () => labels.size + failed;
    // Pilot: about a third of the budget (with a target: enough to measure the spread), proportional to stratum
    // size, at least 2 per stratum where possible.
    const third = Math.round(budget / 3);
    const pilot = Math.max(
        Math.min(budget, strata.length * 2),
        o.target === undefined ? third : Math.min(third, Math.max(30, Math.ceil(0.05 * o.cheap.length))),
    );
    const first: number[] = [];
    for (const s of strata) {
        const want = Math.max(2, Math.round((pilot * s.members.length) / o.cheap.length));
        first.push(...queues.get(s.name)!.splice(0, Math.min(want, budget - first.length)));
    }
    await take(first);
    const fixedRound = Math.max(1, o.round ?? Math.ceil(budget / 10));
    while (spent() < budget) {
        const current = estimateFrom(o.cheap, o.strata, labels);
        const chosen = current.ppi.halfWidth <= current.sampleOnly.halfWidth ? current.ppi : current.sampleOnly;
        if (o.target !== undefined && chosen.halfWidth <= o.target) break;
        const round =
            o.round === undefined && o.target !== undefined
                ? plannedRound(chosen.halfWidth, o.target, labels.size, o.cheap.length, fixedRound)
                : fixedRound;
        // Neyman allocation on the residual spread: the next calls go where they shrink the interval most.
        const need = strata
            .map(s => {
                const done = s.members.filter(i => labels.has(i));
                const spread = Math.sqrt(done.length > 1 ? variance(done.map(i => labels.get(i)! - o.cheap[i]!)) : 1);
                return {
                    s,
                    score: queues.get(s.name)!.length ? (s.members.length * (spread + 1e-3)) / Math.sqrt(done.length + 1) : -1,
                };
            })
            .sort((a, b) => b.score - a.score);
        const order = need.filter(n => n.score >= 0).map(n => n.s.name);
        const batch: number[] = [];
        const room = Math.min(round, budget - spent());
        const pull = (name: string) => {
            const x = queues.get(name)!.shift();
            if (x !== undefined) batch.push(x);
            return x !== undefined;
        };
        // Half of a round goes to the neediest stratum, the rest round-robin in order of need.
        for (let k = 0; k < Math.ceil(room / 2) && order.length && pull(order[0]!); k++);
        for (let i = 0; batch.length < room && order.some(n => queues.get(n)!.length > 0); i = (i + 1) % order.length)
            pull(order[i]!);
        if (batch.length === 0) break;
        await take(batch);
    }
    const final = estimateFrom(o.cheap, o.strata, labels);
    const chosen = final.ppi.halfWidth <= final.sampleOnly.halfWidth ? final.ppi : final.sampleOnly;
    const perStratum: Record<string, number> = {};
    for (const s of strata) perStratum[s.name] = s.members.filter(i => labels.has(i)).length;
    return { ...final, chosen, labelled: labels.size, population: o.cheap.length, perStratum, failed };
}

/**
 * The next round toward a target half-width: half of the labels the current interval says are still needed (at least
 * 5, at most the budget's tenth). hw² = z² v (1/n − 1/N) gives v from the current interval, then n* at the target.
 */
function plannedRound(halfWidth: number, target: number, n: number, N: number, cap: number): number {
    const gap = 1 / Math.max(1, n) - 1 / N;
    if (!(gap > 0) || !Number.isFinite(halfWidth)) return cap;
    const v = (halfWidth / Z) ** 2 / gap;
    const needed = 1 / ((target / Z) ** 2 / v + 1 / N);
    return Math.max(5, Math.min(cap, Math.ceil((needed - n) / 2)));
}

function shuffle<T>(xs: T[], random: () => number): T[] {
    for (let i = xs.length - 1; i > 0; i--) {
        const j = Math.floor(random() * (i + 1));
        [xs[i], xs[j]] = [xs[j]!, xs[i]!];
    }
    return xs;
}
