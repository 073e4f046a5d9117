/**
 * The index of references (for "find references", "rename", and to know which documents an edit affects), made
 * when it is first asked for instead of in every build. Langium builds it for a whole document after each edit
 * (a description of every reference: a path and a segment each), about a fifth of an edit's time on a
 * 2,000-line spec, while most edits are followed by no request that reads it.
 */
import {
    AstUtils,
    DefaultIndexManager,
    DefaultReferenceDescriptionProvider,
    DocumentState,
    type AstNode,
    type LangiumDocument,
    type LangiumSharedCoreServices,
    type ParseResult,
    type ReferenceDescription,
    type Stream,
    type URI,
} from 'langium';

/** Langium's reference descriptions, made at once for a whole parse (no cancellation points: it is asked for by a request). */
export class ReferenceDescriptions extends DefaultReferenceDescriptionProvider {
    describeNow(root: AstNode): ReferenceDescription[] {
        const out: ReferenceDescription[] = [];
        for (const node of AstUtils.streamAst(root)) {
            for (const info of AstUtils.streamReferences(node))
                if (!info.reference.error) out.push(...this.createInfoDescriptions(info));
        }
        return out;
    }
}

export class LazyReferenceIndexManager extends DefaultIndexManager {
    /** Documents whose references are not indexed yet, with the parse they were linked in. */
    private readonly pending = new Map<string, { document: LangiumDocument; parse: ParseResult<AstNode> }>();
    private readonly shared: LangiumSharedCoreServices;

    constructor(services: LangiumSharedCoreServices) {
        super(services);
        this.shared = services;
    }

    override async updateReferences(document: LangiumDocument): Promise<void> {
        const uri = document.uri.toString();
        this.referenceIndex.delete(uri);
        this.pending.set(uri, { document, parse: document.parseResult });
    }

    override removeReferences(uri: URI): void {
        this.pending.delete(uri.toString());
        super.removeReferences(uri);
    }

    override findAllReferences(targetNode: AstNode, astNodePath: string): Stream<ReferenceDescription> {
        this.index();
        return super.findAllReferences(targetNode, astNodePath);
    }

    override isAffected(document: LangiumDocument, changedUris: Set<string>): boolean {
        this.index(document.uri.toString());
        return super.isAffected(document, changedUris);
    }

    /** Indexes the pending documents (one, or all) that are still linked as they were when their build asked. */
    private index(only?: string): void {
        const todo = only ? (this.pending.has(only) ? [[only, this.pending.get(only)!] as const] : []) : [...this.pending];
        for (const [uri, { document, parse }] of todo) {
            this.pending.delete(uri);
            // Changed since (re-parsed, or reset before linking): the next build indexes it again.
            if (document.parseResult !== parse || document.state < DocumentState.IndexedReferences) continue;
            const describe = this.shared.ServiceRegistry.getServices(document.uri).workspace.ReferenceDescriptionProvider;
            this.referenceIndex.set(uri, describe instanceof ReferenceDescriptions ? describe.describeNow(parse.value) : []);
        }
    }
}
