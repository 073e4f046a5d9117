/**
 * The shared data beside the repository (`../shared`, or HALLUPROBE_SHARED). Acceptance tests read it; in CI
 * (env CI set) it must be there and a missing file fails the test; locally a missing file skips the test and
 * says so loudly on stderr (the runner's summary counts it as skipped, never as passed).
 */
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export const SHARED = path.resolve(process.env.HALLUPROBE_SHARED ?? path.join(repo, '..', 'shared'));

export const inCi = (): boolean => Boolean(process.env.CI) && process.env.CI !== '0' && process.env.CI !== 'false';

/** A path under the shared data. */
export function sharedPath(...parts: string[]): string {
    return path.join(SHARED, ...parts);
}

/**
 * `false` when every file is there; otherwise, in CI, an Error to throw (the tier must fail), and locally the
 * skip reason (printed once on stderr).
 */
export function sharedMissing(...files: string[]): false | string {
    const missing = files.filter(f => !existsSync(f));
    if (missing.length === 0) return false;
    const reason = `shared data missing: ${missing.map(f => path.relative(repo, f)).join(', ')} (the acceptance tier reads ../shared beside the repository, or HALLUPROBE_SHARED)`;
    if (inCi()) throw new Error(`${reason}. In CI this is a failure, not a skip.`);
    process.stderr.write(`\n!! SKIPPED (not passed): ${reason}\n`);
    return reason;
}
