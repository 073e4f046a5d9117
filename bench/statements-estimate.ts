/**
 * How many expensive-model triples a ±0.02 interval on C needs (issue 27 item 17; goal ≤ 25 % of a full run's calls):
 * the expensive model is the offline simulator (knowledge 0.7), the cheap one agrees with it on a share of the
 * statements (80 %, 90 %) and answers as another simulator otherwise. Each statement set is scored once; the
 * estimate is then run over many seeds with `target 0.02` to get the median triples it asks and how often its
 * interval covers the full-run value.
 *
 * Why a small set cannot meet the goal: with s² = var(y − f) (the residual spread per triple) and z = 1.96, the
 * triples a ±w interval needs are n = n0 / (1 + n0 / N) with n0 = s² (z / w)² (finite-population corrected), so
 * n ≤ N / 4 needs N ≥ 3 n0. The figures below give n0 and that floor for each agreement.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { generateQuestions } from '../src/core/probes/index.js';
import { loadSpec } from '../src/core/spec/load.js';
import { loadData } from '../src/core/data/index.js';
import { createVerifyContext, verify } from '../src/core/verify/verify.js';
import { OfflineClient, offlineRates } from '../src/core/models/offline.js';
import { triplesOf, tripleScore } from '../src/core/families/statement/metrics.js';
import { estimateMean } from '../src/core/families/statement/estimate.js';
import { prng } from '../src/core/probes/sampling.js';

const Z = 1.959963984540054;
export const TARGET = 0.02;

export interface TargetFigures {
    set: string;
    agreement: number;
    triples: number;
    /** Median and largest triples labelled over the trials, and the share of trials whose interval held the truth. */
    median: number;
    max: number;
    coverage: number;
    trials: number;
    /** var(y − f) per triple, n0 = s² (z / w)², and the smallest set where n0 / (1 + n0 / N) ≤ N / 4. */
    residualVariance: number;
    n0: number;
    floor: number;
}

/** The ERBench movie data as a statement probe: director and star per movie, 3 negatives each (3,000 triples). */
export function erbenchMovieSpec(csv: string): string {
    return `source movie csv "${csv.replaceAll('\\', '/')}"
relation Movie from movie label "movie" {
    title: text = "common_entity" label "title"
    year: int = "entity3" label "release year"
    director: text = "entity2" label "director"
    star: text = "entity1" label "star"
    key (title, year)
}
fd Movie: title, year -> director, star as facts
probe s statement using facts {
    statement ["{director} directed the movie {title} ({year}).", "{star} starred in the movie {title} ({year})."]
    negatives 3
    corrupt [tail, head, relation]
}
`;
}

/** A spec file's statement probe, scored by the expensive simulator and by cheap ones at each agreement. */
export async function targetFigures(
    set: string,
    specFile: string,
    probe: string,
    agreements: number[],
    trials: number,
): Promise<TargetFigures[]> {
    const { model } = await loadSpec(specFile);
    const data = await loadData(model);
    const questions = [...generateQuestions(model, data, { probe }).questions];
    const ctx = createVerifyContext(model, data);
    const expensive = new OfflineClient('expensive', offlineRates({ knowledge: 0.7, seed: 3 }));
    const other = new OfflineClient('other', offlineRates({ knowledge: 0.7, seed: 4 }));
    const big = questions.map(q => expensive.answer(q));
    const small = questions.map(q => other.answer(q));
    const triples = (answer: (i: number) => string) =>
        triplesOf(questions.map((q, i) => ({ q, v: verify(q, answer(i), ctx, 'm') })));
    const exp = triples(i => big[i]!);
    const y = exp.map(t => tripleScore(t, 'C'));
    const truth = y.reduce((s, x) => s + x, 0) / y.length;
    const out: TargetFigures[] = [];
    for (const agreement of agreements) {
        const agree = prng(5);
        const cheap = new Map(triples(i => (agree() < agreement ? big[i]! : small[i]!)).map(t => [t.id, tripleScore(t, 'C')]));
        const f = exp.map(t => cheap.get(t.id) ?? 0);
        const r = y.map((v, i) => v - f[i]!);
        const rm = r.reduce((s, x) => s + x, 0) / r.length;
        const residualVariance = r.reduce((s, x) => s + (x - rm) ** 2, 0) / (r.length - 1);
        const n0 = residualVariance * (Z / TARGET) ** 2;
        const labelled: number[] = [];
        let covered = 0;
        for (let seed = 1; seed <= trials; seed++) {
            const e = await estimateMean({
                cheap: f,
                strata: exp.map(t => t.attribute),
                budget: exp.length,
                target: TARGET,
                seed,
                label: ts => ts.map(t => y[t]!),
            });
            labelled.push(e.labelled);
            if (e.chosen.ci[0] <= truth && truth <= e.chosen.ci[1]) covered++;
        }
        labelled.sort((a, b) => a - b);
        out.push({
            set,
            agreement,
            triples: exp.length,
            median: labelled[Math.floor(trials / 2)]!,
            max: labelled[trials - 1]!,
            coverage: covered / trials,
            trials,
            residualVariance,
            n0,
            floor: Math.ceil(3 * n0),
        });
    }
    return out;
}

/** `targetFigures` on the ERBench movie file, written as a spec in a temporary folder. */
export async function erbenchTargetFigures(csv: string, agreements: number[], trials: number): Promise<TargetFigures[]> {
    const dir = mkdtempSync(path.join(tmpdir(), 'hp-bench-estimate-'));
    try {
        const spec = path.join(dir, 'erbench-movie.probe');
        writeFileSync(spec, erbenchMovieSpec(csv));
        return await targetFigures('ERBench movie.csv', spec, 's', agreements, trials);
    } finally {
        rmSync(dir, { recursive: true, force: true });
    }
}
