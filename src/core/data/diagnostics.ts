/**
 * Data problems and check results as spec diagnostics, anchored at the declaration the user would edit
 * (the source, the attribute, the key, the fd, the fk), with rows shown as file:line and a remedy.
 */
import * as path from 'node:path';
import type { FdDecl, FkDecl, RelationDecl, SourceDecl, SpecLocation, Range } from '../spec/model.js';
import type { SpecDiagnostic, Severity } from '../spec/load.js';
import type { CellValue, RelationTable } from './types.js';
import type { LoadProblem } from './load.js';
import type { FdViolation, FkViolation, KeyViolation } from './checks.js';
import { showValue } from './coerce.js';
import { closest } from '../language/validation/suggest.js';
import { safeUrl } from './postgres-url.js';

/** How many groups / values a message spells out before "and N more". */
const SHOWN = 3;
/** How many rows a diagnostic hands to quick fixes. */
const ROWS_FOR_FIXES = 20;

const plural = (n: number, word: string, many = `${word}s`) => `${n} ${n === 1 ? word : many}`;

/**
 * A data file as the user likely wrote it: relative to the spec file that declares the thing, with forward
 * slashes; a file far outside the spec's folder is shown by its absolute path instead.
 */
/** Data problems that make generation impossible (as opposed to violations, whose rows are only skipped). */
const BLOCKING_DATA_CODES: ReadonlySet<string> = new Set([
    'missing-file',
    'missing-column',
    'csv-format',
    'sqlite-error',
    'json-format',
    'postgres-error',
]);

/**
 * The data gate of every step that generates questions (run, preview): errors that make generation impossible
 * stop it (`blocking`); the other errors (key, FD, FK violations) only make the generator skip rows (`skipping`).
 */
export function dataGate(diagnostics: readonly SpecDiagnostic[]): { blocking: SpecDiagnostic[]; skipping: SpecDiagnostic[] } {
    const errors = diagnostics.filter(d => d.severity === 'error');
    return {
        blocking: errors.filter(d => BLOCKING_DATA_CODES.has(d.code)),
        skipping: errors.filter(d => !BLOCKING_DATA_CODES.has(d.code)),
    };
}

export function shownFile(file: string, from: SpecLocation): string {
    const relative = path.relative(path.dirname(from.file), file).split(path.sep).join('/');
    if (relative === '') return path.basename(file);
    return relative.startsWith('../../../') ? file : relative;
}

/**
 * Whether a data file lies outside the spec's folder tree (`source x csv "/etc/shadow"`). Such a file's content
 * is never quoted in a diagnostic: a spec from elsewhere must not be able to read out files through the editor.
 */
export function outsideSpecFolder(file: string, from: SpecLocation): boolean {
    const relative = path.relative(path.dirname(from.file), path.resolve(path.dirname(from.file), file));
    return relative.startsWith('..') || path.isAbsolute(relative);
}

/** A source the editor did not read: outside the workspace folders and not allowed (yet) in this workspace. */
export function notReadDiagnostic(source: SourceDecl): SpecDiagnostic {
    return {
        file: source.loc.file,
        range: head(source.loc),
        severity: 'warning',
        code: 'source-not-read',
        message: `Not read: ${source.path} is outside the workspace folders. Preview Questions or a run asks whether to read it; until then its relations are not checked.`,
    };
}

/**
 * A multi-line declaration is anchored at its first line only, so the squiggle does not cover a whole block:
 * up to the start of the next line (which exists, as the declaration goes on there).
 */
export function head(loc: SpecLocation): Range {
    const { start, end } = loc.range;
    return start.line === end.line ? loc.range : { start, end: { line: start.line + 1, character: 0 } };
}

function at(loc: SpecLocation, severity: Severity, code: string, message: string, data?: SpecDiagnostic['data']): SpecDiagnostic {
    const d: SpecDiagnostic = { file: loc.file, range: head(loc), severity, code, message };
    if (data) d.data = data;
    return d;
}

const tuple = (values: CellValue[]) => (values.length === 1 ? showValue(values[0]!) : `(${values.map(showValue).join(', ')})`);
const names = (attributes: string[]) => (attributes.length === 1 ? attributes[0]! : `(${attributes.join(', ')})`);

/** "data/movies.csv:2" for the first row, then ", 40" for the next rows of the same file. */
function lineList(table: RelationTable, rows: number[], total: number, loc: SpecLocation): string {
    const lines = rows.map(r => table.lines[r]!);
    const more = total > rows.length ? ` and ${total - rows.length} more` : '';
    return `${shownFile(table.file, loc)}:${lines.join(', ')}${more}`;
}

const rowRefs = (table: RelationTable, rows: number[]) =>
    rows.slice(0, ROWS_FOR_FIXES).map(r => ({ file: table.file, line: table.lines[r]! }));

export interface Declarations {
    source(name: string): SourceDecl | undefined;
    relation(name: string): RelationDecl | undefined;
}

/** The diagnostic of a problem met while loading (missing file or column, format, coercion). */
export function problemDiagnostic(problem: LoadProblem, decls: Declarations): SpecDiagnostic | undefined {
    switch (problem.kind) {
        case 'missing-file': {
            const source = decls.source(problem.source);
            if (!source) return undefined;
            return at(
                source.loc,
                'error',
                'missing-file',
                `Data file not found: ${shownFile(problem.file, source.loc)} (looked for ${problem.file}). Paths are relative to the spec file; correct the path or add the file.`,
            );
        }
        case 'format': {
            const source = decls.source(problem.source);
            if (!source) return undefined;
            const file = source.format === 'postgres' ? safeUrl(problem.file) : shownFile(problem.file, source.loc);
            const data =
                problem.problem.lines.length > 0
                    ? { rows: problem.problem.lines.map(line => ({ file: problem.file, line })) }
                    : undefined;
            return at(source.loc, problem.problem.severity, problem.problem.code, `${file} ${problem.problem.message}.`, data);
        }
        case 'missing-column': {
            const attribute = decls.relation(problem.relation)?.attributes.find(a => a.name === problem.attribute);
            const source = decls.source(decls.relation(problem.relation)?.source ?? '');
            if (!attribute || !source) return undefined;
            if (outsideSpecFolder(source.path, attribute.loc)) {
                return at(
                    attribute.loc,
                    'error',
                    'missing-column',
                    `Column '${problem.column}' of ${problem.relation}.${problem.attribute} is not in ${source.path}, which is outside the spec's folder (its header is not shown). Check that the source names the file you mean.`,
                );
            }
            const guess = closest(problem.column, problem.columns);
            const listed = problem.columns.map(c => `'${c}'`).join(', ');
            return at(
                attribute.loc,
                'error',
                'missing-column',
                `Column '${problem.column}' of ${problem.relation}.${problem.attribute} is not in ${shownFile(source.path, attribute.loc)}` +
                    `${guess !== undefined ? `; did you mean '${guess}'?` : '.'} Its columns are: ${listed}.`,
                { columns: problem.columns },
            );
        }
        case 'coercion': {
            const attribute = decls.relation(problem.relation)?.attributes.find(a => a.name === problem.attribute);
            if (!attribute) return undefined;
            const type = problem.type.list ? `list<${problem.type.scalar}>` : problem.type.scalar;
            const file = shownFile(problem.file, attribute.loc);
            const examples = problem.examples
                .slice(0, SHOWN)
                .map(e => `'${e.value}' (${file}:${e.line}:${e.column}, ${e.reason})`)
                .join(', ');
            const more = problem.count > SHOWN ? ', …' : '';
            return at(
                attribute.loc,
                'warning',
                'coercion',
                `${plural(problem.count, 'value')} of ${problem.relation}.${problem.attribute} ${problem.count === 1 ? 'is' : 'are'} not ${type} and ${problem.count === 1 ? 'was' : 'were'} loaded as empty: ${examples}${more}. ` +
                    `Correct the data, or declare the attribute with a type that fits (e.g. text).`,
                { rows: problem.examples.map(e => ({ file: problem.file, line: e.line })) },
            );
        }
        case 'truncated': {
            const attribute = decls.relation(problem.relation)?.attributes.find(a => a.name === problem.attribute);
            if (!attribute) return undefined;
            const file = shownFile(problem.file, attribute.loc);
            return at(
                attribute.loc,
                'warning',
                'cell-truncated',
                `${plural(problem.count, 'cell')} of ${problem.relation}.${problem.attribute} ${problem.count === 1 ? 'is' : 'are'} longer than ${problem.limit} characters and ${problem.count === 1 ? 'was' : 'were'} cut to that length in questions, prompts and the store (${problem.lines.map(l => `${file}:${l}`).join(', ')}${problem.count > problem.lines.length ? ', …' : ''}). ` +
                    `Map a shorter column, or raise the limit with HALLUPROBE_MAX_CELL_CHARS.`,
                { rows: problem.lines.map(line => ({ file: problem.file, line })) },
            );
        }
    }
}

/** `fd-violated` at the fd: how many groups disagree, and the first few with their lines. */
export function fdDiagnostic(fd: FdDecl, table: RelationTable, violations: FdViolation[]): SpecDiagnostic {
    const shown = violations.slice(0, SHOWN).map(v => {
        const variants = v.variants.map(x => `${tuple(x.rhs)} (${lineList(table, x.rows, x.count, fd.loc)})`);
        const last = variants.pop()!;
        return `${tuple(v.lhs)} has ${names(fd.rhs)} ${variants.join(', ')} and ${last}`;
    });
    const more = violations.length > SHOWN ? `; and ${plural(violations.length - SHOWN, 'more group')}` : '';
    const rows = violations.slice(0, SHOWN).flatMap(v => v.variants.flatMap(x => x.rows));
    return at(
        fd.loc,
        'error',
        'fd-violated',
        `${fd.relation}: ${fd.lhs.join(', ')} -> ${fd.rhs.join(', ')} is violated by ${plural(violations.length, 'group')}: ${shown.join('; ')}${more}. ` +
            'Correct the conflicting rows, or remove the fd if it does not hold in your data.',
        { rows: rowRefs(table, rows) },
    );
}

/** `key-not-unique` at the key: how many key values repeat, with their lines. */
export function keyDiagnostic(
    relation: RelationDecl,
    key: string[],
    loc: SpecLocation,
    table: RelationTable,
    violations: KeyViolation[],
): SpecDiagnostic {
    const shown = violations
        .slice(0, SHOWN)
        .map(v => `${tuple(v.values)} (${lineList(table, v.rows, v.count, loc)})`)
        .join(', ');
    const more = violations.length > SHOWN ? `, and ${plural(violations.length - SHOWN, 'more value')}` : '';
    return at(
        loc,
        'error',
        'key-not-unique',
        `Key ${names(key)} of ${relation.name} is not unique: ${plural(violations.length, 'value is', 'values are')} held by more than one row: ${shown}${more}. ` +
            'Remove the duplicate rows, or declare a key that identifies each row.',
        {
            rows: rowRefs(
                table,
                violations.slice(0, SHOWN).flatMap(v => v.rows),
            ),
        },
    );
}

/**
 * `duplicate-row` at the key: rows that repeat another row exactly. Not a conflict (published data often has
 * them), so a warning; each copy still yields its own questions, as the ERBench authors asked them.
 */
export function repeatedRowsDiagnostic(
    relation: RelationDecl,
    loc: SpecLocation,
    table: RelationTable,
    repeated: KeyViolation[],
): SpecDiagnostic {
    const shown = repeated
        .slice(0, SHOWN)
        .map(v => `${tuple(v.values)} (${lineList(table, v.rows, v.count, loc)})`)
        .join(', ');
    const more = repeated.length > SHOWN ? `, and ${repeated.length - SHOWN} more` : '';
    return at(
        loc,
        'warning',
        'duplicate-row',
        `${plural(repeated.length, 'row of ' + relation.name + ' is', 'rows of ' + relation.name + ' are')} repeated exactly: ${shown}${more}. ` +
            'Each copy is asked as its own question; remove the copies if they are accidental.',
        {
            rows: rowRefs(
                table,
                repeated.slice(0, SHOWN).flatMap(v => v.rows),
            ),
        },
    );
}

/** `fk-dangling` at the fk: how many referenced values have no match, with examples. */
export function fkDiagnostic(fk: FkDecl, from: RelationTable, violations: FkViolation[]): SpecDiagnostic {
    const rows = violations.reduce((n, v) => n + v.count, 0);
    const shown = violations
        .slice(0, SHOWN)
        .map(v => `${tuple(v.values)} (${lineList(from, v.rows, v.count, fk.loc)})`)
        .join(', ');
    const more = violations.length > SHOWN ? ', …' : '';
    const target = `${fk.to.relation}.${names(fk.to.attributes)}`;
    return at(
        fk.loc,
        'error',
        'fk-dangling',
        `${fk.from.relation}.${names(fk.from.attributes)} -> ${target}: ${plural(violations.length, 'value')} (in ${plural(rows, 'row')}) ${violations.length === 1 ? 'has' : 'have'} no match in ${target}: ${shown}${more}. ` +
            `Add the missing ${fk.to.relation} rows, or correct the references.`,
        {
            rows: rowRefs(
                from,
                violations.slice(0, SHOWN).flatMap(v => v.rows),
            ),
        },
    );
}
