import * as path from 'node:path';
import { existsSync } from 'node:fs';
import type { Command } from './index.js';
import { stringFlag, type ParsedArgs } from '../args.js';
import { checkSpec } from '../../core/spec/check.js';
import type { SpecDiagnostic } from '../../core/spec/load.js';

export const check: Command = {
    summary: 'Check a spec and its data; print diagnostics (exit 1 on errors).',
    usage: `halluprobe check <spec.probe> [--format text|json]

Parses the spec and every file it imports, resolves names, loads the data and checks keys, FDs and FKs.
  --format json   a JSON array of {file, line, column, severity, code, message} (1-based line and column)
Exit status: 0 no errors, 1 errors found, 2 bad usage.`,
    async run(args: ParsedArgs) {
        const file = args.positional[0];
        const format = stringFlag(args, 'format') ?? 'text';
        if (!file || !['text', 'json'].includes(format)) {
            console.error(this.usage);
            return 2;
        }
        if (!existsSync(file)) {
            console.error(`halluprobe check: no such file: ${file}`);
            return 2;
        }
        const { diagnostics } = await checkSpec(file);
        const rows = diagnostics.map(toRow);
        if (format === 'json') console.log(JSON.stringify(rows, null, 2));
        else printText(rows);
        return rows.some(r => r.severity === 'error') ? 1 : 0;
    },
};

interface Row { file: string; line: number; column: number; severity: string; code: string; message: string }

function toRow(d: SpecDiagnostic): Row {
    return { file: d.file, line: d.range.start.line + 1, column: d.range.start.character + 1, severity: d.severity, code: d.code, message: d.message };
}

function printText(rows: Row[]): void {
    for (const r of rows) console.log(`${path.relative(process.cwd(), r.file) || r.file}:${r.line}:${r.column} ${r.severity} [${r.code}] ${r.message}`);
    const errors = rows.filter(r => r.severity === 'error').length;
    const warnings = rows.filter(r => r.severity === 'warning').length;
    console.log(rows.length === 0 ? 'No problems found.' : `${errors} error(s), ${warnings} warning(s).`);
}
