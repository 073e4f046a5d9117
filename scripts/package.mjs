// `npm run package [-- --target linux-x64 ...] [--universal] [--cli-only]`: builds the production bundles, then the
// CLI as an npm tarball (out/halluprobe-<version>.tgz: `npm install -g <it>` gives `halluprobe` anywhere), then one
// platform-specific .vsix per VS Code target, each carrying only the better-sqlite3 prebuild that platform
// loads (N-API, so it runs in VS Code's Electron without a rebuild). Files enter a package only through
// the whitelist in .vscodeignore, applied to a staging folder. `--universal` adds a package without any
// native binary (the store then reports a clear message) — its size is the "< 5 MB" figure.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createRequire } from 'node:module';
import { SERVER_VENDOR, vendorFile } from './build.mjs';

const require = createRequire(import.meta.url);
const root = path.resolve(import.meta.dirname, '..');
const out = path.join(root, 'out', 'vsix');

/** VS Code target → better-sqlite3 prebuild name. */
export const TARGETS = {
    'linux-x64': 'linux-x64',
    'linux-arm64': 'linux-arm64',
    'alpine-x64': 'linuxmusl-x64',
    'alpine-arm64': 'linuxmusl-arm64',
    'darwin-x64': 'darwin-x64',
    'darwin-arm64': 'darwin-arm64',
    'win32-x64': 'win32-x64',
    'win32-arm64': 'win32-arm64',
};

const args = process.argv.slice(2);
const wanted = args.flatMap((a, i) => (a === '--target' ? [args[i + 1]] : []));
const targets = wanted.length ? wanted : Object.keys(TARGETS);
for (const t of targets)
    if (!TARGETS[t]) {
        console.error(`unknown target ${t}; use one of ${Object.keys(TARGETS).join(', ')}`);
        process.exit(2);
    }
const universal = args.includes('--universal') || wanted.length === 0;
const cliOnly = args.includes('--cli-only');

/** The whitelist: lines of .vscodeignore that start with `!` (everything else is ignored by `**`). */
function whitelist() {
    return fs
        .readFileSync(path.join(root, '.vscodeignore'), 'utf8')
        .split('\n')
        .map(l => l.trim())
        .filter(l => l.startsWith('!'))
        .map(l => l.slice(1));
}

function matches(rel, pattern) {
    const re = new RegExp(
        `^${pattern
            .split('**')
            .map(p =>
                p
                    .split('*')
                    .map(s => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
                    .join('[^/]*'),
            )
            .join('.*')}$`,
    );
    return re.test(rel);
}

function walk(dir, base = dir) {
    const outFiles = [];
    for (const name of fs.readdirSync(dir)) {
        const p = path.join(dir, name);
        const st = fs.statSync(p);
        if (st.isDirectory()) outFiles.push(...walk(p, base));
        else outFiles.push(path.relative(base, p).split(path.sep).join('/'));
    }
    return outFiles;
}

/** Copies the whitelisted files (and, for a platform, its one prebuild) into a fresh staging folder. */
function stage(prebuild) {
    const dir = path.join(root, 'out', 'stage', prebuild ?? 'universal');
    fs.rmSync(dir, { recursive: true, force: true });
    const patterns = whitelist();
    const roots = [
        'package.json',
        'README.md',
        'LICENSE',
        'CHANGELOG.md',
        'language-configuration.json',
        'dist',
        'media',
        'syntaxes',
        'node_modules/better-sqlite3',
    ];
    for (const r of roots) {
        const abs = path.join(root, r);
        if (!fs.existsSync(abs)) continue;
        const files = fs.statSync(abs).isDirectory() ? walk(abs, root) : [r];
        for (const rel of files) {
            if (!patterns.some(p => matches(rel, p))) continue;
            if (
                rel.startsWith('node_modules/better-sqlite3/prebuilds/') &&
                rel !== `node_modules/better-sqlite3/prebuilds/${prebuild}.node`
            )
                continue;
            fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
            fs.copyFileSync(path.join(root, rel), path.join(dir, rel));
        }
    }
    // The bundles need nothing from npm at run time except better-sqlite3, staged by hand; node-addon-api is
    // only for compiling it, so its manifest loses that dependency (vsce's `npm list` then sees a complete tree).
    const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
    const sqlite = path.join(dir, 'node_modules/better-sqlite3/package.json');
    const sqlitePkg = JSON.parse(fs.readFileSync(sqlite, 'utf8'));
    delete sqlitePkg.dependencies;
    delete sqlitePkg.scripts;
    fs.writeFileSync(sqlite, JSON.stringify(sqlitePkg, null, 2));
    delete pkg.scripts;
    delete pkg.devDependencies;
    delete pkg.bin;
    delete pkg.files;
    pkg.dependencies = { 'better-sqlite3': sqlitePkg.version };
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify(pkg, null, 2));
    fs.writeFileSync(path.join(dir, '.vscodeignore'), fs.readFileSync(path.join(root, '.vscodeignore')));
    return { dir, version: pkg.version, name: pkg.name };
}

/**
 * The staged bundles load on their own: every require resolves inside the package (vscode is stubbed), each
 * package the language server loads at first use (dist/vendor/, scripts/build.mjs) is there and loads, and on the
 * host's own target the shipped SQLite binary opens a database.
 */
function checkBundle(dir, prebuild) {
    const script = `
        const Module = require('node:module');
        function Stub() {}
        // Any member is a constructible class whose members are stubs again (vscode-languageclient extends some).
        const stub = new Proxy(Stub, { get: (t, p) => (p === 'prototype' ? t.prototype : stub), construct: () => stub, apply: () => stub });
        const load = Module._load;
        Module._load = function (request, ...rest) {
            if (request === 'vscode') return stub;
            return load.call(this, request, ...rest);
        };
        const ext = require(${JSON.stringify(path.join(dir, 'dist/extension.cjs'))});
        if (typeof ext.activate !== 'function') throw new Error('dist/extension.cjs exports no activate()');
        for (const file of ${JSON.stringify(SERVER_VENDOR.map(vendorFile))}) require(${JSON.stringify(path.join(dir, 'dist'))} + '/' + file);
        if (${JSON.stringify(prebuild ?? '')} === process.platform + '-' + process.arch) {
            const Database = require(${JSON.stringify(path.join(dir, 'node_modules/better-sqlite3'))});
            new Database(':memory:').close();
        }`;
    try {
        execFileSync(process.execPath, ['-e', script], { stdio: ['ignore', 'inherit', 'pipe'], cwd: dir });
    } catch (err) {
        const lines = String(err.stderr ?? '')
            .split('\n')
            .filter(l => l.length < 400);
        console.error(`the staged bundle does not load (${path.relative(root, dir)}):\n${lines.slice(-12).join('\n')}`);
        process.exit(1);
    }
}

/** The CLI's own files: its entry, the bundle and the example `halluprobe init` writes (the `files` list). */
const CLI_FILES = [
    'bin/halluprobe.js',
    'bin/node-version.js',
    'dist/cli.mjs',
    'examples/movie/movie.probe',
    'examples/movie/data/movies.csv',
    'README.md',
];

/**
 * The CLI as an installable npm package: a staging folder with only CLI_FILES and a manifest that is not
 * private, declares its bin and Node >= 22, and depends on nothing but better-sqlite3 (every other module is in
 * the bundle), packed with `npm pack`. Returns the tarball's path.
 */
function packCli() {
    const dir = path.join(root, 'out', 'cli');
    fs.rmSync(dir, { recursive: true, force: true });
    for (const rel of CLI_FILES) {
        fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
        fs.copyFileSync(path.join(root, rel), path.join(dir, rel));
    }
    const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
    const manifest = {
        name: pkg.name,
        version: pkg.version,
        description: pkg.description,
        license: pkg.license,
        type: 'module',
        bin: pkg.bin,
        engines: { node: '>=22' },
        files: CLI_FILES,
        dependencies: { 'better-sqlite3': pkg.dependencies['better-sqlite3'] },
    };
    fs.writeFileSync(path.join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const packed = JSON.parse(
        execFileSync(npm, ['pack', '--json', '--pack-destination', path.join(root, 'out')], { cwd: dir, encoding: 'utf8' }),
    );
    return path.join(root, 'out', packed[0].filename);
}

execFileSync(process.execPath, [path.join(root, 'scripts/build.mjs'), '--production'], { stdio: 'inherit', cwd: root });
const tarball = packCli();
console.log(
    `CLI package: ${path.relative(root, tarball)} (${(fs.statSync(tarball).size / 1e6).toFixed(2)} MB; install anywhere with: npm install -g ${path.relative(root, tarball)})`,
);
if (cliOnly) process.exit(0);
fs.mkdirSync(out, { recursive: true });
const { createVSIX } = require('@vscode/vsce');
const rows = [];
const jobs = [...(universal ? [[undefined, undefined]] : []), ...targets.map(t => [t, TARGETS[t]])];
for (const [target, prebuild] of jobs) {
    const { dir, version, name } = stage(prebuild);
    checkBundle(dir, prebuild);
    const file = path.join(out, `${name}-${version}${target ? `-${target}` : ''}.vsix`);
    await createVSIX({
        cwd: dir,
        packagePath: file,
        target,
        dependencies: true,
        useYarn: false,
        skipLicense: true,
        rewriteRelativeLinks: false,
        allowMissingRepository: true,
        allowStarActivation: false,
    });
    const native = prebuild ? fs.statSync(path.join(root, 'node_modules/better-sqlite3/prebuilds', `${prebuild}.node`)).size : 0;
    rows.push({
        target: target ?? 'universal (no native binary)',
        mb: fs.statSync(file).size / 1e6,
        nativeMb: native / 1e6,
        file: path.relative(root, file),
    });
}
for (const r of rows)
    console.log(
        `${r.target.padEnd(28)} ${r.mb.toFixed(2)} MB${r.nativeMb ? ` (native ${r.nativeMb.toFixed(2)} MB uncompressed)` : ''}  ${r.file}`,
    );
const base = rows.find(r => r.target.startsWith('universal'));
if (base) console.log(`size without native binaries: ${base.mb.toFixed(2)} MB (goal < 5 MB) ${base.mb < 5 ? 'met' : 'NOT met'}`);
