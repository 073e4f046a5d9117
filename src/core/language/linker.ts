import {
    AstUtils,
    DefaultLinker,
    interruptAndCheck,
    isAstNode,
    type AstNode,
    type AstNodeDescription,
    type AstNodeDescriptionProvider,
    type Cancellation,
    type LangiumCoreServices,
    type LangiumDocument,
    type LinkingError,
    type NameProvider,
    type Reference,
    type ReferenceInfo,
} from 'langium';
import { closest } from './validation/suggest.js';
import { isLive } from './descriptions.js';
import { importedDocuments } from './scope.js';

/** Langium's reference object, as the linker keeps it (resolved target and its description). */
interface LinkedReference {
    _ref?: unknown;
    _nodeDescription?: AstNodeDescription;
    node?: AstNode;
    $refNode?: { astNode: AstNode };
}

/** What the user calls each kind of thing a reference can name. */
export const KIND_WORDS: Record<string, string> = {
    Source: 'source',
    Relation: 'relation',
    Attribute: 'attribute',
    Fd: 'fd',
    Fk: 'fk',
    Probe: 'probe',
    Model: 'model',
    Suite: 'suite',
    Rule: 'rule',
    UsingTarget: 'fd or rule',
};

/**
 * Names the kind of thing that could not be found and suggests the closest visible name, because
 * Langium's default ("Could not resolve reference to Attribute named 'x'") tells the user neither.
 */
export class ProbeLinker extends DefaultLinker {
    /**
     * Per tree (a document's root node, which an edit that re-parses part of it keeps; so does `loadSpec` handing
     * a file's tree to its new document): the references linked in its last build, kept by `unlink` for the next
     * `link`, and the files its document saw.
     */
    private readonly linked = new WeakMap<AstNode, { references: Reference[]; visible: string }>();
    private readonly descriptions: AstNodeDescriptionProvider;
    private readonly names: NameProvider;

    constructor(services: LangiumCoreServices) {
        super(services);
        this.descriptions = services.workspace.AstNodeDescriptionProvider;
        this.names = services.references.NameProvider;
    }

    /**
     * Forgets the links only for the next `link` to decide: a reference whose declaration and target are both
     * still in their documents, in the same place, with the same files visible, keeps its target.
     */
    override unlink(document: LangiumDocument): void {
        const root = document.parseResult.value;
        const known = this.linked.get(root);
        // A build cancelled between unlink and link leaves its references waiting here: keep them all.
        this.linked.set(root, {
            references: [...(known?.references ?? []), ...(document.references as Reference[])],
            visible: known?.visible ?? '',
        });
        document.references = [];
    }

    /**
     * Links only what an edit can have changed. After an edit re-parsed a few declarations (incremental.ts), the
     * others are the same nodes with the same references: each keeps its target when the target is still in its
     * document, in a declaration the edit left alone, and the document sees the same files (a target that only
     * moved, lines added above it, gets a fresh description of where it is); every other reference (in a new
     * declaration, unresolved before, or pointing into what changed) is resolved again. Linking a whole 2,000-line
     * spec on every keystroke was a fifth of an edit's time.
     */
    override async link(document: LangiumDocument, cancelToken?: Cancellation.CancellationToken): Promise<void> {
        const root = document.parseResult.value;
        const before = this.linked.get(root);
        const visible = [...importedDocuments(document, this.langiumDocuments())].sort().join('\u0000');
        // From here the document's references are `document.references` again (Langium's own list).
        this.linked.set(root, { references: [], visible });
        // Top-level declarations whose references all keep their targets need no walk.
        const settled = new Set<AstNode>();
        /** Per target: kept, with the description of where it is now (undefined: resolve again). */
        const there = new Map<AstNode, AstNodeDescription | undefined>();
        const unsettled = new Set<AstNode>();
        for (const reference of before?.references ?? []) {
            const ref = reference as unknown as LinkedReference;
            const container = ref.node;
            const top = container && declarationOf(container, root);
            if (!top) continue;
            const target = ref._ref;
            let now: AstNodeDescription | undefined;
            if (before!.visible === visible && isAstNode(target)) {
                if (!there.has(target)) there.set(target, this.whereNow(target, ref._nodeDescription));
                now = there.get(target);
            }
            if (now) {
                ref._nodeDescription = now;
                document.references.push(reference);
                settled.add(top);
            } else {
                ref._ref = undefined;
                delete ref._nodeDescription;
                unsettled.add(top);
            }
        }
        for (const top of AstUtils.streamContents(root)) {
            if (settled.has(top) && !unsettled.has(top)) continue;
            for (const node of AstUtils.streamAst(top)) {
                if (cancelToken) await interruptAndCheck(cancelToken);
                AstUtils.streamReferences(node).forEach(ref => this.doLink(ref, document));
            }
        }
        // The spec node itself holds no references (imports are paths), so nothing else to link.
    }

    /** The target's description when it is still in its document's tree (refreshed if it moved), else undefined. */
    private whereNow(target: AstNode, description: AstNodeDescription | undefined): AstNodeDescription | undefined {
        if (!description) return undefined;
        const root = AstUtils.findRootNode(target);
        if ((root as { $document?: LangiumDocument }).$document?.parseResult.value !== root || !declarationOf(target, root))
            return undefined;
        if (isLive(description) || sameSpot(target, description)) return description;
        const name = this.names.getName(target);
        return name === undefined ? undefined : this.descriptions.createDescription(target, name);
    }

    protected override createLinkingError(refInfo: ReferenceInfo, targetDescription?: AstNodeDescription): LinkingError {
        const base = super.createLinkingError(refInfo, targetDescription);
        if (targetDescription) return base;
        const type = this.reflection.getReferenceType(refInfo);
        const kind = KIND_WORDS[type] ?? type.toLowerCase();
        const refText = refInfo.reference.$refText;
        let names: string[] = [];
        try {
            names = this.scopeProvider
                .getScope(refInfo)
                .getAllElements()
                .map(d => d.name)
                .toArray();
        } catch {
            // A scope that cannot be computed (e.g. its relation is itself unresolved) has no suggestions.
        }
        const suggestion = closest(refText, names);
        const where = type === 'Attribute' ? attributeContext(refInfo) : '';
        const message =
            `Unknown ${kind} '${refText}'${where}.` +
            (suggestion
                ? ` Did you mean '${suggestion}'?`
                : names.length > 0 && names.length <= 8
                  ? ` Known ${kind}s: ${names.join(', ')}.`
                  : names.length === 0
                    ? ` No ${kind}s are declared here${type === 'Attribute' ? '' : ' or in imported files'}.`
                    : '');
        return { ...base, message, data: { suggestion, kind } } as LinkingError;
    }
}

/**
 * The description still says where the target is: the same top-level declaration index (its path is that
 * declaration's path and the unchanged path inside it) and the same start.
 */
function sameSpot(target: AstNode, description: AstNodeDescription): boolean {
    const root = AstUtils.findRootNode(target);
    const top = declarationOf(target, root)!;
    const prefix = `/${top.$containerProperty}@${top.$containerIndex}`;
    if (description.path !== prefix && !description.path.startsWith(`${prefix}/`)) return false;
    const at = target.$cstNode?.range.start;
    const was = description.selectionSegment?.range.start;
    return at !== undefined && was !== undefined && at.line === was.line && at.character === was.character;
}

/** The top-level declaration holding `node` in the tree `root`, or undefined when it is no longer part of it. */
function declarationOf(node: AstNode, root: AstNode): AstNode | undefined {
    let top = node;
    while (top.$container && top.$container !== root) top = top.$container;
    if (top.$container !== root || top.$containerProperty === undefined) return undefined;
    const list = (root as unknown as Record<string, unknown>)[top.$containerProperty];
    return Array.isArray(list) ? (list[top.$containerIndex ?? -1] === top ? top : undefined) : list === top ? top : undefined;
}

function attributeContext(refInfo: ReferenceInfo): string {
    const rel = (refInfo.container as { relation?: { $refText?: string; ref?: { name: string } } }).relation;
    const name = rel?.ref?.name ?? rel?.$refText;
    return name ? ` in relation ${name}` : '';
}
