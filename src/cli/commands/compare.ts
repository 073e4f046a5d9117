import { writeFileSync } from 'node:fs';
import type { Command } from './command.js';
import { stringFlag, type ParsedArgs, unknownOption } from '../args.js';
import {
    changedVerdictsMarkdown,
    compareCells,
    compareRuns,
    loadReport,
    regressionLines,
    regressions,
    renderPaired,
    PAIRED_FIGURES,
    type PairedFormat,
} from '../../core/report/index.js';
import { openExisting, resolveRun } from './report.js';
import { printError, writeOut } from '../print.js';
import { problemText } from '../../core/errors.js';

const FLAGS = new Set([
    'db',
    'db-password-env',
    'format',
    'out',
    'figures',
    'by',
    'correction',
    'alpha',
    'seed',
    'fail-on-regression',
    'help',
]);
const FORMATS = ['md', 'html', 'json', 'csv'];

/** `H:0.02` or `H:2%`: the figure and the margin it may not worsen by. */
function gateOf(s: string): { figure: string; margin: number } | string {
    const m = /^\s*([A-Za-z_.]+)\s*:\s*(\d+(?:\.\d+)?)(%?)\s*$/.exec(s);
    if (!m) return `--fail-on-regression is FIGURE:MARGIN such as H:0.02, not "${s}"`;
    const margin = Number(m[2]) / (m[3] ? 100 : 1);
    return margin >= 0 && margin < 1
        ? { figure: m[1]!, margin }
        : `--fail-on-regression's margin is between 0 and 1, not "${m[2]}${m[3]}"`;
}

export const compare: Command = {
    summary: 'Compare runs, or the models and variants of one run: paired differences, intervals, corrected tests.',
    options: [...FLAGS],
    usage: `halluprobe compare <run> [<run> …] [--format md|html|json|csv] [options]

Every question is asked of every model and variant, so cells — (run, model, variant) — are compared question
by question. One run: a matrix of its models × variants. Several runs: each model and variant across the runs
(any two runs of one model each are compared whatever the names), and the cells of each run. Per figure (A,
H, R, AR and a family's own, such as open's factscore) and report group (probe · phrasing): the difference,
a 95 % paired interval (Tango's score interval; a cluster bootstrap where questions share a row, a model
answered several samples, or the figure is a score), McNemar's exact test (a sign-flip test over the shared
rows), p-values adjusted over each matrix's pairs, the winner only where the adjusted test names one, and
the questions that flipped each way. With two runs also the verdicts that changed. "latest" names the newest run.
  --figures A,H     the figures to compare (default: A, H, R, AR and the families' own)
  --by phrasing|probe  one matrix per report group (default), or per probe with its phrasings pooled (the
                    questions of one row clustered)
  --correction holm|bh  family-wise (Holm, default) or false-discovery-rate (Benjamini–Hochberg) adjustment
  --alpha A         the level a winner needs (default 0.05)
  --seed N          the bootstrap's and randomisation test's seed (default 1)
  --fail-on-regression FIG:MARGIN  two runs: exit 1 when a model and variant got worse on FIG (H: rose) by
                    at least MARGIN by the paired interval (Bonferroni over the groups compared), not on
                    noise; the flipped questions are listed on stderr. E.g. H:0.02 or H:2%
  --db FILE|URL     the results store: a file (default: .halluprobe/results.db in the current directory) or
                    postgres://user@host/db, where runs of a whole team can be compared
  --db-password-env VAR  a PostgreSQL store's password is in VAR (else PGPASSWORD or ~/.pgpass)
  --format          md (default), html, json or csv (one row per pair)
  --out FILE        write to FILE instead of stdout
Exit: 0 written, 1 a regression (--fail-on-regression), 2 bad usage.`,
    async run(args: ParsedArgs) {
        const format = stringFlag(args, 'format') ?? 'md';
        const by = stringFlag(args, 'by') ?? 'phrasing';
        const correction = stringFlag(args, 'correction') ?? 'holm';
        const alpha = Number(stringFlag(args, 'alpha') ?? '0.05');
        const seed = Number(stringFlag(args, 'seed') ?? '1');
        const figures = stringFlag(args, 'figures')
            ?.split(',')
            .map(s => s.trim())
            .filter(Boolean);
        const gateText = stringFlag(args, 'fail-on-regression');
        const gate = gateText === undefined ? undefined : gateOf(gateText);
        const unknown = unknownOption(args, FLAGS);
        const problem = unknown
            ? unknown
            : args.positional.length === 0
              ? 'give one run id or more (or "latest")'
              : !FORMATS.includes(format)
                ? `--format must be one of ${FORMATS.join(', ')}, not "${String(args.flags.format)}"`
                : !['phrasing', 'probe'].includes(by)
                  ? `--by must be phrasing or probe, not "${by}"`
                  : !['holm', 'bh'].includes(correction)
                    ? `--correction must be holm or bh, not "${correction}"`
                    : !(alpha > 0 && alpha < 1)
                      ? '--alpha is between 0 and 1'
                      : !Number.isInteger(seed)
                        ? '--seed is a whole number'
                        : typeof gate === 'string'
                          ? gate
                          : gate && args.positional.length !== 2
                            ? '--fail-on-regression compares two runs: the baseline and the new one'
                            : undefined;
        if (problem) {
            printError(`halluprobe compare: ${problem}\n\n${this.usage}`);
            return 2;
        }
        const store = await openExisting(args);
        try {
            const ids: string[] = [];
            for (const id of args.positional) ids.push(await resolveRun(store, id));
            const reports = [];
            for (const id of ids) {
                const r = await loadReport(store, id);
                for (const p of r.problems) printError(`halluprobe compare: run ${id}: ${problemText(p)}`);
                reports.push(r.data);
            }
            const options = {
                by: by as 'phrasing' | 'probe',
                correction: correction as 'holm' | 'bh',
                alpha,
                seed,
                ...(figures ? { figures } : {}),
            };
            const cells = compareCells(reports, options);
            const two = reports.length === 2 ? compareRuns(reports[0]!, reports[1]!) : undefined;
            const text =
                format === 'json'
                    ? JSON.stringify({ ...two, ...cells }, null, 2) + '\n'
                    : format === 'md' && two
                      ? renderPaired(cells, 'md') + changedVerdictsMarkdown(two)
                      : renderPaired(cells, format as PairedFormat);
            const out = stringFlag(args, 'out');
            if (out) {
                writeFileSync(out, text);
                printError(`Wrote the comparison to ${out}`);
            } else writeOut(text);
            if (!gate || typeof gate === 'string') return 0;
            const known = new Set<string>([...PAIRED_FIGURES, ...cells.matrices.map(m => m.figure)]);
            if (!known.has(gate.figure)) {
                printError(
                    `halluprobe compare: no figure ${gate.figure} to gate on; these are compared: ${[...known].join(', ')}`,
                );
                return 2;
            }
            const r = regressions(reports[0]!, reports[1]!, gate.figure, gate.margin, options);
            for (const line of regressionLines(r, gate.figure, gate.margin)) printError(line);
            return r.regressions.length ? 1 : 0;
        } finally {
            await store.close();
        }
    },
};
