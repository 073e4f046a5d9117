/**
 * The language server's bundle, as esbuild builds it, leaves out the packages its first diagnostics never use
 * (issue 39: a window reload compiled and ran them before publishing): src/core requires each where it is first
 * used, and the server's bundle takes it from a file of its own under dist/vendor/, which gives what the package
 * gives.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import Module, { createRequire } from 'node:module';
import * as path from 'node:path';
import * as esbuild from 'esbuild';
import { repoRoot } from '../../support/runner-fixtures.js';

interface Build {
    targets: esbuild.BuildOptions[];
    SERVER_VENDOR?: string[];
    vendorFile?: (spec: string) => string;
}
// @ts-expect-error — a plain .mjs script without types
const load = async () => (await import('../../../scripts/build.mjs')) as Build;

/** Packages (and their own dependencies) that a start of the server before its first diagnostics does not need. */
const LATER = [
    'openai',
    'pg',
    'graphology',
    'html-to-text',
    'htmlparser2',
    'entities',
    'minisearch',
    'modern-ahocorasick',
    'compromise',
];

test(
    'the server bundle carries none of the packages its first diagnostics do not need; it requires each from dist/vendor',
    {
        timeout: 120_000,
    },
    async () => {
        const { targets, SERVER_VENDOR = [], vendorFile } = await load();
        const server = targets.find(t => t.outfile === 'dist/server.cjs')!;
        const r = await esbuild.build({ ...server, sourcemap: false, write: false, metafile: true, logLevel: 'silent' });
        const inputs = Object.keys(r.metafile.inputs);
        assert.deepEqual(
            LATER.filter(p => inputs.some(i => i.includes(`node_modules/${p}/`))),
            [],
            'packages bundled into dist/server.cjs',
        );
        const code = r.outputFiles[0]!.text;
        for (const spec of SERVER_VENDOR) {
            const file = vendorFile!(spec);
            assert.ok(
                code.includes(`require("./${file}")`),
                `dist/server.cjs never requires ${file}: drop it from SERVER_VENDOR`,
            );
            assert.ok(
                targets.some(t => t.outfile === `dist/${file}`),
                `no target builds dist/${file}`,
            );
        }
    },
);

test('each vendor file gives what its package gives', { timeout: 120_000 }, async () => {
    const { targets, SERVER_VENDOR = [], vendorFile } = await load();
    assert.ok(SERVER_VENDOR.length > 0);
    const requireHere = createRequire(import.meta.url);
    for (const spec of SERVER_VENDOR) {
        const target = targets.find(t => t.outfile === `dist/${vendorFile!(spec)}`)!;
        const r = await esbuild.build({ ...target, sourcemap: false, write: false, logLevel: 'silent' });
        const file = path.join(repoRoot, 'dist', `vendor-test-${path.basename(target.outfile!)}`);
        const m = new Module(file) as unknown as {
            filename: string;
            exports: unknown;
            _compile(code: string, file: string): void;
        };
        m.filename = file;
        m._compile(r.outputFiles[0]!.text, file);
        const own = requireHere(spec) as object;
        assert.equal(typeof m.exports, typeof own, spec);
        assert.deepEqual(Object.keys(m.exports as object).sort(), Object.keys(own).sort(), spec);
    }
});
