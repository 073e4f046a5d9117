import * as fs from 'node:fs';
import * as path from 'node:path';
import { URI, type LangiumDocument } from 'langium';
import { NodeFileSystem } from 'langium/node';
import { createProbeServices, type ProbeServices } from '../language/module.js';
import { buildSpecModel, documentPath } from '../language/build-model.js';
import { isSpec } from '../language/generated/ast.js';
import { unparseableMessage } from '../language/parse-guard.js';
import { ProbeDocumentFactory } from '../language/documents.js';
import { SPEC_EXTENSION, specFileProblem, type FileFacts } from '../language/importable.js';
import type { SpecModel, SpecDiagnostic, Severity, Range } from './model.js';

export type { Severity, SpecDiagnostic } from './model.js';

export interface LoadedSpec {
    model: SpecModel;
    diagnostics: SpecDiagnostic[];
    documents: LangiumDocument[];
    services: ProbeServices;
}

const SEVERITY: Record<number, Severity> = { 1: 'error', 2: 'warning', 3: 'info', 4: 'hint' };

export type SpecServices = ReturnType<typeof createProbeServices>;

/** A language workspace of its own (documents, index, caches), for a caller that must not share one. */
export function createSpecServices(): SpecServices {
    return createProbeServices(NodeFileSystem);
}

let standard: SpecServices | undefined;
/** The workspace of callers that pass none (one CLI command, one extension host). */
function defaultServices(): SpecServices {
    standard ??= createSpecServices();
    return standard;
}

/**
 * Parses, links and validates a spec file and every file it imports (from disk, or from `texts` by absolute
 * path) and returns the spec as plain data with the language diagnostics. Data checks are separate (see core/data).
 */
export function loadSpec(
    entry: string,
    texts?: ReadonlyMap<string, string>,
    services: SpecServices = defaultServices(),
): Promise<LoadedSpec> {
    // One load at a time per workspace: two loads of the same file (a CodeLens and a preview in one extension host)
    // would both find it absent and both add it. A failed load does not stop the next.
    const next = (loading.get(services) ?? Promise.resolve()).then(() => loadInto(entry, texts, services));
    loading.set(
        services,
        next.catch(() => undefined),
    );
    return next;
}

const loading = new WeakMap<SpecServices, Promise<unknown>>();

async function loadInto(
    entry: string,
    texts: ReadonlyMap<string, string> | undefined,
    services: SpecServices,
): Promise<LoadedSpec> {
    const { shared: sharedServices, probe } = services;
    const documents = sharedServices.workspace.LangiumDocuments;
    const loaded: LangiumDocument[] = [];
    const diagnostics: SpecDiagnostic[] = [];
    const queue = [path.resolve(entry)];
    const seen = new Set<string>();
    const stale: URI[] = [];
    while (queue.length > 0) {
        const file = queue.shift()!;
        if (seen.has(file)) continue;
        seen.add(file);
        const uri = URI.file(file);
        // An editor's unsaved text wins over the file on disk (the extension's views follow edits).
        const text = texts?.get(file) ?? readSpecFile(file, diagnostics);
        if (text === undefined) continue;
        if (documents.hasDocument(uri)) {
            stale.push(uri);
            reuseParse(services, documents.getDocument(uri)!);
        }
        const doc = parseOrReport(sharedServices, text, uri, diagnostics);
        if (!doc) continue;
        loaded.push(doc);
        const root = doc.parseResult.value;
        if (!isSpec(root)) continue;
        for (const imp of root.imports) {
            if (!imp.path) continue;
            const target = path.resolve(path.dirname(file), imp.path);
            // Only regular .probe files of a sane size; anything else is reported by the import check.
            if (texts?.has(target) || !specFileProblem(target, statOf(target))) queue.push(target);
        }
    }
    // Replace the earlier copies all at once, then build the new ones together: removing them one by one
    // would rebuild an entry file while the files it imports are missing, and leave it with false errors.
    if (stale.length > 0) await sharedServices.workspace.DocumentBuilder.update([], stale);
    for (const doc of loaded) documents.addDocument(doc);
    await sharedServices.workspace.DocumentBuilder.build(loaded, { validation: true });
    for (const doc of loaded) diagnostics.push(...(doc.diagnostics ?? []).map(d => toSpecDiagnostic(doc, d)));
    return { model: buildSpecModel(loaded), diagnostics, documents: loaded, services: probe };
}

/**
 * The new document of a file loaded before is parsed from the old one's parse, re-parsing only the declarations
 * its change touched (`check` after an edit). Its unchanged declarations move to the new document with their
 * references, which the linker keeps where nothing they point to changed (it is handed them by `unlink`).
 */
function reuseParse(services: SpecServices, old: LangiumDocument): void {
    const factory = services.shared.workspace.LangiumDocumentFactory;
    if (!(factory instanceof ProbeDocumentFactory)) return;
    services.probe.references.Linker.unlink(old);
    factory.reuse(old.uri, old.parseResult);
}

function statOf(file: string): FileFacts | undefined {
    try {
        const st = fs.statSync(file);
        return { isFile: st.isFile(), isDirectory: st.isDirectory(), size: st.size };
    } catch {
        return undefined;
    }
}

const FILE_START: Range = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };

/** The spec's text, or undefined with a diagnostic when it is not a readable spec file. */
function readSpecFile(file: string, diagnostics: SpecDiagnostic[]): string | undefined {
    const facts = statOf(file);
    // The entry file may have any name (the CLI was given it); only its kind and size matter.
    const problem = facts?.isFile
        ? specFileProblem(`${file}${SPEC_EXTENSION}`, facts)
        : specFileProblem(file, facts ?? { isFile: false, isDirectory: false });
    if (problem) {
        diagnostics.push({ file, range: FILE_START, severity: 'error', code: 'bad-spec-file', message: problem });
        return undefined;
    }
    try {
        return fs.readFileSync(file, 'utf8');
    } catch (e) {
        diagnostics.push({
            file,
            range: FILE_START,
            severity: 'error',
            code: 'bad-spec-file',
            message: `Cannot read ${file}: ${(e as Error).message}. Check the path and its permissions.`,
        });
        return undefined;
    }
}

/** Parses a document; a text the parser cannot take at all becomes a located error, not a crash. */
function parseOrReport(
    shared: SpecServices['shared'],
    text: string,
    uri: URI,
    diagnostics: SpecDiagnostic[],
): LangiumDocument | undefined {
    try {
        return shared.workspace.LangiumDocumentFactory.fromString(text, uri);
    } catch (e) {
        diagnostics.push({
            file: uri.fsPath,
            range: FILE_START,
            severity: 'error',
            code: 'syntax',
            message: unparseableMessage(text, e),
        });
        return undefined;
    }
}

/** A language diagnostic of a document as a SpecDiagnostic (the one conversion, used by the CLI and the server). */
export function toSpecDiagnostic(doc: LangiumDocument, d: NonNullable<LangiumDocument['diagnostics']>[number]): SpecDiagnostic {
    return {
        file: documentPath(doc.uri),
        range: d.range,
        severity: SEVERITY[d.severity ?? 1] ?? 'error',
        code: typeof d.code === 'string' ? d.code : String(d.code ?? (d.data as { code?: string } | undefined)?.code ?? 'syntax'),
        message: typeof d.message === 'string' ? d.message : d.message.value,
    };
}
