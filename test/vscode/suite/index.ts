/**
 * The extension-host suite (mocha, real vscode API). `run()` is the entry both runners call: the test-only
 * companion inside code-server (the e2e tier), and @vscode/test-electron (`npm run test:vscode`).
 */
import type MochaType from 'mocha';
import { register } from './extension.vscode.js';
import { measured } from './measured.js';

export interface SuiteResult {
    passes: number;
    failures: number;
    tests: { title: string; state: string; error?: string; ms?: number }[];
    /** Figures the tests measured (activation time), for the runner to print. */
    measured: Record<string, number>;
}

export function run(): Promise<SuiteResult> {
    // mocha 12 is an ES module kept external to the bundle; require() of it gives its namespace.
    const ns = require('mocha') as { default?: typeof MochaType } & typeof MochaType;
    const Mocha = ns.default ?? ns;
    const mocha = new Mocha({ ui: 'bdd', timeout: 150_000, color: false, reporter: 'spec' });
    mocha.suite.emit('pre-require', globalThis, 'extension.vscode', mocha);
    register();
    return new Promise(resolve => {
        const tests: SuiteResult['tests'] = [];
        const runner = mocha.run(() =>
            resolve({
                passes: tests.filter(t => t.state === 'passed').length,
                failures: tests.filter(t => t.state !== 'passed').length,
                tests,
                measured,
            }),
        );
        runner.on('pass', t => tests.push({ title: t.fullTitle(), state: 'passed', ms: t.duration }));
        runner.on('fail', (t, err: Error) =>
            tests.push({ title: t.fullTitle(), state: 'failed', error: err.stack ?? err.message }),
        );
    });
}
