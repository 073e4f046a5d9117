/**
 * How the user starts HalluProbe from where they are, for every command a message suggests ("see them with: …"),
 * decided from how this CLI was started:
 * - `halluprobe` when it is on the user's PATH (a global install). npm and npx put `node_modules/.bin` on the
 *   PATH of what they start, so those entries do not count: the user's own shell does not have them.
 * - `npx halluprobe` inside the project that holds this CLI (a project depending on it, or this repository).
 * - outside that project, the project's own `node_modules/.bin/halluprobe`, or `node <its bin script>`: a bare
 *   `npx halluprobe` there would ask the npm registry for a package it does not hold.
 * HALLUPROBE_COMMAND overrides (e.g. `pnpm exec halluprobe`).
 */
import { accessSync, constants, existsSync, realpathSync } from 'node:fs';
import * as path from 'node:path';

export interface Invocation {
    /** The script node was started with (process.argv[1]). */
    script?: string;
    cwd?: string;
}

export function cliCommand(env: NodeJS.ProcessEnv = process.env, how: Invocation = {}): string {
    if (env.HALLUPROBE_COMMAND) return env.HALLUPROBE_COMMAND;
    const dirs = (env.PATH ?? '').split(path.delimiter).filter(d => d && !/node_modules[\\/]\.bin[\\/]?$/.test(d));
    const names = process.platform === 'win32' ? ['halluprobe.cmd', 'halluprobe.exe'] : ['halluprobe'];
    if (dirs.some(d => names.some(n => executable(path.join(d, n))))) return 'halluprobe';
    const script = real(how.script ?? process.argv[1]);
    if (!script || !/halluprobe(\.js)?$|cli\.mjs$|main\.ts$/.test(script)) return 'npx halluprobe';
    const cwd = real(how.cwd ?? process.cwd()) ?? process.cwd();
    const nm = script.lastIndexOf(`${path.sep}node_modules${path.sep}`);
    // The project: the folder holding node_modules/halluprobe, or this checkout (bin/ or dist/ or src/cli/ under it).
    const project = nm >= 0 ? script.slice(0, nm) : packageRoot(script);
    if (inside(cwd, project)) return 'npx halluprobe';
    const bin = path.join(project, 'node_modules', '.bin', names[0]!);
    if (nm >= 0 && executable(bin)) return quote(bin);
    const entry = nm >= 0 ? script : path.join(project, 'bin', 'halluprobe.js');
    return `${nodeCommand(dirs)} ${quote(entry)}`;
}

/** `node` when the user's `node` is the one running now, else this Node's path (an older `node` cannot run it). */
function nodeCommand(dirs: readonly string[]): string {
    const name = process.platform === 'win32' ? 'node.exe' : 'node';
    const first = dirs.map(d => path.join(d, name)).find(executable);
    return first && real(first) === real(process.execPath) ? 'node' : quote(process.execPath);
}

/** The nearest folder above the script with a package.json (bin/, dist/ and src/cli/ sit at most two below it). */
function packageRoot(script: string): string {
    let dir = path.dirname(script);
    for (let i = 0; i < 3 && !existsSync(path.join(dir, 'package.json')); i++) dir = path.dirname(dir);
    return dir;
}

function inside(file: string, folder: string): boolean {
    const rel = path.relative(folder, file);
    return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

function real(file: string | undefined): string | undefined {
    if (!file) return undefined;
    try {
        return realpathSync(file);
    } catch {
        return path.resolve(file);
    }
}

const quote = (s: string) => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

function executable(file: string): boolean {
    try {
        accessSync(file, constants.X_OK);
        return true;
    } catch {
        return false;
    }
}
