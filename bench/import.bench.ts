/**
 * Starting from a database (issue 18). Each case runs in its own child process, so its peak memory is its own:
 *   fds-1m      — FD discovery (TANE, cap 3, exact) on a generated 1,000,000-row × 15-column table with planted
 *                 FDs (the planted ones must be found);
 *   fds-erbench — `halluprobe import --fds` on the ERBench CSV files in ../shared/data/erbench (FD time summed
 *                 over the relations, as the engine measures it);
 *   load-pg / load-csv / copy — 1,000,000 rows × 6 columns read by the engine from PostgreSQL (binary COPY) and from
 *                 the same rows as a CSV file, against `COPY … TO STDOUT` (psql to /dev/null) as the reference;
 *   wire-pg     — the same binary COPY taken off the socket by our reader and dropped (no decoding): the stream read;
 *   read-pg     — the same rows through the PostgreSQL reader (decoded into typed batches, no table built).
 *   So load-pg splits into the stream read (wire-pg), decoding (read-pg − wire-pg) and building and checking the
 *   table (load-pg − read-pg). COPY and the three PostgreSQL cases run interleaved, TRIALS rounds in turn, and each
 *   figure is the median of its trials, so a swing of the machine's load hits the reference and ours alike.
 * Wall time throughout: the reference's work happens in the server and psql, not in this process.
 * Goal: loading from PostgreSQL within 2× of COPY.
 * `--load-only` (run by hand): the loading cases only, no FD discovery.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { measure, median, report, type BenchRow } from './support.js';
import { int, table } from './tables.js';
import { discoverFds } from '../src/core/schema/discover.js';
import { importDatabase } from '../src/core/schema/import.js';
import { loadSpec } from '../src/core/spec/load.js';
import { loadData } from '../src/core/data/index.js';
import { connect, streamPostgres } from '../src/core/data/postgres.js';
import { copyStatement } from '../src/core/data/postgres-copy.js';
import { CopyOutQuery } from '../src/core/data/postgres-wire.js';
import { startPostgres } from '../test/support/postgres.js';

const self = fileURLToPath(import.meta.url);
const ERBENCH = path.resolve(path.dirname(self), '../../shared/data/erbench');
const ROWS = 1_000_000;
type CaseName = 'fds-1m' | 'fds-erbench' | 'load-pg' | 'read-pg' | 'wire-pg' | 'load-csv' | 'copy';
const TRIALS = 5;
interface CaseResult {
    ms: number;
    /** This process's CPU time in the measured window (user + system), where it is ours. */
    cpuMs?: number;
    peakMB: number;
    detail: string;
    rows?: number;
    decodeMs?: number;
    fds?: number;
    complete?: boolean;
    planted?: string[];
}

// ------------------------------------------------------------------------------------------------ FD discovery

/** Deterministic xorshift, so every run discovers on the same table. */
function random(seed: number) {
    let s = seed >>> 0 || 1;
    return (limit: number) => {
        s ^= s << 13;
        s >>>= 0;
        s ^= s >>> 17;
        s ^= s << 5;
        s >>>= 0;
        return s % limit;
    };
}

/** The planted FDs of the 1M × 15 table (the discovery must report each of them). */
const PLANTED = ['city->country', 'shop,day->region', 'city,shop->agent'];

function syntheticTable() {
    const next = random(18);
    const names = [
        'id',
        'city',
        'country',
        'shop',
        'day',
        'region',
        'agent',
        'a2',
        'a10',
        'a50',
        'a300',
        'a2k',
        'a20k',
        'a200k',
        'price',
    ];
    const row = new Array<number>(names.length);
    let filled = -1;
    return table(
        'Sale',
        names.map(n => [n, int]),
        ROWS,
        (r, c) => {
            if (filled !== r) {
                const city = next(2000),
                    shop = next(100),
                    day = next(365);
                row[0] = r;
                row[1] = city;
                row[2] = city % 60;
                row[3] = shop;
                row[4] = day;
                row[5] = (shop * 31 + day) % 97;
                row[6] = (city * 7 + shop) % 4001;
                row[7] = next(2);
                row[8] = next(10);
                row[9] = next(50);
                row[10] = next(300);
                row[11] = next(2000);
                row[12] = next(20_000);
                row[13] = next(200_000);
                row[14] = next(100) === 0 ? 1000 + next(7) : shop % 13; // shop -> price on 99 % of rows
                filled = r;
            }
            return row[c]!;
        },
    );
}

async function fdsSynthetic(): Promise<CaseResult> {
    const t = syntheticTable();
    const { result, ms, peakMB } = await measure(() => discoverFds(t, { maxLhs: 3, budgetMs: 30 * 60_000 }));
    const found = new Set(result.fds.map(f => `${f.lhs.join(',')}->${f.rhs}`));
    const planted = PLANTED.filter(p => found.has(p));
    return {
        ms,
        peakMB,
        rows: t.rowCount,
        fds: result.fds.length,
        complete: result.complete,
        planted,
        detail: `${result.fds.length} minimal FDs (${result.fds.filter(f => !f.keyLike).length} not key-like), ${planted.length}/${PLANTED.length} planted found, levels ${result.levels}, complete ${result.complete}`,
    };
}

async function fdsErbench(): Promise<CaseResult> {
    const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'hp-import-bench-')), 'erbench.probe');
    const { result, peakMB } = await measure(() =>
        importDatabase({ input: ERBENCH, out, fds: { maxLhs: 3, budgetMs: 120_000 } }),
    );
    const found = result.schema.fds ?? [];
    const ms = found.reduce((s, f) => s + f.elapsedMs, 0);
    const rows = result.schema.relations.reduce((s, r) => s + r.rowCount, 0);
    const fds = found.reduce((s, f) => s + f.fds.length, 0);
    return {
        ms,
        peakMB,
        rows,
        fds,
        complete: found.every(f => f.complete),
        detail: `${found.length} files, ${rows} rows: ${fds} minimal FDs (${found.reduce((s, f) => s + f.fds.filter(x => !x.keyLike).length, 0)} not key-like) in ${ms.toFixed(0)} ms of discovery`,
    };
}

// ------------------------------------------------------------------------------------------------ loading

const COLUMNS = 'id int, name text, city text, year int, score real, active bool';
const RELATION = (source: string) =>
    `relation Item from ${source} {\n    id: int\n    name: text\n    city: text\n    year: int\n    score: real\n    active: bool\n    key (id)\n}\n`;

async function loadThrough(specText: string): Promise<CaseResult> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hp-import-bench-'));
    const spec = path.join(dir, 'load.probe');
    fs.writeFileSync(spec, specText);
    const { model } = await loadSpec(spec);
    const cpu = process.cpuUsage();
    const { result, ms, peakMB } = await measure(() => loadData(model));
    const cpuMs = cpuSince(cpu);
    const errors = result.diagnostics.filter(d => d.severity === 'error');
    if (errors.length > 0) throw new Error(errors.map(d => d.message).join('\n'));
    const table = result.tables.get('Item')!;
    // Texts of a binary reader stay bytes until first read: what reading every value costs afterwards.
    const started = performance.now();
    let values = 0;
    for (const column of table.columns) values += column.values.length;
    const decodeMs = performance.now() - started;
    return {
        ms,
        cpuMs,
        peakMB,
        rows: table.rowCount,
        decodeMs,
        detail: `${table.rowCount} rows loaded and checked in ${(ms / 1000).toFixed(2)} s; reading all ${values} distinct values afterwards ${(decodeMs / 1000).toFixed(3)} s`,
    };
}

async function readOnly(): Promise<CaseResult> {
    const source = {
        name: 'items',
        format: 'postgres' as const,
        path: process.env.BENCH_PG_URL!,
        table: 'item',
        settings: {},
        loc: { file: self, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } } },
    };
    let rows = 0;
    const cpu = process.cpuUsage();
    const { result, ms, peakMB } = await measure(() =>
        streamPostgres(
            source,
            () => undefined,
            batch => {
                rows += batch.size;
            },
        ),
    );
    const cpuMs = cpuSince(cpu);
    if (result.problems.length > 0) throw new Error(result.problems.map(p => p.message).join('\n'));
    return { ms, cpuMs, peakMB, rows, detail: `${rows} rows through the binary COPY decoder in ${(ms / 1000).toFixed(2)} s` };
}

/** The same binary COPY as read-pg, taken off the socket by our reader and dropped: the stream read alone. */
async function wireOnly(): Promise<CaseResult> {
    const client = await connect({ path: process.env.BENCH_PG_URL!, settings: {} });
    if (!('query' in client)) throw new Error(client.message);
    try {
        const described = await client.query({ text: 'SELECT * FROM "item" LIMIT 0', rowMode: 'array' });
        const fields = described.fields.map(f => ({ name: f.name, dataTypeID: f.dataTypeID }));
        let messages = 0,
            bytes = 0;
        const copy = new CopyOutQuery(
            copyStatement('SELECT * FROM "item"', fields),
            (_buf, start, end) => {
                messages++;
                bytes += end - start;
            },
            () => undefined,
        );
        const cpu = process.cpuUsage();
        const { ms, peakMB } = await measure(() => client.query(copy).done);
        const cpuMs = cpuSince(cpu);
        return {
            ms,
            cpuMs,
            peakMB,
            rows: messages - 1,
            detail: `${messages} CopyData messages, ${(bytes / (1 << 20)).toFixed(1)} MB off the socket, not decoded, in ${(ms / 1000).toFixed(2)} s`,
        };
    } finally {
        await client.end();
    }
}

function cpuSince(start: NodeJS.CpuUsage): number {
    const { user, system } = process.cpuUsage(start);
    return (user + system) / 1000;
}

function copyToDevNull(): CaseResult {
    const started = performance.now();
    const r = spawnSync(
        'bash',
        [
            '-c',
            `"${process.env.BENCH_PSQL}" -h 127.0.0.1 -p ${process.env.BENCH_PG_PORT} -U postgres -d bench -c "COPY item TO STDOUT" > /dev/null`,
        ],
        { encoding: 'utf8' },
    );
    if (r.status !== 0) throw new Error(r.stderr);
    const ms = performance.now() - started;
    return { ms, peakMB: 0, rows: ROWS, detail: `COPY item TO STDOUT: ${(ms / 1000).toFixed(2)} s` };
}

async function runCase(name: CaseName): Promise<CaseResult> {
    switch (name) {
        case 'fds-1m':
            return fdsSynthetic();
        case 'fds-erbench':
            return fdsErbench();
        case 'load-pg':
            return loadThrough(`source items postgres "${process.env.BENCH_PG_URL}" table "item"\n\n${RELATION('items')}`);
        case 'read-pg':
            return readOnly();
        case 'wire-pg':
            return wireOnly();
        case 'load-csv':
            return loadThrough(`source items csv "${process.env.BENCH_CSV}"\n\n${RELATION('items')}`);
        case 'copy':
            return copyToDevNull();
    }
}

function inChild(name: CaseName): CaseResult {
    const child = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', self, '--case', name], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'inherit'],
        maxBuffer: 16 << 20,
    });
    const line = child.stdout.split('\n').find(l => l.startsWith('CASE '));
    if (child.status !== 0 || !line) throw new Error(`case ${name} failed (exit ${child.status})`);
    const r = JSON.parse(line.slice(5)) as CaseResult;
    const cpu = r.cpuMs === undefined ? '' : `, CPU ${(r.cpuMs / 1000).toFixed(2)} s`;
    console.error(`${name}: ${r.detail}; ${(r.ms / 1000).toFixed(2)} s${cpu}, peak ${r.peakMB.toFixed(0)} MB`);
    return r;
}

if (process.argv[2] === '--case') {
    console.log(`CASE ${JSON.stringify(await runCase(process.argv[3] as CaseName))}`);
} else {
    const results = new Map<CaseName, CaseResult>();
    const loadOnly = process.argv.includes('--load-only');
    if (!loadOnly) for (const name of ['fds-1m', 'fds-erbench'] as const) results.set(name, inChild(name));
    const trials = new Map<CaseName, CaseResult[]>();
    const server = await startPostgres();
    if (!server) throw new Error('PostgreSQL is not installed (apt-get install postgresql): the load cases need a real server');
    try {
        server.createDatabase('bench');
        server.sql(
            'bench',
            `CREATE TABLE item(${COLUMNS}); INSERT INTO item SELECT i, 'name ' || i, 'city ' || (i % 5000), 1900 + i % 120, (i % 1000) / 10.0, i % 3 = 0 FROM generate_series(1, ${ROWS}) AS i`,
        );
        server.sql('bench', 'VACUUM ANALYZE item');
        const csv = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'hp-import-bench-')), 'item.csv');
        const psql = path.join(
            path.dirname(
                spawnSync('bash', ['-c', 'ls /usr/lib/postgresql/*/bin/psql | tail -1'], { encoding: 'utf8' }).stdout.trim(),
            ),
            'psql',
        );
        const dump = spawnSync(
            'bash',
            [
                '-c',
                `"${psql}" -h 127.0.0.1 -p ${server.port} -U postgres -d bench -c "COPY item TO STDOUT WITH (FORMAT csv, HEADER)" > "${csv}"`,
            ],
            { env: { ...process.env, ...server.env } },
        );
        if (dump.status !== 0) throw new Error(String(dump.stderr));
        Object.assign(process.env, server.env, {
            BENCH_PG_URL: server.url('bench'),
            BENCH_PG_PORT: String(server.port),
            BENCH_PSQL: psql,
            BENCH_CSV: csv,
        });
        inChild('copy'); // warms the server's cache; not counted
        // Interleaved: each round runs COPY and our three cases, in turn forwards and backwards, so a swing of the
        // machine's load falls on the reference and ours alike; each figure is the median of its rounds.
        const order = ['copy', 'wire-pg', 'read-pg', 'load-pg'] as const;
        for (let round = 0; round < TRIALS; round++)
            for (const name of round % 2 ? [...order].reverse() : order) {
                const r = inChild(name);
                trials.set(name, [...(trials.get(name) ?? []), r]);
            }
        for (const [name, runs] of trials) {
            const ms = median(runs.map(r => r.ms));
            const cpu = runs.every(r => r.cpuMs !== undefined) ? median(runs.map(r => r.cpuMs!)) : undefined;
            const decode = runs.every(r => r.decodeMs !== undefined) ? median(runs.map(r => r.decodeMs!)) : undefined;
            results.set(name, {
                ...runs[0]!,
                ms,
                cpuMs: cpu,
                decodeMs: decode,
                peakMB: Math.max(...runs.map(r => r.peakMB)),
            });
        }
        results.set('load-csv', inChild('load-csv'));
    } finally {
        server.stop();
    }
    const r = (n: CaseName) => results.get(n)!;
    const copy = r('copy').ms,
        pgRatio = r('load-pg').ms / copy;
    // The ratio of each round's load to the same round's COPY (neighbours in time), as a check on the medians.
    const paired = median(trials.get('load-pg')!.map((l, i) => l.ms / trials.get('copy')![i]!.ms));
    const seconds = (ms: number[]) => ms.map(m => (m / 1000).toFixed(2)).join(', ');
    const part = (name: string, ms: number, cpuMs?: number): BenchRow => ({
        bench: 'import',
        case: `${name}${cpuMs === undefined ? '' : ` (our process's CPU ${(cpuMs / 1000).toFixed(2)} s)`}`,
        value: ms / 1000,
        unit: 's',
        reference: copy / 1000,
        referenceName: 'COPY TO STDOUT',
        ratio: ms / copy,
    });
    const rows: BenchRow[] = [];
    if (!loadOnly)
        rows.push(
            {
                bench: 'import',
                case: `FD discovery, 1M rows × 15 columns, cap 3 (${r('fds-1m').fds} FDs, planted ${r('fds-1m').planted!.length}/${PLANTED.length}, complete ${r('fds-1m').complete})`,
                value: r('fds-1m').ms / 1000,
                unit: 's',
                peakMB: r('fds-1m').peakMB,
            },
            {
                bench: 'import',
                case: `FD discovery, ERBench CSV files (${r('fds-erbench').rows} rows, ${r('fds-erbench').fds} FDs, cap 3)`,
                value: r('fds-erbench').ms / 1000,
                unit: 's',
                peakMB: r('fds-erbench').peakMB,
            },
        );
    rows.push(
        {
            bench: 'import',
            case: `load 1M rows × 6 columns from PostgreSQL (binary COPY, typed, checked; median of ${TRIALS} interleaved with COPY's: ${seconds(trials.get('load-pg')!.map(t => t.ms))} s against ${seconds(trials.get('copy')!.map(t => t.ms))} s; paired ratio median ${paired.toFixed(2)})`,
            value: r('load-pg').ms / 1000,
            unit: 's',
            reference: copy / 1000,
            referenceName: 'COPY TO STDOUT',
            ratio: pgRatio,
            goal: '≤ 2× COPY',
            met: pgRatio <= 2,
            peakMB: r('load-pg').peakMB,
        },
        {
            bench: 'import',
            case: 'then the first read of every value of that table (texts decoded from bytes)',
            value: r('load-pg').decodeMs! / 1000,
            unit: 's',
        },
        part(
            `  its part 1, the stream read: the binary COPY off the socket, not decoded (wire-pg)`,
            r('wire-pg').ms,
            r('wire-pg').cpuMs,
        ),
        part(
            '  its part 2, decoding the binary rows into typed batches (read-pg − wire-pg)',
            r('read-pg').ms - r('wire-pg').ms,
            r('read-pg').cpuMs! - r('wire-pg').cpuMs!,
        ),
        part(
            '  its part 3, building the columns and table and checking it (load-pg − read-pg)',
            r('load-pg').ms - r('read-pg').ms,
            r('load-pg').cpuMs! - r('read-pg').cpuMs!,
        ),
        {
            ...part(
                'read the same 1M rows through the PostgreSQL reader only (decoded, no table, no checks)',
                r('read-pg').ms,
                r('read-pg').cpuMs,
            ),
            peakMB: r('read-pg').peakMB,
        },
        {
            bench: 'import',
            case: 'load the same 1M rows from a CSV file',
            value: r('load-csv').ms / 1000,
            unit: 's',
            reference: copy / 1000,
            referenceName: 'COPY TO STDOUT',
            ratio: r('load-csv').ms / copy,
            peakMB: r('load-csv').peakMB,
        },
    );
    report(rows);
}
