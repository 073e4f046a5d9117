#!/usr/bin/env node
// The CLI entry: runs the bundle when it is built and newer than every source file, else the TypeScript
// sources through tsx (a fresh clone, or sources edited since the last build).
import { existsSync, readdirSync, statSync } from 'node:fs';
import module from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as path from 'node:path';

import { nodeVersionProblem } from './node-version.js';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

// better-sqlite3 13 crashes on older Node: say so instead of a segmentation fault. A checkout of the repository
// (not an installed package) with its own Node 22 gets advice that works there.
const checkout =
    !root.split(path.sep).includes('node_modules') && existsSync(path.join(root, 'node_modules', '.bin', 'node'))
        ? root
        : undefined;
const tooOld = nodeVersionProblem(process.versions.node, { checkout });
if (tooOld) {
    console.error(tooOld);
    process.exit(2);
}

const bundle = path.join(root, 'dist', 'cli.mjs');
const sources = path.join(root, 'src');

function newestUnder(dir) {
    let newest = 0;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, entry.name);
        newest = Math.max(newest, entry.isDirectory() ? newestUnder(p) : statSync(p).mtimeMs);
    }
    return newest;
}

// Node keeps the compiled bundle on disk (its temporary folder) so that later starts skip compiling it again.
module.enableCompileCache?.();

const bundleIsCurrent = existsSync(bundle) && (!existsSync(sources) || statSync(bundle).mtimeMs >= newestUnder(sources));
if (bundleIsCurrent) {
    await import(pathToFileURL(bundle).href);
} else {
    const { register } = await import('tsx/esm/api');
    register();
    await import(pathToFileURL(path.join(sources, 'cli', 'main.ts')).href);
}
