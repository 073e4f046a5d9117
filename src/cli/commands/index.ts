import type { ParsedArgs } from '../args.js';
import { check } from './check.js';
import { preview } from './preview.js';
import { run } from './run.js';
import { runs } from './runs.js';
import { report } from './report.js';
import { compare } from './compare.js';
import { importCommand } from './import.js';

export interface Command {
    summary: string;
    usage: string;
    run(args: ParsedArgs): Promise<number>;
}

/** Every subcommand, in the order `halluprobe --help` lists them. */
export const COMMANDS: Record<string, Command> = {
    import: importCommand, check, preview, run, runs, report, compare,
};
