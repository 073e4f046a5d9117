/**
 * The extension bundle, as esbuild builds it, loads no better-sqlite3 (native) until a store is used: loading the
 * bundle — what VS Code does before `activate` — evaluates only the eagerly imported modules, which reach the engine
 * rooms through their light front doors (`light.ts`); the rest is initialised on the lazy `import('./engine.js')`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import Module from 'node:module';
import * as path from 'node:path';
import * as esbuild from 'esbuild';
import { repoRoot } from '../../support/runner-fixtures.js';

interface Loader {
    _load(request: string, parent: unknown, isMain: boolean): unknown;
}
interface Compilable {
    filename: string;
    paths: string[];
    _compile(code: string, file: string): void;
}

test('loading the extension bundle loads no better-sqlite3', { timeout: 120_000 }, async () => {
    // @ts-expect-error — a plain .mjs script without types
    const { targets } = (await import('../../../scripts/build.mjs')) as { targets: esbuild.BuildOptions[] };
    const extension = targets.find(t => t.outfile === 'dist/extension.cjs')!;
    const r = await esbuild.build({ ...extension, sourcemap: false, write: false, logLevel: 'silent' });
    const code = r.outputFiles[0]!.text;
    const file = path.join(repoRoot, 'dist', 'extension-eager-test.cjs');
    const loader = Module as unknown as Loader;
    const original = loader._load;
    const requested: string[] = [];
    // VS Code's API is not here: any property of the stub is a callable stub.
    const stub: object = new Proxy(
        function stubbed() {
            return stub;
        },
        { get: () => stub },
    );
    loader._load = function (request, parent, isMain) {
        requested.push(request);
        return request === 'vscode' ? stub : original.call(this, request, parent, isMain);
    };
    try {
        const m = new Module(file) as unknown as Compilable;
        m.filename = file;
        m.paths = (Module as unknown as { _nodeModulePaths(dir: string): string[] })._nodeModulePaths(path.dirname(file));
        m._compile(code, file);
    } finally {
        loader._load = original;
    }
    assert.ok(requested.includes('vscode'), 'the bundle was evaluated');
    assert.deepEqual(
        requested.filter(r => r === 'better-sqlite3'),
        [],
    );
});
