import type { Command } from './command.js';
import { check } from './check.js';
import { preview } from './preview.js';
import { run } from './run.js';
import { runs } from './runs.js';
import { report } from './report.js';
import { compare } from './compare.js';
import { estimate } from './estimate.js';
import { importCommand } from './import.js';
import { store } from './store.js';
import { init } from './init.js';
import { review } from './review.js';
import { readerCheckCommand } from './reader-check.js';

export type { Command } from './command.js';

/** Every subcommand, in the order `halluprobe --help` lists them. */
export const COMMANDS: Record<string, Command> = {
    init,
    import: importCommand,
    check,
    preview,
    run,
    runs,
    report,
    review,
    'reader-check': readerCheckCommand,
    compare,
    estimate,
    store,
};
