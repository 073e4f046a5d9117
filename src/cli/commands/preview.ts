import * as path from 'node:path';
import { existsSync } from 'node:fs';
import type { Command } from './command.js';
import { intFlag, stringFlag, UsageError, type ParsedArgs } from '../args.js';
import { printSources, toRow } from './check.js';
import type { SpecDiagnostic } from '../../core/spec/index.js';
import { previewSpec, previewSummary } from '../../core/run/index.js';
import { goldText, questionRecord, type Question } from '../../core/probes/index.js';
import { csvField } from '../../core/report/index.js';
import { print, printError } from '../print.js';
import { variantId } from '../../core/report/index.js';
import { cliCommand } from '../../core/invocation.js';

const FORMATS = ['table', 'jsonl', 'csv'];

export const preview: Command = {
    summary: 'Generate the questions of a spec (no model is called) and print them.',
    options: ['suite', 'probe', 'limit', 'seed', 'format'],
    usage: `halluprobe preview <spec.probe> [--suite S] [--probe P] [--limit N] [--seed K] [--format table|jsonl|csv]

Loads the spec and its data and prints the generated questions with their gold answers and keywords.
  --suite S    a suite's probes, sample, quotas and prompt variants (default: every probe, zero-shot)
  --probe P    only this probe
  --limit N    at most N questions in all
  --seed K     the sampling seed (without a suite: random row order with this seed)
  --format     table (default), jsonl (one question per line: id, probe, kind, phrasing, question,
               messages, gold, keywords, source, path …) or csv
Problems are printed to stderr as file:line:column messages. As for a run, a missing data file or
column (an unreadable source) stops the preview; key, FD and FK violations only skip their rows.
Exit status: 0 questions printed and no errors, 1 the spec or its data has errors (the questions that
could be generated are still printed; none when the spec has errors or its data cannot be read), 2 bad usage.`,
    async run(args: ParsedArgs) {
        const file = args.positional[0];
        const format = stringFlag(args, 'format') ?? 'table';
        if (!file || !FORMATS.includes(format))
            throw new UsageError(
                `${file ? `--format must be one of ${FORMATS.join(', ')}` : 'name a spec file'}.\n\n${this.usage}`,
            );
        if (!existsSync(file)) throw new UsageError(`no such file: ${file}`);
        const options = {
            suite: stringFlag(args, 'suite'),
            probe: stringFlag(args, 'probe'),
            limit: intFlag(args, 'limit'),
            seed: intFlag(args, 'seed'),
        };
        // The table sizes its columns to the questions, so it reads them all first; jsonl and csv stream.
        const line = format === 'jsonl' ? (q: Question) => JSON.stringify(questionRecord(q)) : csvLine;
        let header = false;
        const preview = await previewSpec({
            spec: file,
            ...options,
            onSpec: printSources,
            ...(format === 'table'
                ? {}
                : {
                      onQuestion: (q: Question) => {
                          if (!header && format === 'csv') print(CSV_HEADER.join(','));
                          header = true;
                          print(line(q));
                      },
                  }),
        });
        if (preview.blocked) {
            printDiagnostics(preview.diagnostics);
            printError(
                preview.blocked === 'spec'
                    ? `halluprobe preview: the spec has ${preview.diagnostics.length} error(s); fix them first (${cliCommand()} check ${file}).`
                    : `halluprobe preview: the data cannot be read (${preview.diagnostics.length} error(s)); no question was generated.`,
            );
            return 1;
        }
        if (format === 'table') {
            const table = tableFormat(preview.questions);
            print(table.header);
            for (const q of preview.questions) print(table.line(q));
        } else if (!header && format === 'csv') print(CSV_HEADER.join(','));
        printDiagnostics(preview.dataProblems);
        printDiagnostics(preview.problems);
        printError(preview.summary);
        // The questions that could be generated are printed, but a spec with errors is never a pass.
        return preview.dataProblems.length > 0 || preview.problems.some(d => d.severity === 'error') ? 1 : 0;
    },
};

function printDiagnostics(diagnostics: SpecDiagnostic[]): void {
    for (const r of diagnostics.map(toRow))
        printError(
            `${path.relative(process.cwd(), r.file) || r.file}:${r.line}:${r.column} ${r.severity} [${r.code}] ${r.message}`,
        );
}

/** The engine's one-line account of a preview (kept under this name for the CLI's tests). */
export { previewSummary as summary };

const keywordText = (q: Question) => q.keywords.map(h => h.map(k => k.value).join('; ')).join(' | ');
const firstRow = (q: Question) => (q.source.rows[0] ? `${q.source.rows[0].file}:${q.source.rows[0].line}` : '');

/**
 * The table's columns, each as wide as its longest value among the printed questions (never narrower than its
 * title, at most its cap), so rows that differ only late in a column ("option 3 (…)", "movie_title_year") can be
 * told apart; only the question and keywords are cut.
 */
function tableFormat(questions: readonly Question[]): { header: string; line: (q: Question) => string } {
    const columns: [string, (q: Question) => string, number][] = [
        ['probe', q => q.probe, 32],
        ['phrasing', q => q.phrasing, 24],
        ['variant', variantId, 24],
        ['gold', goldText, 48],
        ['keywords', keywordText, 24],
    ];
    const widths = columns.map(([title, get, cap]) =>
        Math.min(
            cap,
            questions.reduce((w, q) => Math.max(w, flat(get(q)).length), title.length),
        ),
    );
    return {
        header: ['id'.padEnd(16), ...columns.map(([title], i) => title.padEnd(widths[i]!)), 'question'].join('  '),
        line: q => [q.id, ...columns.map(([, get], i) => cell(get(q), widths[i]!)), cell(q.question, 160).trimEnd()].join('  '),
    };
}

const flat = (text: string) => text.replace(/\s*\n\s*/g, ' ⏎ ');

function cell(text: string, width: number): string {
    const one = flat(text);
    return one.length > width ? `${one.slice(0, width - 1)}…` : one.padEnd(width);
}

const CSV_HEADER = ['id', 'probe', 'kind', 'phrasing', 'variant', 'variant_id', 'gold', 'question', 'keywords', 'source'];

function csvLine(q: Question): string {
    return [q.id, q.probe, q.kind, q.phrasing, q.variant, variantId(q), goldText(q), q.question, keywordText(q), firstRow(q)]
        .map(csvField)
        .join(',');
}
