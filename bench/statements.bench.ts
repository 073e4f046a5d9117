/**
 * Statement probes: statements (true ones and their negatives) generated per second at 100k and 1M rows, and the
 * memory the stream adds (flat when nothing accumulates); then how many expensive-model triples a ±0.02 interval
 * on C needs on the movie example (cheap model: the offline simulator agreeing with the expensive one on 80 % of
 * the statements) against a full run. Goal: ≥ 100,000 statements/s at 1M rows.
 */
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AttrType, SpecModel } from '../src/core/spec/model.js';
import { generateQuestions } from '../src/core/probes/index.js';
import { loadSpec } from '../src/core/spec/load.js';
import { loadData } from '../src/core/data/index.js';
import { createVerifyContext, verify } from '../src/core/verify/verify.js';
import { OfflineClient, offlineRates } from '../src/core/models/offline.js';
import { triplesOf, tripleScore } from '../src/core/families/statement/metrics.js';
import { estimateMean } from '../src/core/families/statement/estimate.js';
import { prng } from '../src/core/probes/sampling.js';
import { drain, measure, report, runCasesInChildren, type BenchRow } from './support.js';
import { int, loc, relation, table, text } from './tables.js';

const MOVIE: [string, AttrType][] = [['title', text], ['year', int], ['director', text], ['producer', text], ['genre', text]];

function spec(): SpecModel {
    return {
        files: ['/bench.probe'], sources: [], relations: [relation('Movie', MOVIE, ['title', 'year'])], fks: [], aliases: [], models: [], suites: [],
        fds: [{ id: 'fd', relation: 'Movie', lhs: ['title', 'year'], rhs: ['director', 'producer', 'genre'], loc }],
        probes: [{ name: 's', kind: 'statement', fd: 'fd', phrasings: [], stems: [], options: [], asks: [], settings: { negatives: 3, corrupt: ['tail', 'head', 'relation'] }, loc }],
    };
}

async function runCase(rows: number) {
    const data = { tables: new Map([['Movie', table('Movie', MOVIE, rows, (r, c) => [`Movie ${r}`, 1950 + (r % 70), `Person ${r % 5000}`, `Person ${(r * 7) % 5000}`, `Genre ${r % 12}`][c]!)]]), diagnostics: [] };
    (globalThis as { gc?: () => void }).gc?.();
    const { result, ms, peakMB } = await measure(() => drain(generateQuestions(spec(), data, {}).questions));
    return { statements: result.n, seconds: ms / 1000, peakMB, indexedMB: result.firstMB, streamPeakMB: result.peakMB };
}

async function callsForTarget(): Promise<{ needed: number; triples: number; halfWidth: number }> {
    const file = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'examples', 'statements', 'statements.probe');
    const { model } = await loadSpec(file);
    const data = await loadData(model);
    const questions = [...generateQuestions(model, data, { probe: 'movie_facts' }).questions];
    const ctx = createVerifyContext(model, data);
    const big = new OfflineClient('expensive', offlineRates({ knowledge: 0.7, seed: 3 }));
    const other = new OfflineClient('other', offlineRates({ knowledge: 0.7, seed: 4 }));
    const agree = prng(5);
    const scores = (answer: (i: number) => string) => triplesOf(questions.map((q, i) => ({ q, v: verify(q, answer(i), ctx, 'm') })));
    const exp = scores(i => big.answer(questions[i]!));
    const chp = new Map(scores(i => (agree() < 0.8 ? big.answer(questions[i]!) : other.answer(questions[i]!))).map(t => [t.id, tripleScore(t, 'C')]));
    const r = await estimateMean({
        cheap: exp.map(t => chp.get(t.id) ?? 0), strata: exp.map(t => t.attribute), budget: exp.length, target: 0.02, seed: 1, round: 2,
        label: ts => ts.map(t => tripleScore(exp[t]!, 'C')),
    });
    return { needed: r.labelled, triples: exp.length, halfWidth: r.chosen.halfWidth };
}

if (process.argv[2] === '--case') {
    console.log(`CASE ${JSON.stringify(await runCase(Number(process.argv[3])))}`);
} else {
    const self = fileURLToPath(import.meta.url);
    const results = runCasesInChildren<Awaited<ReturnType<typeof runCase>>>(self, [100_000, 1_000_000], (rows, r) =>
        `${rows} rows: ${r.statements} statements in ${r.seconds.toFixed(2)} s; RSS after indexes ${r.indexedMB.toFixed(0)} MB, stream peak ${r.streamPeakMB.toFixed(0)} MB, process peak ${r.peakMB.toFixed(0)} MB`);
    const s = results.get(100_000)!, l = results.get(1_000_000)!;
    const rate = l.statements / l.seconds;
    const extraS = Math.max(1, s.streamPeakMB - s.indexedMB), extraL = Math.max(1, l.streamPeakMB - l.indexedMB);
    const target = await callsForTarget();
    console.error(`movie example: ${target.needed} of ${target.triples} triples reach half-width ${target.halfWidth.toFixed(3)} (target 0.02)`);
    const rows: BenchRow[] = [
        { bench: 'statements', case: 'statements/s incl. negatives (1M rows, 3 negatives per fact)', value: rate, unit: 'statements/s', reference: 100_000, referenceName: 'goal', ratio: rate / 100_000, goal: '≥ 100,000/s', met: rate >= 100_000, peakMB: l.peakMB },
        { bench: 'statements', case: 'MB added while streaming, 1M vs 100k rows', value: extraL, unit: 'MB', reference: extraS, referenceName: '100k rows', ratio: extraL / extraS, goal: 'flat: ≤ 2× at 10× the rows', met: extraL <= 2 * extraS, peakMB: l.peakMB },
        { bench: 'statements', case: `expensive triples for a ±0.02 interval on C (movie example; reached ±${target.halfWidth.toFixed(3)})`, value: target.needed, unit: 'triples', reference: target.triples, referenceName: 'full run', ratio: target.needed / target.triples },
    ];
    report(rows);
}
