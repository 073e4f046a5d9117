/**
 * The results store under load: answers stored per second, each its own transaction (the call, the cache entry and
 * the response, as the runner commits every answer), 16 in flight per writer as a model's pool keeps them. In one
 * run: the SQLite store with its one writer (the reference), and a PostgreSQL store with 4 writers — 4 processes,
 * as 4 machines of a shared run are — then with 1. PostgreSQL runs with its durable defaults (fsync, synchronous
 * commit); SQLite runs as the store opens it (WAL, synchronous NORMAL: a commit survives the process, not a power cut).
 *
 * HALLUPROBE_STORE_ANSWERS (default 4000) answers per writer.
 */
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openStore, type AnswerRecord } from '../src/core/store/index.js';
import { startPostgres } from '../test/support/postgres.js';
import { tempDir } from '../test/support/temp.js';
import { report, type BenchRow } from './support.js';

const PER_WRITER = Number(process.env.HALLUPROBE_STORE_ANSWERS ?? 4000);
const IN_FLIGHT = 16;
const self = fileURLToPath(import.meta.url);

interface WriterResult {
    answers: number;
    start: number;
    end: number;
}

/** One writer process: `--writer STORE RUN N`; prints its start and end (epoch ms). */
async function writer(where: string, run: string, tag: string): Promise<void> {
    const store = await openStore(where);
    const answer = (i: number): AnswerRecord => ({
        run,
        question: `q-${tag}-${i}`,
        model: 'bench-model',
        sample: 0,
        hash: `h-${tag}-${i}`,
        params: { temperature: 0, max_tokens: 64 },
        text: `Yes. The movie ${i} was released in ${1900 + (i % 120)} and directed by Director ${i % 500}; it starred Actor ${i}.`,
        tokensIn: 42,
        tokensOut: 24,
        latencyMs: 180,
        cost: 0.00002,
        attempts: 1,
        finishReason: 'stop',
        cached: false,
        cacheable: true,
    });
    let next = 0;
    const start = Date.now();
    await Promise.all(
        Array.from({ length: IN_FLIGHT }, async () => {
            while (next < PER_WRITER) await store.recordAnswer(answer(next++));
        }),
    );
    const end = Date.now();
    await store.close();
    console.log(`CASE ${JSON.stringify({ answers: PER_WRITER, start, end } satisfies WriterResult)}`);
}

/** Runs `writers` writer processes at once on one store; answers stored per second over them all. */
async function writers(where: string, run: string, count: number, env: NodeJS.ProcessEnv): Promise<number> {
    const results = await Promise.all(
        Array.from(
            { length: count },
            (_, w) =>
                new Promise<WriterResult>((resolve, reject) => {
                    const child = spawn(process.execPath, ['--import', 'tsx', self, '--writer', where, run, `${count}-${w}`], {
                        env: { ...process.env, ...env },
                        stdio: ['ignore', 'pipe', 'inherit'],
                    });
                    let out = '';
                    child.stdout.on('data', d => {
                        out += d;
                    });
                    child.on('close', code => {
                        const line = out.split('\n').find(l => l.startsWith('CASE '));
                        if (code !== 0 || !line) reject(new Error(`writer ${w} failed (exit ${code})`));
                        else resolve(JSON.parse(line.slice(5)) as WriterResult);
                    });
                }),
        ),
    );
    const answers = results.reduce((n, r) => n + r.answers, 0);
    const ms = Math.max(...results.map(r => r.end)) - Math.min(...results.map(r => r.start));
    return (answers * 1000) / ms;
}

async function newRun(where: string): Promise<string> {
    const store = await openStore(where);
    try {
        return (await store.createRun('/bench.probe', 'bench', {})).id;
    } finally {
        await store.close();
    }
}

if (process.argv[2] === '--writer') {
    await writer(process.argv[3]!, process.argv[4]!, process.argv[5]!);
} else {
    const file = path.join(tempDir('hp-store-bench-'), 'results.db');
    const sqlite = await writers(file, await newRun(file), 1, {});
    console.error(`SQLite, 1 writer: ${sqlite.toFixed(0)} answers/s`);
    const pg = await startPostgres({ durable: true });
    if (!pg) throw new Error('PostgreSQL is not installed: the store bench needs it (apt-get install postgresql)');
    try {
        pg.createDatabase('bench');
        const url = pg.url('bench');
        process.env.PGPASSWORD = pg.password;
        const run = await newRun(url);
        const four = await writers(url, run, 4, pg.env);
        console.error(`PostgreSQL, 4 writers: ${four.toFixed(0)} answers/s`);
        const one = await writers(url, run, 1, pg.env);
        console.error(`PostgreSQL, 1 writer: ${one.toFixed(0)} answers/s`);
        const rows: BenchRow[] = [
            {
                bench: 'store',
                case: `SQLite store, 1 writer (${PER_WRITER} answers, ${IN_FLIGHT} in flight)`,
                value: sqlite,
                unit: 'answers/s',
            },
            {
                bench: 'store',
                case: `PostgreSQL store, 4 writer processes (${PER_WRITER} answers each, ${IN_FLIGHT} in flight each)`,
                value: four,
                unit: 'answers/s',
                reference: sqlite,
                referenceName: 'SQLite, 1 writer',
                ratio: four / sqlite,
            },
            {
                bench: 'store',
                case: `PostgreSQL store, 1 writer (${PER_WRITER} answers, ${IN_FLIGHT} in flight)`,
                value: one,
                unit: 'answers/s',
                reference: sqlite,
                referenceName: 'SQLite, 1 writer',
                ratio: one / sqlite,
            },
        ];
        report(rows);
    } finally {
        pg.stop();
    }
}
