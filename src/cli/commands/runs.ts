import * as path from 'node:path';
import { storePath } from '../../core/places.js';
import { existsSync } from 'node:fs';
import type { Command } from './command.js';
import { stringFlag, type ParsedArgs, unknownOption } from '../args.js';
import { isPostgresUrl, openStore, shownStore } from '../../core/store/index.js';
import { usd } from '../../core/run/index.js';
import { print, printError } from '../print.js';
import { cliCommand } from '../../core/invocation.js';

const FLAGS = new Set(['db', 'db-password-env', 'format', 'help']);

export const runs: Command = {
    summary: 'List the runs in a results store.',
    options: [...FLAGS],
    usage: `halluprobe runs [--db FILE|URL] [--format text|json]

Lists runs, newest first: id, status, spec, suite, models, answers, failures, tokens and cost.
  --db FILE|URL      the results store: a file (default: .halluprobe/results.db in the current folder) or
                     postgres://user@host/db, the runs of everyone who stores there
  --db-password-env VAR  a PostgreSQL store's password is in VAR (else PGPASSWORD or ~/.pgpass)
  --format text|json one line per run (default), or a JSON array`,
    async run(args: ParsedArgs) {
        const format = stringFlag(args, 'format') ?? 'text';
        const db = storePath(stringFlag(args, 'db'));
        const unknown = unknownOption(args, FLAGS);
        const problem = unknown
            ? unknown
            : !['text', 'json'].includes(format)
              ? `--format must be text or json, not "${String(args.flags.format)}"`
              : !isPostgresUrl(db) && !existsSync(db)
                ? `no results store at ${db}; run "${cliCommand()} run <spec>" first or pass --db FILE`
                : undefined;
        if (problem) {
            printError(`halluprobe runs: ${problem}`);
            return 2;
        }
        const store = await openStore(db, { passwordEnv: stringFlag(args, 'db-password-env') });
        try {
            const rows = await Promise.all(
                (await store.listRuns()).map(async run => {
                    const models = (run.settings.models ?? []).map(m => m.display ?? m.name);
                    return { ...run, models, counts: await store.counts(run.id) };
                }),
            );
            if (format === 'json') {
                print(JSON.stringify(rows, null, 2));
                return 0;
            }
            if (rows.length === 0) {
                print(`No runs in ${shownStore(db)}.`);
                return 0;
            }
            for (const r of rows) {
                const c = r.counts;
                print(
                    `${r.id}  ${r.status.padEnd(9)}  ${path.relative(process.cwd(), r.spec) || r.spec}${r.suite ? ` / ${r.suite}` : ''}  ${r.models.join(', ')}`,
                );
                print(
                    `    ${c.answered}/${c.slots} answered (${c.cached} cached), ${c.failed} failed, ${c.tokensIn + c.tokensOut} tokens, ${usd(c.cost)}, started ${r.started}`,
                );
            }
            return 0;
        } finally {
            await store.close();
        }
    },
};
