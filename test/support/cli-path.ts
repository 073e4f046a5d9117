/**
 * How tests start the real CLI in its own process. `npm test` builds the bundles first and sets
 * HALLUPROBE_CLI_BUNDLE, so the CLI starts from `dist/cli.mjs` — what the package ships — without compiling the
 * sources again in every process (about a second each on a 2-core machine); `npm test -- TIER --quick` does not
 * build, so there the sources run through tsx.
 */
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { tsImport } from './ts-loader.js';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Node's arguments that run `halluprobe ARGS`. */
export function cliArgs(...args: string[]): string[] {
    return process.env.HALLUPROBE_CLI_BUNDLE
        ? [path.join(repo, 'dist', 'cli.mjs'), ...args]
        : [...tsImport(), path.join(repo, 'src', 'cli', 'main.ts'), ...args];
}
