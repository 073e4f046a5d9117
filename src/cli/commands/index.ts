import type { ParsedArgs } from '../args.js';
import { check } from './check.js';
import { preview } from './preview.js';
import { run } from './run.js';
import { runs } from './runs.js';
import { report } from './report.js';
import { compare } from './compare.js';
import { estimate } from './estimate.js';
import { importCommand } from './import.js';
import { store } from './store.js';

export interface Command {
    summary: string;
    usage: string;
    /** The options (without --) the command accepts; any other is rejected before it runs. */
    options: readonly string[];
    run(args: ParsedArgs): Promise<number>;
}

/** Every subcommand, in the order `halluprobe --help` lists them. */
export const COMMANDS: Record<string, Command> = {
    import: importCommand, check, preview, run, runs, report, compare, estimate, store,
};
