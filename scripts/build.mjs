// Bundles the four faces with esbuild: extension (node, external vscode), language server (node),
// webviews (browser) and CLI (node). Type checking is its own step (`npm run typecheck`).
import * as esbuild from 'esbuild';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { syncGrammarKinds } from './grammar-kinds.mjs';

const production = process.argv.includes('--production');
// Paths are the repository's, whatever the working folder of the process that builds or imports the targets.
const root = path.resolve(import.meta.dirname, '..');
const common = {
    absWorkingDir: root,
    bundle: true,
    sourcemap: !production,
    minify: production,
    logLevel: 'warning',
    legalComments: 'none',
};
const node = { ...common, platform: 'node', target: 'node22', external: ['vscode', 'better-sqlite3', 'pg-native'] };
// A CommonJS bundle has no import.meta: code shared with the ES module faces gets the file URL from __filename.
const cjs = {
    format: 'cjs',
    define: { 'import.meta.url': '__hpImportMetaUrl' },
    banner: { js: "const __hpImportMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
};

/**
 * Packages the language server needs only for some features (models, PostgreSQL sources, open and evidence probes,
 * reading answers): src/core requires each where it is first used, never at the top of a module.
 * The server's bundle takes each from a file of its own, dist/vendor/<name>.cjs, loaded by that first `require`, so
 * that a start compiles and runs only what the first diagnostics need (issue 39: a window reload). The other bundles
 * keep them inside.
 */
export const SERVER_VENDOR = [
    'compromise',
    'graphology',
    'graphology-shortest-path/dijkstra.js',
    'html-to-text',
    'minisearch',
    'modern-ahocorasick',
    'openai',
    'pg',
];
/** A vendored package's file, relative to dist/. */
export const vendorFile = spec => `vendor/${spec.replace(/\.js$/, '').replaceAll('/', '+')}.cjs`;
const vendorChunks = {
    name: 'vendor-chunks',
    setup(build) {
        build.onResolve({ filter: /^[^./]/ }, a =>
            a.kind === 'require-call' && SERVER_VENDOR.includes(a.path)
                ? { path: `./${vendorFile(a.path)}`, external: true }
                : undefined,
        );
    },
};

export const targets = [
    { ...node, ...cjs, entryPoints: ['src/extension/main.ts'], outfile: 'dist/extension.cjs' },
    { ...node, ...cjs, entryPoints: ['src/server/main.ts'], outfile: 'dist/server.cjs', plugins: [vendorChunks] },
    ...SERVER_VENDOR.map(spec => ({
        ...node,
        ...cjs,
        stdin: { contents: `module.exports = require(${JSON.stringify(spec)});`, resolveDir: root, sourcefile: `vendor/${spec}` },
        outfile: `dist/${vendorFile(spec)}`,
    })),
    {
        ...node,
        entryPoints: ['src/cli/main.ts'],
        outfile: 'dist/cli.mjs',
        format: 'esm',
        banner: {
            js: "import { createRequire as __hpCreateRequire } from 'node:module'; const require = __hpCreateRequire(import.meta.url);",
        },
    },
];
for (const name of ['graph', 'preview', 'compare', 'review']) {
    const entry = `webview/${name}/main.ts`;
    if (existsSync(path.join(root, entry)))
        targets.push({
            ...common,
            platform: 'browser',
            target: 'es2022',
            format: 'iife',
            entryPoints: [entry],
            outfile: `dist/webview/${name}.js`,
        });
}

/** Where a build records its warnings (relative to the repository): [{ outfile, warnings: [line] }]. */
export const warningsRecord = 'dist/build-warnings.json';
/** One esbuild warning as a line: file:line text. */
export const warningLine = w => `${w.location?.file}:${w.location?.line} ${w.text}`;

// Imported (by a test, to build in memory): only the targets. Run: build them.
if (process.argv[1] && import.meta.filename === (await import('node:fs')).realpathSync(process.argv[1])) {
    // The TextMate grammar's probe kinds are the registry's (scripts/grammar-kinds.mjs).
    syncGrammarKinds();
    const built = targets.filter(t => !t.entryPoints || existsSync(path.join(root, t.entryPoints[0])));
    const results = await Promise.all(built.map(t => esbuild.build(t)));
    // The warnings of this build, per bundle, for test/unit/repo/build-warnings.test.ts (which reads them instead of
    // building every bundle again when `npm test` just built them).
    mkdirSync(path.join(root, 'dist'), { recursive: true });
    writeFileSync(
        path.join(root, warningsRecord),
        JSON.stringify(
            built.map((t, i) => ({ outfile: t.outfile, warnings: results[i].warnings.map(warningLine) })),
            null,
            1,
        ),
    );
    console.log(`built ${targets.length} bundles${production ? ' (production)' : ''}`);
}
