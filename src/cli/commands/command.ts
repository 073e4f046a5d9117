/**
 * A subcommand of `halluprobe`, as a type of its own: each command's file names it and the table in index.ts lists
 * the commands, so neither imports the other's module.
 */
import type { ParsedArgs } from '../args.js';

export interface Command {
    summary: string;
    usage: string;
    /** The options (without --) the command accepts; any other is rejected before it runs. */
    options: readonly string[];
    run(args: ParsedArgs): Promise<number>;
}
