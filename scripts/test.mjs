// The one test command (`npm test`, run by .ci/run): lint, type check, build, then every test tier with
// Node's test runner. The end-to-end tier runs when code-server is installed (HALLUPROBE_E2E=1 forces it,
// HALLUPROBE_E2E=0 skips it and says so). Exits non-zero when any step or test fails.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { countsLine, tapCounts } from './test-counts.mjs';
import * as path from 'node:path';

const args = process.argv.slice(2);
const only = args.find(a => !a.startsWith('-'));
const quick = args.includes('--quick');

function run(cmd, cmdArgs, label, after = () => undefined) {
    console.log(`\n▶ ${label}`);
    const r = spawnSync(cmd, cmdArgs, { stdio: 'inherit', env: process.env });
    after();
    if (r.status !== 0) {
        console.error(`✖ ${label} failed (exit ${r.status ?? r.signal})`);
        process.exit(r.status || 1);
    }
}

function files(dir, suffix) {
    if (!existsSync(dir)) return [];
    const out = [];
    for (const name of readdirSync(dir)) {
        const p = path.join(dir, name);
        if (statSync(p).isDirectory()) out.push(...files(p, suffix));
        else if (p.endsWith(suffix)) out.push(p);
    }
    return out.sort();
}

const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
if (!quick) {
    run(npx, ['eslint', '--no-error-on-unmatched-pattern', 'src', 'webview', 'test', 'bench', 'scripts'], 'lint (includes the purity rule: no vscode in core, protocol, webview)');
    run(npx, ['tsc', '--noEmit', '-p', '.'], 'type check');
    run(npx, ['depcruise', 'src', '--config', '.dependency-cruiser.cjs'], 'layering (dependency-cruiser: no cycles, a family imports no other family, only the registry imports families, core imports no face)');
    run(process.execPath, ['scripts/build.mjs'], 'build bundles');
    // Just built: tests start the CLI from its bundle (what the package ships) instead of compiling the sources in
    // every process (test/support/cli-path.ts).
    process.env.HALLUPROBE_CLI_BUNDLE = '1';
}

const tiers = ['unit', 'server', 'security', 'reliability', 'integration', 'acceptance', 'e2e'];
const e2eWanted = process.env.HALLUPROBE_E2E !== '0';
let testFiles = [];
for (const tier of tiers) {
    if (only && tier !== only) continue;
    if (tier === 'e2e' && !e2eWanted) { console.log('\n(e2e tier skipped: HALLUPROBE_E2E=0)'); continue; }
    testFiles.push(...files(path.join('test', tier), '.test.ts'));
}
if (testFiles.length === 0) {
    console.error('no test files found');
    process.exit(1);
}
const tapFile = path.join(mkdtempSync(path.join(tmpdir(), 'halluprobe-test-')), 'report.tap');
run(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=2', '--test-reporter=spec', '--test-reporter-destination=stdout',
    '--test-reporter=tap', `--test-reporter-destination=${tapFile}`, ...testFiles], `tests (${testFiles.length} files)`,
    () => { if (existsSync(tapFile)) console.log(`\n${countsLine(tapCounts(readFileSync(tapFile, 'utf8')))}`); });
