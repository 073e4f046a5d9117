import { writeFileSync } from 'node:fs';
import type { Command } from './command.js';
import { stringFlag, type ParsedArgs, unknownOption } from '../args.js';
import { compareRuns, loadReport, renderComparison } from '../../core/report/index.js';
import { openExisting, resolveRun } from './report.js';
import { printError, writeOut } from '../print.js';

const FLAGS = new Set(['db', 'format', 'out', 'help']);

export const compare: Command = {
    summary: 'Compare two runs: verdicts that changed and metric deltas with intervals.',
    options: [...FLAGS],
    usage: `halluprobe compare <runA> <runB> [--db FILE] [--format md|json] [--out FILE]

Lists the questions whose verdict changed from runA to runB and, per model × probe × phrasing × mode, the
change of A, R, AR, M and H with a 95 % interval (Newcombe); "latest" names the newest run.
  --db FILE        the results store (default: .halluprobe/results.db in the current directory)
  --format md|json Markdown (default) or JSON
  --out FILE       write to FILE instead of stdout
Exit: 0 written, 2 bad usage.`,
    async run(args: ParsedArgs) {
        const format = stringFlag(args, 'format') ?? 'md';
        const unknown = unknownOption(args, FLAGS);
        const problem = unknown ? unknown
            : args.positional.length !== 2 ? 'give two run ids (or "latest")'
            : !['md', 'json'].includes(format) ? `--format must be md or json, not "${String(args.flags.format)}"`
            : undefined;
        if (problem) { printError(`halluprobe compare: ${problem}\n\n${this.usage}`); return 2; }
        const store = openExisting(args);
        try {
            const [a, b] = args.positional.map(id => resolveRun(store, id));
            const ra = await loadReport(store, a!);
            const rb = await loadReport(store, b!);
            for (const [id, r] of [[a, ra], [b, rb]] as const) if (r.note) printError(`halluprobe compare: run ${id}: ${r.note}`);
            const c = compareRuns(ra.data, rb.data);
            const text = format === 'json' ? JSON.stringify(c, null, 2) + '\n' : renderComparison(c);
            const out = stringFlag(args, 'out');
            if (out) { writeFileSync(out, text); printError(`Wrote the comparison to ${out}`); }
            else writeOut(text);
            return 0;
        } finally {
            store.close();
        }
    },
};
