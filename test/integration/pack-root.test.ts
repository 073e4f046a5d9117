/**
 * `npm pack` of the repository root, as a user might try it (issue 36 item 13): the package builds first (its
 * `prepack` script) and carries the CLI's bundle, so the packed CLI starts — not a `bin` that reaches for sources
 * and a `tsx` the package does not have.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { repoRoot } from '../support/runner-fixtures.js';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

test('npm pack of the repository root builds first, and the packed CLI starts', { timeout: 300_000 }, () => {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'halluprobe-pack-'));
    try {
        // The test runner's Node first on the PATH, as npm puts the bundled Node 22 first for scripts.
        const env = { ...process.env, PATH: [path.dirname(process.execPath), process.env.PATH ?? ''].join(path.delimiter) };
        const stdout = execFileSync(npm, ['pack', '--json', '--pack-destination', out], {
            cwd: repoRoot,
            encoding: 'utf8',
            env,
            stdio: ['ignore', 'pipe', 'ignore'],
        });
        // The build's own output comes first; npm's JSON is the array after it.
        const packed = JSON.parse(stdout.slice(stdout.search(/^\[/m))) as { filename: string; files: { path: string }[] }[];
        const files = packed[0]!.files.map(f => f.path).sort();
        assert.ok(
            files.includes('dist/cli.mjs'),
            `the package has no CLI bundle (${files.length} files: ${files.slice(0, 8).join(', ')}, …)`,
        );
        assert.ok(files.includes('bin/halluprobe.js'));
        execFileSync('tar', ['xzf', path.join(out, packed[0]!.filename), '-C', out]);
        // Its dependencies as an install would give them (the repository's, linked).
        fs.symlinkSync(path.join(repoRoot, 'node_modules'), path.join(out, 'package', 'node_modules'), 'dir');
        const run = spawnSync(
            process.execPath,
            [
                path.join(out, 'package', 'bin', 'halluprobe.js'),
                'check',
                path.join(out, 'package', 'examples', 'movie', 'movie.probe'),
            ],
            { encoding: 'utf8', cwd: out },
        );
        assert.equal(run.status, 0, `${run.stdout}${run.stderr}`);
    } finally {
        fs.rmSync(out, { recursive: true, force: true });
    }
});
