import * as path from 'node:path';
import { existsSync } from 'node:fs';
import type { Command } from './index.js';
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
Exit status: 0 questions printed, 1 the spec has errors or its data cannot be read (nothing
generated), 2 bad usage.`,
    async run(args: ParsedArgs) {
        const file = args.positional[0];
        const format = stringFlag(args, 'format') ?? 'table';
        if (!file || !FORMATS.includes(format)) throw new UsageError(`${file ? `--format must be one of ${FORMATS.join(', ')}` : 'name a spec file'}.\n\n${this.usage}`);
        if (!existsSync(file)) throw new UsageError(`no such file: ${file}`);
        const options = { suite: stringFlag(args, 'suite'), probe: stringFlag(args, 'probe'), limit: intFlag(args, 'limit'), seed: intFlag(args, 'seed') };
        const line = format === 'jsonl' ? (q: Question) => JSON.stringify(questionRecord(q))
            : format === 'csv' ? csvLine
            : tableLine;
        let header = false;
        const preview = await previewSpec({
            spec: file, ...options, onSpec: printSources,
            onQuestion: q => {
                if (!header) printHeader(format);
                header = true;
                print(line(q));
            },
        });
        if (preview.blocked) {
            printDiagnostics(preview.diagnostics);
            printError(preview.blocked === 'spec'
                ? `halluprobe preview: the spec has ${preview.diagnostics.length} error(s); fix them first (${cliCommand()} check ${file}).`
                : `halluprobe preview: the data cannot be read (${preview.diagnostics.length} error(s)); no question was generated.`);
            return 1;
        }
        if (!header) printHeader(format);
        printDiagnostics(preview.dataProblems);
        printDiagnostics(preview.problems);
        printError(preview.summary);
        return preview.problems.some(d => d.severity === 'error') && preview.stats.generated === 0 ? 1 : 0;
    },
};

function printHeader(format: string): void {
    if (format === 'csv') print(CSV_HEADER.join(','));
    if (format === 'table') print(TABLE_HEADER);
}

function printDiagnostics(diagnostics: SpecDiagnostic[]): void {
    for (const r of diagnostics.map(toRow)) printError(`${path.relative(process.cwd(), r.file) || r.file}:${r.line}:${r.column} ${r.severity} [${r.code}] ${r.message}`);
}

/** The engine's one-line account of a preview (kept under this name for the CLI's tests). */
export { previewSummary as summary };

const keywordText = (q: Question) => q.keywords.map(h => h.map(k => k.value).join('; ')).join(' | ');
const firstRow = (q: Question) => (q.source.rows[0] ? `${q.source.rows[0].file}:${q.source.rows[0].line}` : '');

const TABLE_HEADER = ['id'.padEnd(16), 'probe'.padEnd(16), 'phrasing'.padEnd(10), 'variant'.padEnd(12), 'gold'.padEnd(4), 'keywords'.padEnd(24), 'question'].join('  ');

function cell(text: string, width: number): string {
    const flat = text.replace(/\s*\n\s*/g, ' ⏎ ');
    return flat.length > width ? `${flat.slice(0, width - 1)}…` : flat.padEnd(width);
}

function tableLine(q: Question): string {
    return [q.id, cell(q.probe, 16), cell(q.phrasing, 10), cell(variantId(q), 12), cell(goldText(q), 4), cell(keywordText(q), 24), cell(q.question, 160).trimEnd()].join('  ');
}

const CSV_HEADER = ['id', 'probe', 'kind', 'phrasing', 'variant', 'variant_id', 'gold', 'question', 'keywords', 'source'];

function csvLine(q: Question): string {
    return [q.id, q.probe, q.kind, q.phrasing, q.variant, variantId(q), goldText(q), q.question, keywordText(q), firstRow(q)].map(csvField).join(',');
}
