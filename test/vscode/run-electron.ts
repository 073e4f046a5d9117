/**
 * `npm run test:vscode`: the same extension-host suite through @vscode/test-electron, for machines that can
 * download VS Code (these cannot; the e2e tier runs the suite inside code-server instead).
 */
import * as path from 'node:path';
import * as fs from 'node:fs';
import * as os from 'node:os';
import { runTests } from '@vscode/test-electron';
import { bundleSuite, prepareWorkspace, startSuitePostgres } from '../e2e/support/workspace.js';

const repo = path.resolve(import.meta.dirname, '../..');
const workspace = prepareWorkspace(fs.mkdtempSync(path.join(os.tmpdir(), 'halluprobe-vscode-')));
const suite = await bundleSuite();
// test-electron calls run() of the module at extensionTestsPath.
const entry = path.join(path.dirname(suite), 'electron-entry.cjs');
fs.writeFileSync(
    entry,
    `module.exports.run = () => require(${JSON.stringify(suite)}).run().then(r => { if (r.failures) throw new Error(r.failures + ' extension-host tests failed'); });\n`,
);
const pg = await startSuitePostgres();
try {
    await runTests({
        extensionDevelopmentPath: repo,
        extensionTestsPath: entry,
        launchArgs: [workspace, '--disable-extensions'],
        extensionTestsEnv: pg.env,
    });
} finally {
    pg.stop();
}
