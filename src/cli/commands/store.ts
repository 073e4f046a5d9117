import type { Command } from './command.js';
import { stringFlag, type ParsedArgs } from '../args.js';
import { copyStore } from '../../core/store/index.js';
import { shownStore } from '../../core/data/index.js';
import { print, printError } from '../print.js';

const FLAGS = new Set(['run', 'db-password-env', 'help']);

export const store: Command = {
    summary: 'Copy runs between results stores (SQLite files and PostgreSQL servers).',
    options: [...FLAGS],
    usage: `halluprobe store copy <from> <to> [--run ID]

Copies every run of <from> (or only run ID) into <to>, with its questions, calls, cached answers, verdicts,
overrides, group verdicts and batches. Each side is a results file (results.db) or postgres://user@host/db
(the password from PGPASSWORD, ~/.pgpass or the variable named by --db-password-env, never in the URL). Runs
<to> has already are skipped, so a copy can be repeated.`,
    async run(args: ParsedArgs) {
        const [action, from, to] = args.positional;
        const unknown = Object.keys(args.flags).filter(f => !FLAGS.has(f));
        const problem =
            unknown.length > 0
                ? `unknown option --${unknown[0]}`
                : action !== 'copy'
                  ? `unknown action "${action ?? ''}"; use: store copy <from> <to>`
                  : !from || !to
                    ? 'store copy needs <from> and <to>'
                    : undefined;
        if (problem) {
            printError(`halluprobe store: ${problem}\n\n${this.usage}`);
            return 2;
        }
        const only = typeof args.flags.run === 'string' ? [args.flags.run] : undefined;
        const { copied, skipped } = await copyStore(from!, to!, only, stringFlag(args, 'db-password-env'));
        print(
            `Copied ${copied.length} run${copied.length === 1 ? '' : 's'} from ${shownStore(from!)} to ${shownStore(to!)}${skipped.length ? ` (${skipped.length} already there: ${skipped.join(', ')})` : ''}.`,
        );
        return 0;
    },
};
