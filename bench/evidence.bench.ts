/**
 * Evidence probes: perturbed cases (seed, validated swap, enriched passage) generated per second over 100k
 * passages rendered from generated rows, and the memory the stream adds at 10× the passages. Goal: ≥ 20,000
 * cases/s, flat memory.
 */
import { fileURLToPath } from 'node:url';
import type { AttrType, SpecModel } from '../src/core/spec/model.js';
import { generateQuestions } from '../src/core/probes/index.js';
import { drain, measure, report, runCasesInChildren, type BenchRow } from './support.js';
import { int, loc, relation, table, text } from './tables.js';

const FILM: [string, AttrType][] = [['title', text], ['year', int], ['director', text], ['star', text]];

function spec(): SpecModel {
    return {
        files: ['/bench.probe'], sources: [], relations: [relation('Film', FILM, ['title', 'year'])], fds: [], fks: [], aliases: [], models: [], suites: [],
        probes: [{
            name: 'e', kind: 'evidence', relation: 'Film', phrasings: [], stems: [], options: [], asks: [], loc,
            settings: { question: 'Who directed {title} ({year})?', answer: 'director', passage: '{title} is a {year} film directed by {director}, starring {star}.', perturb: ['swap', 'enrich'] },
        }],
    };
}

async function runCase(rows: number) {
    const data = { tables: new Map([['Film', table('Film', FILM, rows, (r, c) => [`Film ${r}`, 1950 + (r % 70), `Director Number${r % 3000}`, `Star ${r % 7000}`][c]!)]]), diagnostics: [] };
    (globalThis as { gc?: () => void }).gc?.();
    const { result, ms, peakMB } = await measure(() => drain(generateQuestions(spec(), data, {}).questions));
    return { cases: result.n, seconds: ms / 1000, peakMB, indexedMB: result.firstMB, streamPeakMB: result.peakMB };
}

if (process.argv[2] === '--case') {
    console.log(`CASE ${JSON.stringify(await runCase(Number(process.argv[3])))}`);
} else {
    const self = fileURLToPath(import.meta.url);
    const out = runCasesInChildren<Awaited<ReturnType<typeof runCase>>>(self, [10_000, 100_000], (rows, r) =>
        `${rows} passages: ${r.cases} cases in ${r.seconds.toFixed(2)} s; stream peak ${r.streamPeakMB.toFixed(0)} MB over ${r.indexedMB.toFixed(0)} MB`);
    const s = out.get(10_000)!, l = out.get(100_000)!;
    const rate = l.cases / l.seconds;
    const extraS = Math.max(1, s.streamPeakMB - s.indexedMB), extraL = Math.max(1, l.streamPeakMB - l.indexedMB);
    const rows: BenchRow[] = [
        { bench: 'evidence', case: 'cases/s generated and validated (100k passages: seed, swap, enrich)', value: rate, unit: 'cases/s', reference: 20_000, referenceName: 'goal', ratio: rate / 20_000, goal: '≥ 20,000/s', met: rate >= 20_000, peakMB: l.peakMB },
        { bench: 'evidence', case: 'MB added while streaming, 100k vs 10k passages', value: extraL, unit: 'MB', reference: extraS, referenceName: '10k passages', ratio: extraL / extraS, goal: 'flat: ≤ 2× at 10× the passages', met: extraL <= 2 * extraS, peakMB: l.peakMB },
    ];
    report(rows);
}
