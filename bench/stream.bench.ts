/**
 * Time to the first request of a big run (issue 11, item 10): the runner fixture spec over a generated CSV of
 * 200,000 movies (400,000 questions), asked through the real `openai` SDK of a local server in its own process.
 *   - after: `runSpec` as the CLI and the editor call it: questions are generated, stored and asked batch by batch;
 *   - before: the pipeline as it was (every question generated, then stored in one transaction, then asked).
 * Each case runs in a child process so its peak memory is its own; the run is stopped after the first answers.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runSpec, loadCheckedSpec, loadRunData } from '../src/core/run/spec-run.js';
import { executeRun } from '../src/core/run/index.js';
import { generateQuestions } from '../src/core/probes/index.js';
import { SqliteStore } from '../src/core/store/index.js';
import { spawnOpenAIServer } from '../test/support/openai-server-process.js';
import { serverModel, tempDir } from '../test/support/runner-fixtures.js';
import { report, runCasesInChildren, type BenchRow } from './support.js';

const ROWS = 200_000;
const self = fileURLToPath(import.meta.url);
const fixtures = path.join(path.dirname(self), '..', 'test', 'fixtures', 'runner');

interface CaseResult {
    firstAnswerMs: number;
    peakMB: number;
}

function writeBigSpec(endpoint: string): string {
    const dir = tempDir('hp-stream-bench-');
    const lines = [',common_entity,entity3,entity2,entity1'];
    for (let i = 0; i < ROWS; i++) lines.push(`${i},Film Number ${i},${1900 + (i % 120)}.0,Director ${i % 5000},Actor ${i}`);
    writeFileSync(path.join(dir, 'movies.csv'), `${lines.join('\n')}\n`);
    const spec = path.join(dir, 'movie.probe');
    writeFileSync(spec, readFileSync(path.join(fixtures, 'movie.probe.template'), 'utf8').replaceAll('{{ENDPOINT}}', endpoint));
    return spec;
}

/** One case in this process: 1 = streaming (`runSpec`), 0 = every question first. Prints `CASE {json}`. */
async function runCase(streaming: boolean, url: string): Promise<void> {
    const spec = writeBigSpec(url);
    const stop = new AbortController();
    let firstAnswerMs = 0;
    const onAnswer = () => {
        firstAnswerMs ||= performance.now() - start;
        stop.abort();
    };
    const start = performance.now();
    if (streaming) {
        await runSpec({
            spec,
            origin: 'bench',
            verify: false,
            env: { OPENAI_API_KEY: 'sk-bench' },
            confirmHost: async () => true,
            confirmCost: async () => true,
            signal: stop.signal,
            onAnswer,
        });
    } else {
        const model = await loadCheckedSpec(spec);
        const { data } = await loadRunData(model);
        const questions = [...generateQuestions(model, data, { suite: 'movies' }).questions];
        const store = new SqliteStore(path.join(path.dirname(spec), 'results.db'));
        const run = await store.createRun(spec, 'movies', {});
        await store.saveQuestions(run.id, questions);
        await executeRun({
            store,
            runId: run.id,
            questions,
            models: [serverModel(url, { concurrency: 4 })],
            signal: stop.signal,
            onAnswer,
        });
        await store.close();
    }
    const result: CaseResult = { firstAnswerMs, peakMB: (process.resourceUsage().maxRSS * 1024) / (1 << 20) };
    console.log(`CASE ${JSON.stringify(result)}`);
}

async function main(): Promise<void> {
    const server = await spawnOpenAIServer();
    try {
        process.env.HP_STREAM_URL = server.url;
        const results = runCasesInChildren<CaseResult>(
            self,
            [0, 1],
            (c, r) =>
                `${c ? 'streaming' : 'all first'}: first answer after ${Math.round(r.firstAnswerMs)} ms, peak ${Math.round(r.peakMB)} MB`,
        );
        const before = results.get(0)!,
            after = results.get(1)!;
        const rows: BenchRow[] = [
            {
                bench: 'stream',
                case: `first-request: time to the first answer, ${ROWS.toLocaleString('en')}-row CSV (${(2 * ROWS).toLocaleString('en')} questions)`,
                value: after.firstAnswerMs,
                unit: 'ms',
                reference: before.firstAnswerMs,
                referenceName: 'every question generated and stored first',
                ratio: after.firstAnswerMs / before.firstAnswerMs,
                goal: '< 5000 ms',
                met: after.firstAnswerMs < 5000,
                peakMB: after.peakMB,
            },
            {
                bench: 'stream',
                case: 'peak memory until the first answer',
                value: after.peakMB,
                unit: 'MB',
                reference: before.peakMB,
                referenceName: 'every question first',
                ratio: after.peakMB / before.peakMB,
            },
        ];
        report(rows);
    } finally {
        await server.close();
    }
}

const at = process.argv.indexOf('--case');
if (at > 0) await runCase(process.argv[at + 1] === '1', process.env.HP_STREAM_URL!);
else await main();
