// The one test command (`npm test`, run by .ci/run): lint, type check, build, then every test tier with
// Node's test runner. The end-to-end tier runs when code-server is installed (HALLUPROBE_E2E=1 forces it,
// HALLUPROBE_E2E=0 skips it and says so). Exits non-zero when any step or test fails.
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { countsLine, sumCounts, tapCounts } from './test-counts.mjs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';
import * as nodeModule from 'node:module';

const args = process.argv.slice(2);
const only = args.find(a => !a.startsWith('-'));
const quick = args.includes('--quick');

function files(dir, suffix) {
    if (!existsSync(dir)) return [];
    const out = [];
    for (const name of readdirSync(dir)) {
        // installed packages and tool folders (bench/.tools/node_modules after `npm run bench`) are no sources
        if (name === 'node_modules' || name.startsWith('.')) continue;
        const p = path.join(dir, name);
        if (statSync(p).isDirectory()) out.push(...files(p, suffix));
        else if (p.endsWith(suffix)) out.push(p);
    }
    return out.sort();
}

const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
/**
 * Runs the steps side by side (all at once: the checks and the build, five short processes), their output kept and
 * printed whole in order; exits when any fails.
 */
async function runSideBySide(steps) {
    const results = await Promise.all(
        steps.map(
            ([cmd, cmdArgs, label]) =>
                new Promise(resolve => {
                    const child = spawn(cmd, cmdArgs, { env: process.env });
                    let out = '';
                    child.stdout.on('data', d => {
                        out += d;
                    });
                    child.stderr.on('data', d => {
                        out += d;
                    });
                    child.on('close', (code, signal) => resolve({ label, out, code: code ?? signal }));
                }),
        ),
    );
    for (const r of results) {
        console.log(`\n▶ ${r.label}`);
        process.stdout.write(r.out);
    }
    const failed = results.filter(r => r.code !== 0);
    for (const r of failed) console.error(`✖ ${r.label} failed (exit ${r.code})`);
    if (failed.length > 0) process.exit(1);
}

const tapDir = mkdtempSync(path.join(tmpdir(), 'halluprobe-test-'));
// Every .ts file of the repository transformed once (esbuild, no bundling), side by side with the checks: the test
// processes load these through scripts/test-loader.mjs instead of transforming them again in each process.
const transformed = path.join(tapDir, 'js');
const transforming = esbuild.build({
    entryPoints: ['src', 'webview', 'test', 'bench', 'scripts']
        .flatMap(dir => files(dir, '.ts'))
        .filter(f => !f.endsWith('.d.ts')),
    outdir: transformed,
    outbase: '.',
    format: 'esm',
    platform: 'node',
    target: 'node22',
    sourcemap: 'inline',
    logLevel: 'error',
});

if (!quick) {
    // One batch: the build does not wait for the checks, so that no core idles while the last check finishes.
    // dependency-cruiser runs here only when the unit tier does not: that tier's test/unit/repo/layering.test.ts runs
    // it over the same config and fails on any violation, warnings included.
    const unitRuns = !only || only === 'unit';
    await runSideBySide([
        [
            npx,
            ['eslint', '--no-error-on-unmatched-pattern', 'src', 'webview', 'test', 'bench', 'scripts'],
            'lint (includes the purity rule: no vscode in core, protocol, webview)',
        ],
        [npx, ['tsc', '--noEmit', '-p', '.'], 'type check'],
        [npx, ['prettier', '--check', '.'], 'format (Prettier: `npm run format` writes it)'],
        [
            npx,
            ['knip', '--no-progress'],
            'unused files, exports and dependencies (knip: knip.jsonc names the entry points and the allow-list)',
        ],
        ...(unitRuns
            ? []
            : [
                  [
                      npx,
                      ['depcruise', 'src', '--config', '.dependency-cruiser.cjs'],
                      'layering (dependency-cruiser: no cycles, a family imports no other family, only the registry imports families, core imports no face)',
                  ],
              ]),
        [process.execPath, ['scripts/build.mjs'], 'build bundles'],
    ]);
    // Just built: tests start the CLI from its bundle (what the package ships) instead of compiling the sources in
    // every process (test/support/cli-path.ts).
    process.env.HALLUPROBE_CLI_BUNDLE = '1';
}

const tiers = ['unit', 'server', 'security', 'reliability', 'integration', 'acceptance', 'e2e'];
/**
 * The unit tier runs in-process (Node's `--experimental-test-isolation=none`), in two halves side by side: its
 * files start nothing of their own, and a process per file spent most of the tier's time compiling and loading the
 * same modules again (the kg files: 80 s in eight processes, 12 s in one). The other tiers start servers, CLIs
 * and editors: a process per file.
 */
const IN_PROCESS = new Set(['unit']);
const e2eWanted = process.env.HALLUPROBE_E2E !== '0';
const groups = { inProcess: [], perFile: [] };
for (const tier of tiers) {
    if (only && tier !== only) continue;
    if (tier === 'e2e' && !e2eWanted) {
        console.log('\n(e2e tier skipped: HALLUPROBE_E2E=0)');
        continue;
    }
    groups[IN_PROCESS.has(tier) ? 'inProcess' : 'perFile'].push(...files(path.join('test', tier), '.test.ts'));
}
// Node's runner sorts the files it is given by path, so they start in that order whatever order they are passed in:
// test/acceptance and test/e2e (the longest files: a code-server and a browser each) first, test/server's short
// ones last, so that the run does not end with one long file on one core while the other idles.
const total = groups.inProcess.length + groups.perFile.length;
if (total === 0) {
    console.error('no test files found');
    process.exit(1);
}
// Every Node process the tests start (CLIs, servers, test files) keeps its compiled code in one cache: the bundles
// are compiled once per run instead of once per process.
process.env.NODE_COMPILE_CACHE ??= path.join(tmpdir(), 'halluprobe-test-compile-cache');
await transforming;
// Processes the tests start load TypeScript the same way (test/support/ts-loader.ts).
if (nodeModule.registerHooks) process.env.HALLUPROBE_TEST_JS = transformed;
const runnerArgs = tap => [
    '--import',
    // The Node of `npm test` is the devDependency's (22); a Node without synchronous module hooks (20) keeps tsx.
    nodeModule.registerHooks ? pathToFileURL(path.resolve('scripts', 'test-loader.mjs')).href : 'tsx',
    '--test',
    '--test-reporter=spec',
    '--test-reporter-destination=stdout',
    '--test-reporter=tap',
    `--test-reporter-destination=${tap}`,
];
/** Runs of the runner: [label, node arguments, TAP file]. */
const runs = [];
if (groups.inProcess.length > 0) {
    const halves = [groups.inProcess.filter((_, i) => i % 2 === 0), groups.inProcess.filter((_, i) => i % 2 === 1)].filter(
        h => h.length > 0,
    );
    halves.forEach((half, i) => {
        const tap = path.join(tapDir, `in-process-${i}.tap`);
        runs.push([
            `in one process, half ${i + 1} of ${halves.length} (${half.length} files)`,
            [...runnerArgs(tap), '--experimental-test-isolation=none', ...half],
            tap,
        ]);
    });
}
if (groups.perFile.length > 0) {
    const tap = path.join(tapDir, 'per-file.tap');
    runs.push([
        `a process per file (${groups.perFile.length} files)`,
        [...runnerArgs(tap), '--test-concurrency=2', ...groups.perFile],
        tap,
    ]);
}

/**
 * Runs `args`, resolving to its exit code. Alone, its report streams to this terminal; side by side with another
 * run, it is kept in a file and printed whole when the run ends (so that the two do not interleave).
 */
function start(label, args, alone) {
    const log = alone ? undefined : path.join(tapDir, `${runs.findIndex(r => r[0] === label)}.log`);
    const out = log ? openSync(log, 'w') : 'inherit';
    const child = spawn(process.execPath, args, { stdio: ['ignore', out, out], env: process.env });
    return new Promise(resolve =>
        child.on('close', (code, signal) => {
            if (log) {
                closeSync(out);
                process.stdout.write(readFileSync(log, 'utf8'));
            }
            resolve({ label, code: code ?? signal });
        }),
    );
}

console.log(`\n▶ tests (${total} files)`);
// The in-process halves run side by side; then the per-file run, which spreads its own files over both cores.
const results = [];
const inProcessRuns = runs.filter(r => r[1].includes('--experimental-test-isolation=none'));
for (const batch of [inProcessRuns, runs.filter(r => !inProcessRuns.includes(r))]) {
    if (batch.length === 0) continue;
    for (const r of batch) console.log(`  ${r[0]}`);
    results.push(...(await Promise.all(batch.map(r => start(r[0], r[1], batch.length === 1)))));
}
const counts = sumCounts(
    runs.map(r =>
        existsSync(r[2])
            ? tapCounts(readFileSync(r[2], 'utf8'))
            : { tests: 0, pass: 0, fail: 1, cancelled: 0, skipped: 0, todo: 0 },
    ),
);
const failed = results.filter(r => r.code !== 0);
for (const r of failed) console.error(`✖ tests ${r.label} failed (exit ${r.code})`);
console.log(`\n${countsLine(counts)}`);
if (failed.length > 0 || counts.fail + counts.cancelled > 0) process.exit(1);
