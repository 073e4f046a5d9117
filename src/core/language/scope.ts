import {
    AstUtils,
    Cancellation,
    DefaultScopeComputation,
    interruptAndCheck,
    DefaultScopeProvider,
    EMPTY_SCOPE,
    MapScope,
    MultiMap,
    UriUtils,
    WorkspaceCache,
    type AstNode,
    type AstNodeDescription,
    type ReferenceInfo,
    type Scope,
    type LangiumCoreServices,
    type LangiumDocument,
} from 'langium';
import {
    isAttributePath,
    isAttributeTuple,
    isDuring,
    isFd,
    isKey,
    isLookup,
    isOption,
    isProbe,
    isRelation,
    isSpec,
    type Relation,
    type Spec,
} from './generated/ast.js';

/**
 * Attribute names are only meaningful inside their relation, so each attribute reference is resolved against
 * the relation its context names; every other reference sees the current file and the files it imports.
 */
export class ProbeScopeProvider extends DefaultScopeProvider {
    private readonly documents: LangiumCoreServices['shared']['workspace']['LangiumDocuments'];
    private readonly visibleCache: WorkspaceCache<string, Scope>;
    /** Per relation node: a reparse makes new nodes, so entries of edited documents simply fall away. */
    private readonly attributeScopes = new WeakMap<Relation, Scope>();

    constructor(services: LangiumCoreServices) {
        super(services);
        this.documents = services.shared.workspace.LangiumDocuments;
        this.visibleCache = new WorkspaceCache(services.shared);
    }

    override getScope(context: ReferenceInfo): Scope {
        if (
            context.property === 'attributes' ||
            context.property === 'lhs' ||
            context.property === 'rhs' ||
            context.property === 'attribute' ||
            context.property === 'value'
        ) {
            const relation = relationOfAttributeContext(context.container);
            if (relation !== undefined) {
                let scope = this.attributeScopes.get(relation);
                if (!scope) {
                    const descriptions = relation.attributes
                        .filter(a => a.name !== undefined)
                        .map(a => this.descriptions.createDescription(a, a.name));
                    this.attributeScopes.set(relation, (scope = this.createScope(descriptions)));
                }
                return scope;
            }
            if (
                isLookup(context.container) ||
                isAttributePath(context.container) ||
                isAttributeTuple(context.container) ||
                isFd(context.container) ||
                isKey(context.container) ||
                isOption(context.container)
            ) {
                return EMPTY_SCOPE;
            }
        }
        // Every other name is a top-level declaration, which the index already holds (this file's too), so the
        // import-aware global scope alone answers, by hash lookup rather than Langium's scan of local symbols.
        return this.getGlobalScope(this.reflection.getReferenceType(context), context);
    }

    protected override getGlobalScope(referenceType: string, context: ReferenceInfo): Scope {
        const document = AstUtils.getDocument(context.container);
        return this.visibleCache.get(`${document.uri.toString()}\u0000${referenceType}`, () => {
            const visible = importedDocuments(document, this.documents);
            // Materialised: the index's stream may be single-use, and this scope is cached and read many times.
            const elements = this.indexManager
                .allElements(referenceType)
                .filter(d => visible.has(d.documentUri.toString()))
                .toArray();
            return new MapScope(elements);
        });
    }
}

/**
 * No local symbols: the scope provider above resolves every name from the index or from its relation's
 * attributes, never from them, and collecting them walked every node of a document on each edit.
 */
export class ProbeScopeComputation extends DefaultScopeComputation {
    /** Per top-level node: its export (null: it has no name), with its document; the description reads its place when asked. */
    private readonly exported = new WeakMap<AstNode, { uri: string; description: AstNodeDescription | null }>();

    override async collectLocalSymbols(): Promise<MultiMap<AstNode, AstNodeDescription>> {
        return new MultiMap();
    }

    /**
     * The top-level declarations, as Langium exports them, described once per node: an edit that re-parsed a
     * few declarations keeps the other nodes, so only the new ones are described (live descriptions: descriptions.ts).
     */
    override async collectExportedSymbols(
        document: LangiumDocument,
        cancelToken = Cancellation.CancellationToken.None,
    ): Promise<AstNodeDescription[]> {
        const uri = document.uri.toString();
        const exports: AstNodeDescription[] = [];
        const root = document.parseResult.value;
        // One check for cancellation: describing a node is cheap now (no positions computed), so no await per node.
        await interruptAndCheck(cancelToken);
        for (const node of [root, ...AstUtils.streamContents(root)]) {
            let known = this.exported.get(node);
            if (!known || known.uri !== uri) {
                const name = this.nameProvider.getName(node);
                this.exported.set(
                    node,
                    (known = { uri, description: name ? this.descriptions.createDescription(node, name, document) : null }),
                );
            }
            if (known.description) exports.push(known.description);
        }
        return exports;
    }
}

/** The relation whose attributes a reference in `node` may name, or undefined when it cannot be known yet. */
function relationOfAttributeContext(node: AstNode): Relation | undefined {
    if (isKey(node) || isDuring(node)) return node.$container;
    if (isFd(node)) return node.relation?.ref;
    if (isAttributeTuple(node) || isAttributePath(node)) return node.relation?.ref;
    if (isLookup(node)) return node.key?.relation?.ref;
    if (isOption(node)) {
        const fd = isProbe(node.$container) ? node.$container.fd?.ref : undefined;
        return isFd(fd) ? fd.relation?.ref : undefined;
    }
    if (isRelation(node)) return node;
    return undefined;
}

/** URIs of `document` and of every document it imports, transitively, that the workspace has loaded. */
export function importedDocuments(
    document: LangiumDocument,
    documents: { getDocument(uri: import('langium').URI): LangiumDocument | undefined },
): Set<string> {
    const seen = new Set<string>();
    const stack: LangiumDocument[] = [document];
    while (stack.length > 0) {
        const doc = stack.pop()!;
        const key = doc.uri.toString();
        if (seen.has(key)) continue;
        seen.add(key);
        const root = doc.parseResult.value;
        if (!isSpec(root)) continue;
        for (const imp of (root as Spec).imports) {
            if (!imp.path) continue;
            const target = UriUtils.resolvePath(UriUtils.dirname(doc.uri), imp.path);
            const next = documents.getDocument(target);
            if (next !== undefined) stack.push(next);
        }
    }
    return seen;
}
