/**
 * The data layer's entry: load every relation of a spec from its source and check its keys, FDs and FKs.
 * Everything found is a diagnostic anchored in the spec; nothing here throws for bad data.
 */
import type { RelationDecl, SourceDecl, SpecLocation, SpecModel } from '../spec/model.js';
import type { SpecDiagnostic } from '../spec/load.js';
import type { LoadedData, RelationTable } from './types.js';
import { DataCache } from './cache.js';
import { loadSource, type RelationLoad } from './load.js';
import { checkFd, checkFk, checkKey } from './checks.js';
import {
    fdDiagnostic,
    fkDiagnostic,
    head,
    keyDiagnostic,
    notReadDiagnostic,
    repeatedRowsDiagnostic,
    problemDiagnostic,
    type Declarations,
} from './diagnostics.js';
export { dataGate } from './diagnostics.js';
import { readJson } from './json.js';
import { readCsvHeader } from './csv.js';
import { streamSqlite } from './sqlite.js';
import { streamPostgres } from './postgres.js';

export { DataCache } from './cache.js';
export { ColumnStore } from './column-store.js';
export { fdFacts } from './fd-facts.js';
export { columnStats } from './checks.js';
export { showValue } from './coerce.js';
export interface LoadOptions {
    /** Where a relation's `key (…)` number `index` is written; defaults to the relation's first line. */
    keyLocation?: (relation: RelationDecl, index: number) => SpecLocation | undefined;
    /** Relations not to load or check (e.g. their declarations have errors). */
    skip?: Set<string>;
    /** Whether a data file may be read (the editor's rule for files outside the workspace); default: all. */
    readable?: (file: string) => boolean;
}

/** The column names of a source: a CSV header row (1, 2, … without one), or a SQLite table's or query's columns. */
export async function readHeader(source: SourceDecl): Promise<string[]> {
    if (source.format === 'csv') return readCsvHeader(source).catch(() => []);
    if (source.format === 'json' || source.format === 'jsonl') return readJson(source, ',', undefined).header;
    if (source.format === 'postgres')
        return (
            await streamPostgres(
                source,
                () => undefined,
                () => undefined,
                undefined,
                true,
            )
        ).header;
    return streamSqlite(source, () => undefined, undefined, true).header;
}

/**
 * Loads and checks the data of a spec. With a cache, unchanged files are not read again and check results
 * on unchanged tables are reused. An aborted signal rejects with its reason.
 */
export async function loadData(
    spec: SpecModel,
    cache?: DataCache,
    signal?: AbortSignal,
    options: LoadOptions = {},
): Promise<LoadedData> {
    const decls: Declarations = {
        source: name => spec.sources.find(s => s.name === name),
        relation: name => spec.relations.find(r => r.name === name),
    };
    const tables = new Map<string, RelationTable>();
    const diagnostics: SpecDiagnostic[] = [];
    const seen = new Set<string>();
    const emit = (d: SpecDiagnostic | undefined) => {
        if (!d) return;
        // Source-level problems come once per relation on the source; report them once.
        const id = `${d.file}|${d.range.start.line}|${d.range.start.character}|${d.code}|${d.message}`;
        if (!seen.has(id)) {
            seen.add(id);
            diagnostics.push(d);
        }
    };
    const loads = new Map<string, RelationLoad>();

    for (const source of spec.sources) {
        const relations = spec.relations.filter(r => r.source === source.name && !options.skip?.has(r.name));
        if (relations.length === 0) continue;
        if (options.readable && !options.readable(source.path)) {
            emit(notReadDiagnostic(source));
            continue;
        }
        signal?.throwIfAborted();
        const loaded = cache ? await cache.load(source, relations, signal) : await loadSource(source, relations, signal);
        for (const [name, load] of loaded) {
            loads.set(name, load);
            if (load.table) tables.set(name, load.table);
            for (const p of load.problems) emit(problemDiagnostic(p, decls));
        }
    }

    const memo = <T>(table: RelationTable, key: string, compute: () => T): T =>
        cache ? cache.memo(table, key, compute) : compute();
    /** The table of a relation when all the named attributes were loaded from real columns. */
    const usable = (relation: string, attributes: string[]): RelationTable | undefined => {
        const table = tables.get(relation);
        const load = loads.get(relation);
        if (!table || !load || attributes.length === 0) return undefined;
        return attributes.every(a => table.column(a) && !load.missing.includes(a)) ? table : undefined;
    };

    for (const relation of spec.relations) {
        relation.keys.forEach((key, index) => {
            const table = usable(relation.name, key);
            if (!table) return;
            const violations = memo(table, `key ${key.join(',')}`, () => checkKey(table, key));
            // Placed only when broken: finding where a key is written measures its text (the editor checks on every edit).
            const loc = () => options.keyLocation?.(relation, index) ?? relation.loc;
            const conflicting = violations.filter(v => !v.exact),
                repeated = violations.filter(v => v.exact);
            // `known duplicates N`: up to N repeated values are the published data as it is, declared so; not an error.
            if (conflicting.length > (relation.knownDuplicates?.[index] ?? 0))
                emit(keyDiagnostic(relation, key, loc(), table, conflicting));
            if (repeated.length > 0) emit(repeatedRowsDiagnostic(relation, loc(), table, repeated));
        });
    }
    for (const fd of spec.fds) {
        const table = usable(fd.relation, [...fd.lhs, ...fd.rhs]);
        if (!table || fd.rhs.length === 0) continue;
        const key = `fd ${fd.lhs.join(',')}->${fd.rhs.join(',')}`;
        const violations = memo(table, key, () => checkFd(table, fd));
        // `known violations N`: up to N violating groups are declared known (their rows are still skipped and counted).
        if (violations.length <= (fd.known ?? 0)) continue;
        // The message is remembered too (it only moves with the declaration), which keeps re-checks cheap.
        const message = memo(table, `${key} in ${fd.loc.file}`, () => fdDiagnostic(fd, table, violations));
        emit({ ...message, file: fd.loc.file, range: head(fd.loc) });
    }
    for (const fk of spec.fks) {
        const from = usable(fk.from.relation, fk.from.attributes),
            to = usable(fk.to.relation, fk.to.attributes);
        if (!from || !to || fk.from.attributes.length !== fk.to.attributes.length) continue;
        const key = `fk ${fk.from.attributes.join(',')}->${fk.to.relation}.${fk.to.attributes.join(',')}`;
        // The result depends on both tables; remember it on `from`, keyed by the identity of `to` through its cache entry.
        const violations = memo(from, key, () => new WeakMap<RelationTable, ReturnType<typeof checkFk>>());
        let found = violations.get(to);
        if (!found) {
            found = checkFk(from, to, fk);
            violations.set(to, found);
        }
        if (found.length > 0) emit(fkDiagnostic(fk, from, found));
    }
    return options.skip?.size ? { tables, diagnostics, skipped: options.skip } : { tables, diagnostics };
}
export { outsideSpecFolder } from './diagnostics.js';
export * from './light.js';
export { type LoadedData, type RelationTable } from './types.js';
