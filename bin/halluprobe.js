#!/usr/bin/env node
// The CLI entry: runs the bundle when built, else the TypeScript sources through tsx (a fresh clone).
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as path from 'node:path';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const bundle = path.join(root, 'dist', 'cli.mjs');
if (existsSync(bundle)) {
    await import(pathToFileURL(bundle).href);
} else {
    const { register } = await import('tsx/esm/api');
    register();
    await import(pathToFileURL(path.join(root, 'src', 'cli', 'main.ts')).href);
}
