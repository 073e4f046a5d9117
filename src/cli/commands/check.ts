import * as path from 'node:path';
import type { Command } from './command.js';
import { specFileArgs, type ParsedArgs } from '../args.js';
import { checkSpec } from '../../core/spec/index.js';
import { outsideSpecFolder } from '../../core/data/index.js';
import type { SpecModel } from '../../core/spec/index.js';
import { probeDiagnostics, withoutFollowOns } from '../../core/probes/index.js';
import type { SpecDiagnostic } from '../../core/spec/index.js';
import { safeUrl } from '../../core/data/index.js';
import { print, printError } from '../print.js';

const FLAGS = new Set(['format', 'help']);

export const check: Command = {
    summary: 'Check a spec and its data; print diagnostics (exit 1 on errors).',
    options: [...FLAGS],
    usage: `halluprobe check <spec.probe> [--format text|json]

Parses the spec and every file it imports, resolves names, loads the data and checks keys, FDs and FKs.
  --format text   one line per problem: file:line:column severity [code] message (default)
  --format json   a JSON array of {file, line, column, severity, code, message} (1-based line and column)
Exit status: 0 no errors, 1 errors found, 2 bad usage (missing file, unknown flag).`,
    async run(args: ParsedArgs) {
        const parsed = specFileArgs(args, FLAGS);
        if (parsed.problem !== undefined) {
            printError(`halluprobe check: ${parsed.problem}\n\n${this.usage}`);
            return 2;
        }
        const { file, format } = parsed;
        const checked = await checkSpec(file);
        // The question generator's problems (e.g. a probe with no eligible row), as the editor shows them.
        const diagnostics = [
            ...checked.diagnostics,
            ...withoutFollowOns(checked.model, probeDiagnostics(checked.model, checked.data), checked.diagnostics),
        ];
        const rows = diagnostics.map(toRow).sort(byPosition);
        if (format === 'json') print(JSON.stringify(rows, null, 2));
        else {
            printSources(checked.model);
            printText(rows);
        }
        return rows.some(r => r.severity === 'error') ? 1 : 0;
    },
};

/** Where each data source resolved to (on stderr), so a spec cannot read a file the user did not expect. */
export function printSources(model: SpecModel): void {
    for (const s of model.sources)
        printError(
            `source ${s.name}: ${s.format === 'postgres' ? safeUrl(s.path) : s.path}${outsideSpecFolder(s.path, s.loc) ? "  (outside the spec's folder)" : ''}`,
        );
}

/** One diagnostic as `--format json` prints it: lines and columns 1-based. */
export interface CheckRow {
    file: string;
    line: number;
    column: number;
    severity: string;
    code: string;
    message: string;
}

export function toRow(d: SpecDiagnostic): CheckRow {
    return {
        file: d.file,
        line: d.range.start.line + 1,
        column: d.range.start.character + 1,
        severity: d.severity,
        code: d.code,
        message: d.message,
    };
}

function byPosition(a: CheckRow, b: CheckRow): number {
    return a.file.localeCompare(b.file) || a.line - b.line || a.column - b.column;
}

function printText(rows: CheckRow[]): void {
    for (const r of rows)
        print(`${path.relative(process.cwd(), r.file) || r.file}:${r.line}:${r.column} ${r.severity} [${r.code}] ${r.message}`);
    const errors = rows.filter(r => r.severity === 'error').length;
    const warnings = rows.filter(r => r.severity === 'warning').length;
    print(rows.length === 0 ? 'No problems found.' : `${errors} error(s), ${warnings} warning(s).`);
}
