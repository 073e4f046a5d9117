// scripts/test-loader.mjs, the TypeScript loader of `npm test`'s test processes: a `.js` specifier resolves to the
// .ts file beside it, TypeScript is transformed (types, parameter properties), the module keeps its own .ts URL, the
// run's transformed copy is used when there is one, and a stack trace names the .ts line.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { transformSync } from 'esbuild';

const repo = path.resolve(import.meta.dirname, '..', '..', '..');
const fixture = path.join(repo, 'test', 'fixtures', 'test-loader');
const loader = pathToFileURL(path.join(repo, 'scripts', 'test-loader.mjs')).href;

function run(env: Record<string, string>, ...args: string[]) {
    const { HALLUPROBE_TEST_JS: _, ...rest } = process.env;
    return spawnSync(process.execPath, ['--import', loader, path.join(fixture, 'main.ts'), ...args], {
        encoding: 'utf8',
        env: { ...rest, ...env },
    });
}

it('loads TypeScript through .js specifiers, from the transformed tree when it has the file, mapping stack traces to .ts lines', () => {
    const direct = run({}, '--throw');
    assert.deepEqual(JSON.parse(direct.stdout), { said: 'from source', dir: fixture }, direct.stderr);
    assert.match(direct.stderr, new RegExp(`main\\.ts:7\\b`), direct.stderr);

    // The run's transformed copy (scripts/test.mjs writes one per run) is what a test process loads.
    const tree = mkdtempSync(path.join(tmpdir(), 'hp-test-loader-'));
    try {
        const copy = path.join(tree, 'test', 'fixtures', 'test-loader', 'main.js');
        mkdirSync(path.dirname(copy), { recursive: true });
        const source = readFileSync(path.join(fixture, 'main.ts'), 'utf8').replace(
            "'from source'",
            "'from the transformed tree'",
        );
        writeFileSync(copy, transformSync(source, { loader: 'ts', format: 'esm' }).code);
        const viaTree = run({ HALLUPROBE_TEST_JS: tree });
        assert.equal(viaTree.status, 0, viaTree.stderr);
        assert.deepEqual(JSON.parse(viaTree.stdout), { said: 'from the transformed tree', dir: fixture });
    } finally {
        rmSync(tree, { recursive: true, force: true });
    }
});
