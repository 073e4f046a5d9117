import { AstUtils, UriUtils, type LangiumDocument, type URI, type ValidationAcceptor } from 'langium';
import { isSpec, type Import, type Relation, type Spec } from '../generated/ast.js';
import type { ProbeServices } from '../services.js';
import { fileSize, specFileProblem, type FileFacts } from '../importable.js';
import { KIND_WORDS } from '../linker.js';
import { shortName, visibleSpecs } from './context.js';

type Named = Spec['elements'][number] & { name?: string };

/** Duplicate names per kind, within the file and against every file it imports. */
export function checkUniqueNames(services: ProbeServices) {
    return (spec: Spec, accept: ValidationAcceptor): void => {
        // The first declaration of each name; its line is found only for a duplicate (finding every line on each
        // edit re-measured every declaration an edit moved).
        const seen = new Map<string, Named>();
        const others = visibleSpecs(spec, services).slice(1);
        for (const el of spec.elements as Named[]) {
            // Clauses of one rule share its name (a base and a recursive step).
            if (!el.name || el.$type === 'Rule') continue;
            const key = `${el.$type}:${el.name}`;
            const kind = KIND_WORDS[el.$type] ?? el.$type.toLowerCase();
            if (seen.has(key)) {
                accept(
                    'error',
                    `Duplicate ${kind} name '${el.name}': it is already declared on line ${(seen.get(key)!.$cstNode?.range.start.line ?? 0) + 1}. Rename one of them.`,
                    { node: el, property: 'name', code: 'duplicate-name' },
                );
                continue;
            }
            seen.set(key, el);
            const clash = others.find(o => (o.spec.elements as Named[]).some(x => x.$type === el.$type && x.name === el.name));
            if (clash)
                accept(
                    'error',
                    `Duplicate ${kind} name '${el.name}': it is also declared in the imported file ${shortName(clash.doc)}. Rename one of them.`,
                    { node: el, property: 'name', code: 'duplicate-name' },
                );
        }
    };
}

/** Attribute names are unique within their relation. */
export function checkUniqueAttributes(relation: Relation, accept: ValidationAcceptor): void {
    const seen = new Set<string>();
    for (const a of relation.attributes) {
        if (seen.has(a.name))
            accept('error', `Relation ${relation.name} already has an attribute '${a.name}'. Rename one of them.`, {
                node: a,
                property: 'name',
                code: 'duplicate-name',
            });
        seen.add(a.name);
    }
}

/** An import must name a file that exists (and not the importing file itself). */
export function checkImport(services: ProbeServices) {
    return (imp: Import, accept: ValidationAcceptor): void => {
        if (!imp.path) return;
        const doc = AstUtils.getDocument(imp);
        const target = UriUtils.resolvePath(UriUtils.dirname(doc.uri), imp.path);
        if (target.toString() === doc.uri.toString()) {
            accept('warning', 'A file cannot import itself; remove this import.', {
                node: imp,
                property: 'path',
                code: 'self-import',
            });
            return;
        }
        const loaded = services.shared.workspace.LangiumDocuments.getDocument(target);
        if (loaded && isSpec(loaded.parseResult.value)) {
            const cycle = importCycle(services, loaded, doc.uri.toString());
            if (cycle)
                accept(
                    'warning',
                    `The imports form a cycle: ${[doc.uri, ...cycle].map(u => UriUtils.basename(u)).join(' → ')}. Each file is read once, so nothing is declared twice, but a cycle is easy to break by accident: move what both files need into a third one they both import.`,
                    { node: imp, property: 'path', code: 'import-cycle' },
                );
            return;
        }
        let state: 'file' | 'folder' | 'missing' = 'missing';
        let facts: FileFacts | undefined;
        try {
            const fsp = services.shared.workspace.FileSystemProvider;
            if (target.scheme === 'file' && fsp.existsSync(target))
                facts = { ...fsp.statSync(target), size: fileSize(target.fsPath) };
            if (facts) state = facts.isDirectory ? 'folder' : 'file';
        } catch {
            state = 'missing';
        }
        const where = target.scheme === 'file' ? target.fsPath : target.toString();
        const problem = state === 'file' ? specFileProblem(imp.path, facts) : undefined;
        if (problem) accept('error', problem, { node: imp, property: 'path', code: 'bad-import' });
        if (state === 'missing')
            accept(
                'error',
                `Imported file not found: ${imp.path} (resolved to ${where}). Check the path, which is relative to this file.`,
                { node: imp, property: 'path', code: 'missing-import' },
            );
        if (state === 'folder')
            accept('error', `${imp.path} is a folder (${where}); import a .probe file in it.`, {
                node: imp,
                property: 'path',
                code: 'missing-import',
            });
    };
}

/** The chain of documents from `from` back to `start` through imports (loaded documents only), if there is one. */
function importCycle(services: ProbeServices, from: LangiumDocument, start: string): URI[] | undefined {
    const documents = services.shared.workspace.LangiumDocuments;
    const seen = new Set<string>();
    const walk = (doc: LangiumDocument, path: URI[]): URI[] | undefined => {
        const key = doc.uri.toString();
        if (key === start) return path;
        if (seen.has(key) || path.length > 50) return undefined;
        seen.add(key);
        const root = doc.parseResult.value;
        if (!isSpec(root)) return undefined;
        for (const imp of root.imports) {
            if (!imp.path) continue;
            const next = documents.getDocument(UriUtils.resolvePath(UriUtils.dirname(doc.uri), imp.path));
            const found = next && walk(next, [...path, next.uri]);
            if (found) return found;
        }
        return undefined;
    };
    return walk(from, [from.uri]);
}
