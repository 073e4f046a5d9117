/**
 * `npm run bench`: runs every bench/*.bench.ts in its own process (so peak memory is its own), prints one
 * table and writes bench/results/<timestamp>.json and bench/results/latest.json.
 * Each bench file prints, as its last stdout line, `BENCH_RESULT <json array of BenchRow>`.
 * Pass names to run a subset: `npm run bench -- data probes`.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { BenchRow } from './support.js';

const only = process.argv.slice(2);
const dir = path.dirname(new URL(import.meta.url).pathname);
const files = readdirSync(dir)
    .filter(f => f.endsWith('.bench.ts'))
    .filter(f => only.length === 0 || only.some(o => f.startsWith(o)))
    .sort();
const rows: BenchRow[] = [];
let failed = 0;
// The machine is often shared: each bench file's rows come with the load average while it ran (ratios to a
// reference measured in the same run are what to compare across runs).
const load = () => os.loadavg()[0]!;
for (const f of files) {
    const before = load();
    console.error(`▶ ${f} (load ${before.toFixed(2)} on ${os.cpus().length} cores)`);
    const r = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', path.join(dir, f)], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'inherit'],
        maxBuffer: 64 << 20,
    });
    const line = r.stdout
        .split('\n')
        .reverse()
        .find(l => l.startsWith('BENCH_RESULT '));
    if (r.status !== 0 || !line) {
        console.error(`✖ ${f} failed (exit ${r.status})`);
        failed++;
        continue;
    }
    rows.push(...(JSON.parse(line.slice('BENCH_RESULT '.length)) as BenchRow[]));
    const after = load();
    rows.push({
        bench: f.replace(/\.bench\.ts$/, ''),
        case: `machine load (1-min average) when it ended, ${os.cpus().length} cores`,
        value: after,
        unit: 'load',
        reference: before,
        referenceName: 'when it started',
    });
}

const header = ['bench', 'case', 'value', 'unit', 'reference', 'ratio', 'goal', 'met', 'peak MB'];
const table = rows.map(r => [
    r.bench,
    r.case,
    fmt(r.value),
    r.unit,
    r.reference === undefined ? '' : `${fmt(r.reference)} (${r.referenceName ?? ''})`,
    r.ratio === undefined ? '' : fmt(r.ratio),
    r.goal ?? '',
    r.met === undefined ? '' : r.met ? 'yes' : 'NO',
    r.peakMB === undefined ? '' : fmt(r.peakMB),
]);
const widths = header.map((h, i) => Math.max(h.length, ...table.map(t => String(t[i]).length)));
const line = (cells: string[]) => cells.map((c, i) => String(c).padEnd(widths[i]!)).join('  ');
console.log(line(header));
console.log(widths.map(w => '-'.repeat(w)).join('  '));
for (const t of table) console.log(line(t as string[]));

const out = path.join(dir, 'results');
mkdirSync(out, { recursive: true });
const payload = JSON.stringify({ date: new Date().toISOString(), node: process.version, rows }, null, 2);
writeFileSync(path.join(out, 'latest.json'), payload);
writeFileSync(path.join(out, `${new Date().toISOString().replace(/[:.]/g, '-')}.json`), payload);
console.log(`\nwrote ${path.join('bench', 'results', 'latest.json')}`);
process.exit(failed ? 1 : 0);

function fmt(n: number): string {
    return Math.abs(n) >= 100 ? n.toFixed(0) : Math.abs(n) >= 1 ? n.toFixed(2) : n.toFixed(3);
}
