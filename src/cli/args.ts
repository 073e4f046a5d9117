/** Minimal `--flag value` / `--flag=value` / `--switch` parsing shared by every subcommand. */
import { existsSync, statSync } from 'node:fs';
import { closest } from '../core/language/index.js';

export interface ParsedArgs {
    positional: string[];
    flags: Record<string, string | boolean>;
}

// Flags that never take a value (so the word after them stays a positional argument).
const SWITCHES = new Set(['help', 'h', 'json', 'yes', 'new', 'no-verify', 'fail-on-failures', 'fds', 'batch', 'join']);

export function parseArgs(argv: string[]): ParsedArgs {
    const out: ParsedArgs = { positional: [], flags: {} };
    for (let i = 0; i < argv.length; i++) {
        const a = argv[i]!;
        if (a === '--') {
            out.positional.push(...argv.slice(i + 1));
            break;
        }
        if (a.startsWith('--')) {
            const eq = a.indexOf('=');
            if (eq > 0) {
                out.flags[a.slice(2, eq)] = a.slice(eq + 1);
                continue;
            }
            const name = a.slice(2);
            const next = argv[i + 1];
            if (!SWITCHES.has(name) && next !== undefined && !next.startsWith('--')) {
                out.flags[name] = next;
                i++;
            } else out.flags[name] = true;
        } else if (a === '-h') out.flags.help = true;
        else out.positional.push(a);
    }
    return out;
}

export function stringFlag(args: ParsedArgs, name: string): string | undefined {
    const v = args.flags[name];
    return typeof v === 'string' ? v : undefined;
}

/** An integer flag, or an error message naming the flag. */
export function intFlag(args: ParsedArgs, name: string): number | undefined {
    const v = stringFlag(args, name);
    if (v === undefined) return undefined;
    const n = Number(v);
    if (!Number.isInteger(n) || n < 0) throw new UsageError(`--${name} must be a non-negative integer, got "${v}".`);
    return n;
}

/**
 * The one rule every command follows: an option it does not know is an error (never silently ignored), with
 * the closest option it does know as a suggestion.
 */
export function checkOptions(args: ParsedArgs, known: Iterable<string>): void {
    const unknown = unknownOption(args, known);
    if (unknown) throw new UsageError(unknown);
}

/** `unknown option --x; did you mean --y?` for the first option not in `known` (help is always known), else undefined. */
export function unknownOption(args: ParsedArgs, known: Iterable<string>): string | undefined {
    const names = new Set([...known, 'help']);
    const flag = Object.keys(args.flags).find(f => !names.has(f));
    if (flag === undefined) return undefined;
    const guess = closest(flag, names);
    return `unknown option --${flag}${guess ? `; did you mean --${guess}?` : ''}`;
}

/**
 * A command on one spec file with `--format text|json` (check, run): the file, the format, and what is wrong with
 * the command line (a usage error), if anything.
 */
export function specFileArgs(
    args: ParsedArgs,
    known: Iterable<string>,
): { file: string; format: string; problem?: undefined } | { problem: string } {
    const file = args.positional[0];
    const format = stringFlag(args, 'format') ?? 'text';
    const unknown = unknownOption(args, known);
    const problem = !file
        ? 'no spec file given'
        : args.positional.length > 1
          ? `one spec file expected, got ${args.positional.length}`
          : unknown
            ? unknown
            : !['text', 'json'].includes(format)
              ? `--format must be text or json, not "${String(args.flags.format)}"`
              : !existsSync(file)
                ? `no such spec file: ${file}`
                : statSync(file).isDirectory()
                  ? `${file} is a directory; give a .probe file`
                  : undefined;
    return problem ? { problem } : { file: file!, format };
}

/** ` Did you mean "x"?` for a mistyped command name, or "". */
export function commandHint(name: string, commands: Iterable<string>): string {
    const guess = closest(name, commands);
    return guess ? ` Did you mean "${guess}"?` : '';
}

/** Bad command-line input: printed without a stack trace, exit code 2. */
export class UsageError extends Error {}
