import type { ParsedArgs } from '../args.js';
import { check } from './check.js';

export interface Command {
    summary: string;
    usage: string;
    run(args: ParsedArgs): Promise<number>;
}

/** Every subcommand, in the order `halluprobe --help` lists them. */
export const COMMANDS: Record<string, Command> = {
    check,
};
