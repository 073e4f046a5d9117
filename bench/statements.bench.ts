/**
 * Statement probes: statements (true ones and their negatives) generated per second at 100k and 1M rows, and the
 * memory the stream adds (flat when nothing accumulates); then how many expensive-model triples a ±0.02 interval
 * on C needs (cheap model: the offline simulator agreeing with the expensive one on 80 % or 90 % of the statements)
 * against a full run, on the movie example (120 triples) and on ERBench's movie data (3,000 triples, from ../shared):
 * bench/statements-estimate.ts. Goals: ≥ 100,000 statements/s at 1M rows; ≤ 25 % of a full run's calls.
 */
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AttrType, SpecModel } from '../src/core/spec/model.js';
import { generateQuestions } from '../src/core/probes/index.js';
import { existsSync } from 'node:fs';
import { drain, measure, report, runCasesInChildren, type BenchRow } from './support.js';
import { erbenchTargetFigures, targetFigures, TARGET, type TargetFigures } from './statements-estimate.js';
import { int, loc, relation, table, text } from './tables.js';

const MOVIE: [string, AttrType][] = [
    ['title', text],
    ['year', int],
    ['director', text],
    ['producer', text],
    ['genre', text],
];

function spec(): SpecModel {
    return {
        files: ['/bench.probe'],
        sources: [],
        relations: [relation('Movie', MOVIE, ['title', 'year'])],
        fks: [],
        aliases: [],
        models: [],
        suites: [],
        fds: [{ id: 'fd', relation: 'Movie', lhs: ['title', 'year'], rhs: ['director', 'producer', 'genre'], loc }],
        probes: [
            {
                name: 's',
                kind: 'statement',
                fd: 'fd',
                phrasings: [],
                stems: [],
                options: [],
                asks: [],
                settings: { negatives: 3, corrupt: ['tail', 'head', 'relation'] },
                loc,
            },
        ],
    };
}

async function runCase(rows: number) {
    const data = {
        tables: new Map([
            [
                'Movie',
                table(
                    'Movie',
                    MOVIE,
                    rows,
                    (r, c) =>
                        [`Movie ${r}`, 1950 + (r % 70), `Person ${r % 5000}`, `Person ${(r * 7) % 5000}`, `Genre ${r % 12}`][c]!,
                ),
            ],
        ]),
        diagnostics: [],
    };
    (globalThis as { gc?: () => void }).gc?.();
    const { result, ms, peakMB } = await measure(() => drain(generateQuestions(spec(), data, {}).questions));
    return { statements: result.n, seconds: ms / 1000, peakMB, indexedMB: result.firstMB, streamPeakMB: result.peakMB };
}

/** One bench row per statement set and agreement: the median triples a ±0.02 interval needs against a full run. */
function targetRow(t: TargetFigures): BenchRow {
    const share = t.median / t.triples;
    return {
        bench: 'statements',
        case: `expensive triples for ±${TARGET} on C: ${t.set} (${t.triples} triples), cheap model agreeing ${Math.round(t.agreement * 100)} %; median of ${t.trials} seeds (max ${t.max}), interval held the full-run C in ${Math.round(t.coverage * 100)} %; var(y − f) ${t.residualVariance.toFixed(3)}, n0 ${Math.round(t.n0)}, 25 % needs ≥ ${t.floor} triples`,
        value: t.median,
        unit: 'triples',
        reference: t.triples,
        referenceName: 'full run',
        ratio: share,
        goal: '≤ 25 % of a full run',
        met: share <= 0.25,
    };
}

if (process.argv[2] === '--case') {
    console.log(`CASE ${JSON.stringify(await runCase(Number(process.argv[3])))}`);
} else {
    const self = fileURLToPath(import.meta.url);
    const results = runCasesInChildren<Awaited<ReturnType<typeof runCase>>>(
        self,
        [100_000, 1_000_000],
        (rows, r) =>
            `${rows} rows: ${r.statements} statements in ${r.seconds.toFixed(2)} s; RSS after indexes ${r.indexedMB.toFixed(0)} MB, stream peak ${r.streamPeakMB.toFixed(0)} MB, process peak ${r.peakMB.toFixed(0)} MB`,
    );
    const s = results.get(100_000)!,
        l = results.get(1_000_000)!;
    const rate = l.statements / l.seconds;
    const extraS = Math.max(1, s.streamPeakMB - s.indexedMB),
        extraL = Math.max(1, l.streamPeakMB - l.indexedMB);
    const example = path.resolve(path.dirname(self), '..', 'examples', 'statements', 'statements.probe');
    const targets = await targetFigures('movie example', example, 'movie_facts', [0.8, 0.9], 40);
    const erbench = path.resolve(path.dirname(self), '..', '..', 'shared', 'data', 'erbench', 'movie.csv');
    if (existsSync(erbench)) targets.push(...(await erbenchTargetFigures(erbench, [0.8, 0.9], 40)));
    else console.error(`!! ${erbench} missing: the 3,000-triple case is not measured (the acceptance data sits in ../shared)`);
    for (const t of targets)
        console.error(
            `${t.set}, agreement ${t.agreement}: median ${t.median} of ${t.triples} triples (max ${t.max}), coverage ${t.coverage.toFixed(2)}, var(y − f) ${t.residualVariance.toFixed(3)}, n0 ${t.n0.toFixed(0)}, 25 % floor ${t.floor} triples`,
        );
    const rows: BenchRow[] = [
        {
            bench: 'statements',
            case: 'statements/s incl. negatives (1M rows, 3 negatives per fact)',
            value: rate,
            unit: 'statements/s',
            reference: 100_000,
            referenceName: 'goal',
            ratio: rate / 100_000,
            goal: '≥ 100,000/s',
            met: rate >= 100_000,
            peakMB: l.peakMB,
        },
        {
            bench: 'statements',
            case: 'MB added while streaming, 1M vs 100k rows',
            value: extraL,
            unit: 'MB',
            reference: extraS,
            referenceName: '100k rows',
            ratio: extraL / extraS,
            goal: 'flat: ≤ 2× at 10× the rows',
            met: extraL <= 2 * extraS,
            peakMB: l.peakMB,
        },
        ...targets.map(targetRow),
    ];
    report(rows);
}
