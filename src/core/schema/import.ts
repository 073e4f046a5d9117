/**
 * `halluprobe import` and the editor's "Import Database…": read a database's declared schema (or infer one
 * from a folder of CSV files), optionally discover its FDs, and write a formatted spec. The spec is written to
 * a temporary file and renamed into place, so a failed import leaves nothing half-written.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { HalluProbeError, problem, type Problem } from '../errors.js';
import { loadSpec, type SpecDiagnostic } from '../spec/load.js';
import { dataOptionsFor } from '../spec/check.js';
import { loadData, readHeader } from '../data/index.js';
import type { RelationTable } from '../data/types.js';
import { readSqliteSchema, type DeclaredTable } from '../data/sqlite-schema.js';
import { readPostgresSchema } from '../data/postgres-schema.js';
import { PASSWORD_REMEDY, passwordInUrl, safeUrl } from '../data/postgres-url.js';
import { discoverFds, type FdDiscoveryOptions } from './discover.js';
import { dataFiles, detectDelimiter, formatOf, inclusionFks, inferType, uniqueCombinations } from './csv-folder.js';
import {
    IMPORT_ADVICE,
    identifiers,
    importSummary,
    renderSpec,
    type ImportedRelation,
    type ImportedSchema,
    type ImportSummary,
} from './spec-text.js';

export interface ImportOptions {
    /** A SQLite file, a folder of CSV files, or a postgres:// URL (password from PGPASSWORD). */
    input: string;
    /** The spec file to write. */
    out: string;
    /** Discover FDs on each relation (options passed on to `discoverFds`; default cap 3, exact only). */
    fds?: boolean | FdDiscoveryOptions;
}

export interface ImportResult {
    file: string;
    schema: ImportedSchema;
    /** What `halluprobe check` reports on the written spec (empty when it is clean). */
    diagnostics: SpecDiagnostic[];
    /** What was written, declarations counted apart from those written commented out: the CLI and the editor show its text. */
    summary: ImportSummary;
    /** What to do next (the spec's first line says it too). */
    advice: string;
}

const SQLITE_MAGIC = 'SQLite format 3\u0000';
const portable = (p: string) => p.split(path.sep).join('/');

/** Imports a database into a spec file; throws a HalluProbeError (nothing written) on bad input. */
export async function importDatabase(options: ImportOptions): Promise<ImportResult> {
    const out = path.resolve(options.out);
    if (/^postgres(ql)?:\/\//i.test(options.input)) return finish(await postgresSchema(options.input), out, options);
    const input = path.resolve(options.input);
    if (!fs.existsSync(input))
        throw new HalluProbeError(
            problem(
                'import-missing',
                `no such file or folder: ${options.input}`,
                'Give a SQLite file or a folder of CSV files.',
                { file: input },
            ),
        );
    return finish(fs.statSync(input).isDirectory() ? await csvFolderSchema(input, out) : sqliteSchema(input, out), out, options);
}

/** Loads the relations, discovers FDs when asked, checks the text and writes it. */
async function finish(imported: ImportedSchema, out: string, options: ImportOptions): Promise<ImportResult> {
    let schema = imported;
    const tables = await loadTables(schema, out);
    if (options.fds) {
        const settings = typeof options.fds === 'object' ? options.fds : {};
        schema = {
            ...schema,
            fds: schema.relations.flatMap(r => {
                const table = tables.get(r.name);
                if (!table) return [];
                const found = discoverFds(table, settings);
                return [{ relation: r.name, fds: found.fds, complete: found.complete, elapsedMs: found.elapsedMs }];
            }),
        };
    }
    const text = renderSpec(schema);
    const diagnostics = await checkText(out, text);
    writeAtomically(out, text);
    return { file: out, schema, diagnostics, summary: importSummary(schema), advice: IMPORT_ADVICE };
}

async function postgresSchema(url: string): Promise<ImportedSchema> {
    const where = safeUrl(url);
    const location = { file: where };
    if (passwordInUrl(url)) {
        throw new HalluProbeError(
            problem(
                'import-secret',
                `the URL ${where} holds a password`,
                `Remove it (the URL is written into the spec) and ${PASSWORD_REMEDY}.`,
                location,
            ),
        );
    }
    const declared = await readPostgresSchema(url);
    if (declared instanceof Error)
        throw new HalluProbeError(
            problem(
                'import-unreadable',
                `${where}: ${declared.message}`,
                'Check the URL, that the server runs, and the password (as the message says).',
                location,
            ),
        );
    if (declared.length === 0)
        throw new HalluProbeError(
            problem('import-no-tables', `${where} has no tables`, 'Import a database that has at least one table.', location),
        );
    requireRows(
        declared.map(t => ({ name: t.name, rows: t.rowCount })),
        where,
    );
    return declaredSchema(declared, { format: 'postgres', path: url }, where);
}

function sqliteSchema(file: string, out: string): ImportedSchema {
    if (!looksLikeSqlite(file))
        throw new HalluProbeError(
            problem(
                'import-not-database',
                `${path.basename(file)} is neither a SQLite database nor a folder`,
                'Give a SQLite file or a folder of CSV files.',
                { file },
            ),
        );
    const declared = readSqliteSchema(file);
    if (declared instanceof Error)
        throw new HalluProbeError(
            problem(
                'import-unreadable',
                `${path.basename(file)} ${declared.message}`,
                'Check the file is a readable SQLite database.',
                { file },
            ),
        );
    if (declared.length === 0)
        throw new HalluProbeError(
            problem(
                'import-no-tables',
                `${path.basename(file)} has no tables`,
                'Import a database that has at least one table.',
                { file },
            ),
        );
    requireRows(
        declared.map(t => ({ name: t.name, rows: t.rowCount })),
        file,
    );
    return declaredSchema(
        declared,
        { format: 'sqlite', path: portable(path.relative(path.dirname(out), file)) },
        path.basename(file),
    );
}

function looksLikeSqlite(file: string): boolean {
    try {
        const fd = fs.openSync(file, 'r');
        try {
            const head = Buffer.alloc(16);
            fs.readSync(fd, head, 0, 16, 0);
            return head.toString('latin1') === SQLITE_MAGIC;
        } finally {
            fs.closeSync(fd);
        }
    } catch (e) {
        throw new HalluProbeError(
            problem(
                'import-unreadable',
                `cannot read ${path.basename(file)}: ${(e as Error).message}`,
                'Check the file is readable.',
                { file },
            ),
        );
    }
}

/** A table with no rows yields no questions and no evidence for keys or FDs: refuse it by name. */
function requireRows(tables: { name: string; rows: number }[], file: string): void {
    const empty = tables.filter(t => t.rows === 0).map(t => t.name);
    if (empty.length > 0) {
        throw new HalluProbeError(
            problem(
                'import-empty-table',
                `table${empty.length > 1 ? 's' : ''} ${empty.map(n => `'${n}'`).join(', ')} of ${path.basename(file)} ha${empty.length > 1 ? 've' : 's'} no rows`,
                'Fill the table, or import from a copy without it: HalluProbe asks questions from rows.',
                { file },
            ),
        );
    }
}

/** Relations, keys and declared FKs of a database's tables (SQLite or PostgreSQL). */
function declaredSchema(
    declared: DeclaredTable[],
    source: { format: 'sqlite' | 'postgres'; path: string },
    origin: string,
): ImportedSchema {
    const relationNames = identifiers(declared.map(t => t.name));
    const sourceNames = identifiers(
        relationNames.map(n => `${n.toLowerCase()}_src`),
        new Set(relationNames.map(n => n.toLowerCase())),
    );
    const attributeNames = new Map<string, Map<string, string>>();
    const relations: ImportedRelation[] = declared.map((t, i) => {
        const names = identifiers(t.columns.map(c => c.name));
        attributeNames.set(t.name, new Map(t.columns.map((c, j) => [c.name, names[j]!])));
        const attr = (column: string) => attributeNames.get(t.name)!.get(column)!;
        return {
            name: relationNames[i]!,
            source: { name: sourceNames[i]!, format: source.format, path: source.path, table: t.name },
            attributes: t.columns.map((c, j) => ({ name: names[j]!, column: c.name, type: c.type })),
            keys: t.keys.map(k => k.map(attr)),
            rowCount: t.rowCount,
        };
    });
    const relationOf = new Map(declared.map((t, i) => [t.name, relationNames[i]!]));
    const fks = declared.flatMap(t =>
        t.foreignKeys
            .filter(fk => relationOf.has(fk.table))
            .map(fk => ({
                from: { relation: relationOf.get(t.name)!, attributes: fk.columns.map(c => attributeNames.get(t.name)!.get(c)!) },
                to: {
                    relation: relationOf.get(fk.table)!,
                    attributes: fk.refColumns.map(c => attributeNames.get(fk.table)!.get(c) ?? c),
                },
                coverage: 1,
                declared: true,
            })),
    );
    return { origin, relations, fks };
}

/** A folder of CSV files: all-text relations first, loaded, then typed, keyed and linked from their values. */
async function csvFolderSchema(folder: string, out: string): Promise<ImportedSchema> {
    const files = dataFiles(folder);
    if (files.length === 0)
        throw new HalluProbeError(
            problem(
                'import-no-tables',
                `${folder} holds no .csv, .tsv, .json or .jsonl files`,
                'Give a folder of data files (one table per file) or a SQLite file.',
                { file: folder },
            ),
        );
    const problems: Problem[] = [];
    const delimiters = files.map(f => {
        if (formatOf(f) !== 'csv') return ',';
        const found = detectDelimiter(f);
        if ('delimiter' in found) return found.delimiter;
        problems.push(found);
        return ',';
    });
    if (problems.length > 0) throw new HalluProbeError(problems);
    const names = identifiers(files.map(f => path.basename(f).replace(/\.\w+$/, '')));
    const sources = identifiers(
        names.map(n => `${n.toLowerCase()}_src`),
        new Set(names.map(n => n.toLowerCase())),
    );
    const sourceOf = (f: string, i: number) => ({
        format: formatOf(f),
        settings: formatOf(f) === 'csv' ? delimiterSetting(delimiters[i]!) : {},
    });
    const headers = await Promise.all(
        files.map(async (f, i) =>
            readHeader({
                name: 'import',
                path: f,
                ...sourceOf(f, i),
                loc: { file: f, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } } },
            }),
        ),
    );
    const relations: ImportedRelation[] = files.map((f, i) => {
        const columns = headers[i]!;
        const attrs = identifiers(columns);
        return {
            name: names[i]!,
            source: { name: sources[i]!, path: portable(path.relative(path.dirname(out), f)), ...sourceOf(f, i) },
            attributes: columns.map((c, j) => ({ name: attrs[j]!, column: c, type: 'text' as const })),
            keys: [],
            rowCount: 0,
        };
    });
    const origin = `the data files of ${path.basename(folder)}`;
    const asText = await loadTables({ origin, relations, fks: [] }, out);
    requireRows(
        relations.map(r => ({ name: path.basename(files[relations.indexOf(r)]!), rows: asText.get(r.name)?.rowCount ?? 0 })),
        folder,
    );
    for (const r of relations) {
        const table = asText.get(r.name)!;
        r.rowCount = table.rowCount;
        r.attributes = r.attributes.map(a => ({ ...a, type: inferType(table.column(a.name)!.values) }));
        r.keys = uniqueCombinations(table).map(k => k.map(i => r.attributes[i]!.name));
    }
    return { origin, relations, fks: inclusionFks(relations, asText) };
}

function delimiterSetting(delimiter: string): Record<string, string> {
    if (delimiter === ',') return {};
    return { delimiter: delimiter === '\t' ? 'tab' : delimiter };
}

/** Loads the relations of a schema through the data layer (the same reader `check` uses). */
async function loadTables(schema: ImportedSchema, out: string): Promise<Map<string, RelationTable>> {
    const text = renderSpec({ ...schema, fks: [], relations: schema.relations.map(r => ({ ...r, keys: [] })) });
    const loaded = await loadSpec(out, new Map([[out, text]]));
    const data = await loadData(loaded.model, undefined, undefined, dataOptionsFor(loaded, loaded.diagnostics));
    const errors = [...loaded.diagnostics, ...data.diagnostics].filter(d => d.severity === 'error');
    if (errors.length > 0)
        throw new HalluProbeError(errors.map(d => problem(d.code, d.message, undefined, { file: d.file, range: d.range })));
    return data.tables;
}

/** What `check` would say about the spec text, as if it were already written at `out`. */
async function checkText(out: string, text: string): Promise<SpecDiagnostic[]> {
    const loaded = await loadSpec(out, new Map([[out, text]]));
    const data = await loadData(loaded.model, undefined, undefined, dataOptionsFor(loaded, loaded.diagnostics));
    return [...loaded.diagnostics, ...data.diagnostics];
}

function writeAtomically(file: string, text: string): void {
    const temporary = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
    try {
        fs.writeFileSync(temporary, text);
        fs.renameSync(temporary, file);
    } catch (e) {
        fs.rmSync(temporary, { force: true });
        throw new HalluProbeError(
            problem('import-write', `cannot write ${file}: ${(e as Error).message}`, 'Choose a writable --out path.', { file }),
        );
    }
}
