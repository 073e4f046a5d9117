/**
 * First use outside this repository, as a user does it: `npm run package` packs the CLI with `npm pack`; in an
 * empty folder outside the repository `npm install <tarball>` (offline: its one dependency is in the npm cache
 * from `npm ci`), then `npx halluprobe init` and every command it and the run suggest, run exactly as printed
 * in a shell whose PATH has no node_modules/.bin (the user's own shell).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { repoRoot } from '../support/runner-fixtures.js';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

test('the packed CLI installs in an empty folder and every printed suggestion works as printed', { timeout: 300_000 }, () => {
    const built = spawnSync(process.execPath, ['scripts/package.mjs', '--cli-only'], { cwd: repoRoot, encoding: 'utf8' });
    assert.equal(built.status, 0, built.stderr);
    const tarball = path.join(repoRoot, /CLI package: (\S+\.tgz)/.exec(built.stdout)?.[1] ?? 'missing');
    assert.ok(fs.existsSync(tarball), built.stdout);

    // The packed manifest: installable, a bin, Node >= 22, and only the CLI's own files.
    const listing = execFileSync('tar', ['tzf', tarball], { encoding: 'utf8' }).trim().split('\n').sort();
    assert.deepEqual(listing, [
        'package/README.md',
        'package/bin/halluprobe.js',
        'package/bin/node-version.js',
        'package/dist/cli.mjs',
        'package/examples/movie/data/movies.csv',
        'package/examples/movie/movie.probe',
        'package/package.json',
    ]);
    const manifest = JSON.parse(execFileSync('tar', ['xzOf', tarball, 'package/package.json'], { encoding: 'utf8' })) as Record<
        string,
        unknown
    >;
    assert.equal(manifest.private, undefined);
    assert.deepEqual(manifest.bin, { halluprobe: 'bin/halluprobe.js' });
    assert.deepEqual(manifest.engines, { node: '>=22' });
    assert.deepEqual(Object.keys(manifest.dependencies as object), ['better-sqlite3']);

    // The user's shell: this Node 22 first, no node_modules/.bin of any project.
    const PATH = [
        path.dirname(process.execPath),
        ...(process.env.PATH ?? '').split(path.delimiter).filter(d => !/node_modules[\\/]\.bin/.test(d)),
    ].join(path.delimiter);
    const env: NodeJS.ProcessEnv = { ...process.env, PATH, npm_config_yes: 'true' };
    for (const k of Object.keys(env))
        if (/^npm_(lifecycle|package|config_(prefix|local_prefix))/.test(k) || k === 'INIT_CWD' || k === 'HALLUPROBE_COMMAND')
            delete env[k];
    const project = fs.mkdtempSync(path.join(fs.realpathSync(os.tmpdir()), 'halluprobe-outside-'));
    assert.ok(path.relative(repoRoot, project).startsWith('..'), 'the folder is outside the repository');
    const shell = (line: string) => {
        const r = spawnSync('sh', ['-c', line], { cwd: project, env, encoding: 'utf8' });
        return { status: r.status, out: `${r.stdout}${r.stderr}` };
    };
    try {
        const install = shell(`${npm} install --prefer-offline --no-audit --no-fund ${tarball}`);
        assert.equal(install.status, 0, install.out);

        const init = shell('npx halluprobe init');
        assert.equal(init.status, 0, init.out);
        const next = init.out
            .split('\n')
            .filter(l => /^ {2}\S/.test(l))
            .map(l => l.trim());
        assert.deepEqual(
            next.map(l => l.split(' ').slice(0, 3).join(' ')),
            ['npx halluprobe check', 'npx halluprobe run', 'npx halluprobe report'],
            init.out,
        );
        const seen: string[] = [];
        for (const line of next) {
            const r = shell(line);
            assert.equal(r.status, 0, `${line}\n${r.out}`);
            seen.push(r.out);
            // What a command suggests is run as printed too (the run's "see them with: …").
            for (const m of r.out.matchAll(/see them with: (.+)$/gm)) {
                const again = shell(m[1]!);
                assert.equal(again.status, 0, `${m[1]}\n${again.out}`);
                assert.match(again.out, /360 verdicts/);
            }
        }
        assert.match(seen[0]!, /No problems found/);
        assert.match(seen[1]!, /Verified \d+ answers; see them with: npx halluprobe report --db /);
        assert.match(seen[2]!, /360 verdicts/);
        assert.doesNotMatch(seen.join('\n'), /E404|not found|npm error/i);
    } finally {
        fs.rmSync(project, { recursive: true, force: true });
    }
});
