/**
 * Issue 39 item 4, a window reload as the language server sees it: the bundled server (dist/server.cjs, built from
 * the sources first) started in a new process over a real LSP connection on stdio, `initialize`, then the spec the
 * editor had open is opened, and the wall time runs from the spawn to the first diagnostics published for it
 * (language and data checks: the large spec of the lsp bench over its 20,000-row CSV). A reload starts a new
 * server process, so every trial starts a new one; the figure is the median of the trials. As the extension does,
 * the server is given a `dataCacheDir` (the column store, src/core/data/column-store.ts): the first trial finds it
 * empty (the spec's first opening, `stored: false`), the later ones find what the previous process wrote (a reload).
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startLanguageServer, within } from '../test/support/lsp-process.js';
import { largeSpec, writeLargeCsv } from '../test/support/large-spec.js';

const ROOT = path.resolve(import.meta.dirname, '..');

export interface ReloadTrial {
    readyMs: number;
    firstMs: number;
    diagnostics: number;
    cpuMs?: number;
    /** Whether the column store held the CSV's columns when the server started (false: the first opening). */
    stored: boolean;
}

export async function reloadTrials(
    trials: number,
    rows = 20_000,
    lines = 2_000,
    node: string[] = [],
    store = true,
): Promise<ReloadTrial[]> {
    const built = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, encoding: 'utf8' });
    if (built.status !== 0) throw new Error(`build failed: ${built.stderr}`);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'halluprobe-reload-bench-'));
    try {
        writeLargeCsv(path.join(dir, 'movies.csv'), rows);
        const text = largeSpec(lines, '\nmodel sim offline {\n    knowledge 0.8\n}\n');
        fs.writeFileSync(path.join(dir, 'spec.probe'), text);
        const out: ReloadTrial[] = [];
        const cacheDir = path.join(dir, 'storage', 'data-cache');
        for (let t = 0; t < trials; t++) {
            const stored = store && fs.existsSync(cacheDir) && fs.readdirSync(cacheDir).length > 0;
            const start = performance.now();
            const server = await startLanguageServer(dir, node, store ? { dataCacheDir: cacheDir } : undefined);
            try {
                const readyMs = performance.now() - start;
                server.open('spec.probe', text);
                const ds = await within(
                    server.diagnosticsFor(server.uri('spec.probe')),
                    600_000,
                    'first diagnostics after a reload',
                );
                const firstMs = performance.now() - start;
                out.push({ readyMs, firstMs, diagnostics: ds.length, stored, ...cpuOf(server.child.pid) });
            } finally {
                await server.close();
            }
        }
        return out;
    } finally {
        fs.rmSync(dir, { recursive: true, force: true });
    }
}

/** The server process's CPU time so far (user + system), on Linux; what the machine's load changes least. */
function cpuOf(pid: number | undefined): { cpuMs?: number } {
    try {
        const fields = fs
            .readFileSync(`/proc/${pid}/stat`, 'utf8')
            .replace(/^.*\) /, '')
            .split(' ');
        return { cpuMs: ((Number(fields[11]) + Number(fields[12])) / 100) * 1000 };
    } catch {
        return {};
    }
}

// `node --import tsx bench/reload.ts N [--no-store] [node options…]`: N trials, printed as JSON.
if (process.argv[1] === import.meta.filename) {
    const args = process.argv.slice(3);
    const store = !args.includes('--no-store');
    const trials = await reloadTrials(
        Number(process.argv[2] ?? 1),
        20_000,
        2_000,
        args.filter(a => a !== '--no-store'),
        store,
    );
    console.log(JSON.stringify(trials));
}
