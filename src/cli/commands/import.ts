import * as path from 'node:path';
import type { Command } from './command.js';
import { stringFlag, UsageError, type ParsedArgs } from '../args.js';
import { toRow } from './check.js';
import { print, printError } from '../print.js';
import { importDatabase } from '../../core/schema/index.js';

const FLAGS = new Set(['out', 'fds', 'max-lhs', 'max-error', 'budget', 'help']);

export const importCommand: Command = {
    summary: 'Write a spec from a database: relations, keys, FKs (and FDs with --fds).',
    options: [...FLAGS],
    usage: `halluprobe import <sqlite file | postgres URL | folder of CSV / JSONL files> [--out FILE] [--fds] [--max-lhs N] [--max-error E] [--budget S]

Reads the tables of a database and writes a formatted spec with one relation per table, typed attributes,
keys from primary keys and unique constraints, and FKs from declared constraints (composite ones included).
For a folder of CSV, JSON or JSONL files, types are inferred from the values, keys from unique column combinations, and FKs
from inclusion dependencies between the files (with the share of values found).
  --out FILE      the spec to write (default: <input name>.probe in the current folder)
  --fds           also discover the functional dependencies each table holds (those on fewer than 2 groups
                  of rows sharing a left-hand side are written commented out)
  --max-lhs N     largest left-hand side of a discovered FD (default 3)
  --max-error E   also list approximate FDs that hold after deleting at most this share of rows (e.g. 0.01)
  --budget S      seconds of FD discovery per table (default 60)
Exit status: 0 written (the spec checks clean), 1 bad input (nothing written) or written with problems, 2 bad usage.`,
    async run(args: ParsedArgs) {
        const input = args.positional[0];
        if (!input || args.positional.length > 1) {
            throw new UsageError(`${!input ? 'name a database to import' : 'one database expected'}.\n\n${this.usage}`);
        }
        const out = stringFlag(args, 'out') ?? `${path.basename(input.replace(/[\\/]+$/, '')).replace(/\.\w+$/, '')}.probe`;
        const number = (name: string, fallback: number, max = Infinity) => {
            const raw = stringFlag(args, name);
            if (raw === undefined) return fallback;
            const n = Number(raw);
            if (!Number.isFinite(n) || n < 0 || n > max)
                throw new UsageError(`--${name} must be a number between 0 and ${max}, got "${raw}".`);
            return n;
        };
        const fds =
            args.flags.fds === true
                ? {
                      maxLhs: number('max-lhs', 3, 10),
                      maxError: number('max-error', 0, 0.5),
                      budgetMs: number('budget', 60) * 1000,
                  }
                : false;
        const result = await importDatabase({ input, out, fds });
        const problems = result.diagnostics.map(toRow);
        for (const p of problems)
            printError(
                `${path.relative(process.cwd(), p.file) || p.file}:${p.line}:${p.column} ${p.severity} [${p.code}] ${p.message}`,
            );
        print(`Wrote ${path.relative(process.cwd(), result.file) || result.file}: ${result.summary.text}.`);
        print(result.advice);
        return problems.some(p => p.severity === 'error') ? 1 : 0;
    },
};
