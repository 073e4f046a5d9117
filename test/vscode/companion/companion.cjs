// Test-only companion extension. code-server refuses --extensionTestsPath, so when the environment asks
// for it (HALLUPROBE_VSCODE_SUITE = a bundled mocha suite exporting run(), HALLUPROBE_VSCODE_RESULTS = a
// JSON file), this runs the suite inside the extension host with the real vscode API and writes the
// results for the test process to read. Without those variables it does nothing.
'use strict';
const fs = require('node:fs');

exports.activate = function activate() {
    const suite = process.env.HALLUPROBE_VSCODE_SUITE;
    const out = process.env.HALLUPROBE_VSCODE_RESULTS;
    if (!suite || !out) return;
    const write = result => fs.writeFileSync(out + '.tmp', JSON.stringify(result, null, 2)) || fs.renameSync(out + '.tmp', out);
    Promise.resolve()
        .then(() => require(suite).run())
        .then(
            result => write(result),
            err =>
                write({
                    passes: 0,
                    failures: 1,
                    tests: [{ title: 'suite', state: 'failed', error: String((err && err.stack) || err) }],
                }),
        );
};

exports.deactivate = function deactivate() {};
