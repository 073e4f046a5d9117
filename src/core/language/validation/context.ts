import { AstUtils, URI, WorkspaceCache, type AstNode, type LangiumDocument } from 'langium';
import { isFk, isSpec, type Fk, type Relation, type Spec } from '../generated/ast.js';
import { importedDocuments } from '../scope.js';
import type { ProbeServices } from '../services.js';

/** The spec roots a node can see: its own file and every file it imports, transitively (own file first). */
export function visibleSpecs(node: AstNode, services: ProbeServices): { doc: LangiumDocument; spec: Spec }[] {
    const doc = AstUtils.getDocument(node);
    const documents = services.shared.workspace.LangiumDocuments;
    const out: { doc: LangiumDocument; spec: Spec }[] = [];
    for (const uri of importedDocuments(doc, documents)) {
        const d = uri === doc.uri.toString() ? doc : documents.getDocument(URI.parse(uri));
        const root = d?.parseResult.value;
        if (d && isSpec(root)) out.push({ doc: d, spec: root });
    }
    return out;
}

const fkCaches = new WeakMap<ProbeServices, WorkspaceCache<string, Fk[]>>();

/** The fks visible from a node's document; cached until the workspace changes (every template asks). */
export function visibleFks(node: AstNode, services: ProbeServices): Fk[] {
    let cache = fkCaches.get(services);
    if (!cache) fkCaches.set(services, (cache = new WorkspaceCache(services.shared)));
    return cache.get(AstUtils.getDocument(node).uri.toString(), () =>
        visibleSpecs(node, services).flatMap(v => v.spec.elements.filter(isFk)),
    );
}

/** Relations reachable from `start` by following fks forwards (start included), in breadth-first order. */
export function joinedRelations(start: Relation[], fks: Fk[]): Relation[] {
    const out = [...new Set(start)];
    for (let i = 0; i < out.length; i++) {
        for (const fk of fks) {
            if (fk.from?.relation?.ref === out[i]) {
                const to = fk.to?.relation?.ref;
                if (to && !out.includes(to)) out.push(to);
            }
        }
    }
    return out;
}

/** A Langium document's relative display name, for messages that point to another file. */
export function shortName(doc: LangiumDocument): string {
    const p = doc.uri.path;
    return p.slice(p.lastIndexOf('/') + 1);
}
