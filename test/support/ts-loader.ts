/**
 * Node's arguments that load TypeScript in a process a test starts: under `npm test`, the run's loader
 * (scripts/test-loader.mjs: the sources transformed once per run, HALLUPROBE_TEST_JS names them); else tsx.
 */
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';

const repo = path.resolve(import.meta.dirname, '..', '..');

export function tsImport(): string[] {
    return [
        '--import',
        process.env.HALLUPROBE_TEST_JS ? pathToFileURL(path.join(repo, 'scripts', 'test-loader.mjs')).href : 'tsx',
    ];
}
