/**
 * How the user starts HalluProbe from their shell, for every command a message suggests ("see them with: …"):
 * `halluprobe` when it is on the user's PATH, `npx halluprobe` otherwise (a project that installed it
 * locally, where a bare `halluprobe` is "command not found"). npm and npx put `node_modules/.bin` on the PATH
 * of what they start, so those entries do not count: the user's own shell does not have them.
 * HALLUPROBE_COMMAND overrides (e.g. `pnpm exec halluprobe`).
 */
import { accessSync, constants } from 'node:fs';
import * as path from 'node:path';

export function cliCommand(env: NodeJS.ProcessEnv = process.env): string {
    if (env.HALLUPROBE_COMMAND) return env.HALLUPROBE_COMMAND;
    const dirs = (env.PATH ?? '').split(path.delimiter).filter(d => d && !/node_modules[\\/]\.bin[\\/]?$/.test(d));
    const names = process.platform === 'win32' ? ['halluprobe.cmd', 'halluprobe.exe'] : ['halluprobe'];
    return dirs.some(d => names.some(n => executable(path.join(d, n)))) ? 'halluprobe' : 'npx halluprobe';
}

function executable(file: string): boolean {
    try { accessSync(file, constants.X_OK); return true; } catch { return false; }
}
