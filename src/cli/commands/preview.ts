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
Problems are printed to stderr as file:line:column messages. Exit status: 0 questions printed,
1 the spec has errors (nothing generated), 2 bad usage.`,
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
        printDiagnostics(data.diagnostics.filter(d => d.severity === 'error'));
        const generation = generateQuestions(loaded.model, data, Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)));
        const seen = new Set(generation.diagnostics.map(key));
        const problems = [...generation.diagnostics, ...probeDiagnostics(loaded.model, data).filter(d => !seen.has(key(d)))];
        printDiagnostics(problems);
        const line = format === 'jsonl' ? (q: Question) => JSON.stringify(questionRecord(q))
            : format === 'csv' ? csvLine
            : tableLine;
        if (format === 'csv') print(CSV_HEADER.join(','));
        if (format === 'table') print(TABLE_HEADER);
        for (const q of generation.questions) print(line(q));
        printError(summary(generation.stats, data.tables));
        return problems.some(d => d.severity === 'error') && generation.stats.generated === 0 ? 1 : 0;
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
