import type { Command } from './command.js';
import { stringFlag, UsageError, type ParsedArgs } from '../args.js';
import { readerCheck } from '../../core/review/index.js';
import { agreementText } from '../../core/report/index.js';
import { escapeTerminal } from '../../core/terminal.js';
import { print } from '../print.js';

export const readerCheckCommand: Command = {
    summary: "Check this version's reader against a corpus of labelled answers (halluprobe review --export).",
    options: ['format', 'help'],
    usage: `halluprobe reader-check corpus.jsonl [--format text|json]

Reads every labelled answer of the corpus again with this version's reader and says, per family, how often it
agrees with the label (Wilson 95 % interval), then lists each disagreement.
Exit: 0 the reader agrees with every label, 1 some disagree, 2 bad usage.`,
    async run(args: ParsedArgs) {
        const file = args.positional[0];
        if (!file || args.positional.length > 1)
            throw new UsageError('name one corpus file: halluprobe reader-check corpus.jsonl');
        const format = stringFlag(args, 'format') ?? 'text';
        if (format !== 'text' && format !== 'json') throw new UsageError(`--format must be text or json, not "${format}".`);
        const check = readerCheck(file);
        if (format === 'json') print(JSON.stringify(check, null, 2));
        else {
            for (const f of check.families) print(`${f.family}: the reader agrees ${agreementText(f.agreement)}`);
            if (check.disagreements.length) print('', `Disagreements (${check.disagreements.length}):`);
            for (const d of check.disagreements)
                print(
                    `  ${escapeTerminal(d.id)} (${d.family}): labelled ${d.expected}, read ${d.read} (answer ${d.answer}): ${escapeTerminal(d.response.replace(/\s+/g, ' ').slice(0, 160))}`,
                );
        }
        return check.disagreements.length ? 1 : 0;
    },
};
