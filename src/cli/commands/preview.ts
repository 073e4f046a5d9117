import * as path from 'node:path';
import { existsSync } from 'node:fs';
import type { Command } from './index.js';
import { goldText } from '../../core/probes/question.js';
import { intFlag, stringFlag, UsageError, type ParsedArgs } from '../args.js';
import { printSources, toRow } from './check.js';
import { loadSpec } from '../../core/spec/load.js';
import type { SpecDiagnostic } from '../../core/spec/load.js';
import { loadData } from '../../core/data/index.js';
import { generateQuestions, probeDiagnostics, type GenerationStats } from '../../core/probes/index.js';
import { questionRecord, type Question } from '../../core/probes/question.js';
import { csvField } from '../../core/report/formats.js';
import { print, printError } from '../print.js';
import { variantId } from '../../core/report/labels.js';
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
Problems are printed to stderr as file:line:column messages. Exit status: 0 questions printed and no errors,
1 the spec or its data has errors (the questions that could be generated are still printed), 2 bad usage.`,
    async run(args: ParsedArgs) {
        const file = args.positional[0];
        const format = stringFlag(args, 'format') ?? 'table';
        if (!file || !FORMATS.includes(format)) throw new UsageError(`${file ? `--format must be one of ${FORMATS.join(', ')}` : 'name a spec file'}.\n\n${this.usage}`);
        if (!existsSync(file)) throw new UsageError(`no such file: ${file}`);
        const options = { suite: stringFlag(args, 'suite'), probe: stringFlag(args, 'probe'), limit: intFlag(args, 'limit'), seed: intFlag(args, 'seed') };
        const loaded = await loadSpec(file);
        const errors = loaded.diagnostics.filter(d => d.severity === 'error');
        if (errors.length > 0) {
            printDiagnostics(errors);
            printError(`halluprobe preview: the spec has ${errors.length} error(s); fix them first (${cliCommand()} check ${file}).`);
            return 1;
        }
        printSources(loaded.model);
        const data = await loadData(loaded.model);
        const dataErrors = data.diagnostics.filter(d => d.severity === 'error');
        printDiagnostics(dataErrors);
        const generation = generateQuestions(loaded.model, data, Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)));
        const seen = new Set(generation.diagnostics.map(key));
        const problems = [...generation.diagnostics, ...probeDiagnostics(loaded.model, data).filter(d => !seen.has(key(d)))];
        printDiagnostics(problems);
        // The table sizes its columns to the questions, so it reads them all first; jsonl and csv stream.
        const questions: Iterable<Question> = format === 'table' ? [...generation.questions] : generation.questions;
        const table = format === 'table' ? tableFormat(questions as Question[]) : undefined;
        const line = format === 'jsonl' ? (q: Question) => JSON.stringify(questionRecord(q))
            : format === 'csv' ? csvLine
            : table!.line;
        if (format === 'csv') print(CSV_HEADER.join(','));
        if (table) print(table.header);
        for (const q of questions) print(line(q));
        printError(summary(generation.stats, data.tables));
        // The questions that could be generated are printed, but a spec with errors is never a pass.
        return dataErrors.length > 0 || problems.some(d => d.severity === 'error') ? 1 : 0;
    },
};

const key = (d: SpecDiagnostic) => `${d.file}:${d.range.start.line}:${d.code}:${d.message}`;

function printDiagnostics(diagnostics: SpecDiagnostic[]): void {
    for (const r of diagnostics.map(toRow)) printError(`${path.relative(process.cwd(), r.file) || r.file}:${r.line}:${r.column} ${r.severity} [${r.code}] ${r.message}`);
}

/**
 * Says what each count counts: questions per probe and the rows each probe read (a probe reads its relation's
 * rows once per phrasing), and the rows each relation has, so "360 questions" from a 60-row file adds up.
 */
export function summary(stats: GenerationStats, tables: ReadonlyMap<string, { rowCount: number }>): string {
    const skipped = ([['skippedNull', 'with empty values'], ['skippedViolating', 'in FD-violating groups or repeating a key'], ['skippedDangling', 'with a dangling fk'],
        ['skippedCycle', 'on a cyclic path'], ['skippedInvalid', 'where a condition failed'], ['skippedUnderived', 'with no derived fact of the rule']] as const)
        .filter(([k]) => (stats[k] ?? 0) > 0).map(([k, s]) => `${stats[k]} ${s}`);
    const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
    const probes = Object.entries(stats.byProbe).map(([name, s]) => `${name} ${s.generated} from ${plural(s.rows, 'row')}`).join(', ');
    const relations = [...tables].map(([name, t]) => `${name} ${plural(t.rowCount, 'row')}`).join(', ');
    // The families' own accounts (Plan.summary), e.g. evidence swaps dropped by validation.
    const notes = Object.entries(stats.byProbe).flatMap(([name, s]) => (s.notes ?? []).map(n => `\n${name}: ${n}`)).join('');
    return `${plural(stats.generated, 'question')}${probes ? ` (${probes})` : ''}; data: ${relations || 'none'}; ${skipped.length ? `rows skipped: ${skipped.join(', ')}` : 'no rows skipped'}.${notes}`;
}

const keywordText = (q: Question) => q.keywords.map(h => h.map(k => k.value).join('; ')).join(' | ');
const firstRow = (q: Question) => (q.source.rows[0] ? `${q.source.rows[0].file}:${q.source.rows[0].line}` : '');

/**
 * The table's columns, each as wide as its longest value among the printed questions (never narrower than its
 * title, at most its cap), so rows that differ only late in a column ("option 3 (…)", "movie_title_year") can be
 * told apart; only the question and keywords are cut.
 */
function tableFormat(questions: readonly Question[]): { header: string; line: (q: Question) => string } {
    const columns: [string, (q: Question) => string, number][] = [
        ['probe', q => q.probe, 32], ['phrasing', q => q.phrasing, 24], ['variant', variantId, 24], ['gold', goldText, 48], ['keywords', keywordText, 24],
    ];
    const widths = columns.map(([title, get, cap]) => Math.min(cap, questions.reduce((w, q) => Math.max(w, flat(get(q)).length), title.length)));
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
    return [q.id, q.probe, q.kind, q.phrasing, q.variant, variantId(q), goldText(q), q.question, keywordText(q), firstRow(q)].map(csvField).join(',');
}
