/**
 * Where the engine keeps things by default, decided once for every face (the CLI's commands, the editor's
 * settings): the results store, a file or a PostgreSQL server. Native-free, so a face can ask before it loads the store.
 */
import * as path from 'node:path';
import { isPostgresUrl } from './data/postgres-url.js';

/** The results store: `.halluprobe/results.db` beside the spec, or in `cwd` when no spec is named (report, compare, runs). */
export function defaultStorePath(specFile?: string, cwd = process.cwd()): string {
    return path.join(
        specFile === undefined ? path.resolve(cwd) : path.dirname(path.resolve(specFile)),
        '.halluprobe',
        'results.db',
    );
}

/** The store a step uses: the one named (a file relative to `cwd`, or a postgres:// URL as it is), else the default. */
export function storePath(named: string | undefined, specFile?: string, cwd = process.cwd()): string {
    if (named !== undefined && isPostgresUrl(named)) return named.trim();
    return named !== undefined ? path.resolve(cwd, named) : defaultStorePath(specFile, cwd);
}
