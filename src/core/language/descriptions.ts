/**
 * Descriptions of named nodes (what scopes, the index and references hold) that say where their node is now.
 * Langium's are snapshots: a path and segments computed when made. With an edit re-parsing only what it touched
 * (incremental.ts), an untouched declaration keeps its node while the text before it moves, so a snapshot goes
 * stale, and re-describing every declaration after every edit was a large part of an edit's time and garbage.
 * These read the node's path and segments when asked, so one description per node serves every build.
 */
import {
    CstUtils,
    DefaultAstNodeDescriptionProvider,
    AstUtils,
    type AstNode,
    type AstNodeDescription,
    type LangiumDocument,
} from 'langium';

const LIVE = Symbol('live description');

export class LiveDescriptionProvider extends DefaultAstNodeDescriptionProvider {
    override createDescription(node: AstNode, name: string | undefined, document?: LangiumDocument): AstNodeDescription {
        const doc = document ?? AstUtils.getDocument(node);
        name ??= this.nameProvider.getName(node);
        if (!name) throw new Error(`Node at path ${this.astNodeLocator.getAstNodePath(node)} has no name.`);
        const locator = this.astNodeLocator;
        const names = this.nameProvider;
        return {
            [LIVE]: true,
            node,
            name,
            type: node.$type,
            documentUri: doc.uri,
            get path() {
                return locator.getAstNodePath(node);
            },
            get selectionSegment() {
                return CstUtils.toDocumentSegment(node.$cstNode);
            },
            get nameSegment() {
                return CstUtils.toDocumentSegment(names.getNameNode(node) ?? node.$cstNode);
            },
        } as AstNodeDescription;
    }
}

/** The description reads its node's place when asked (it cannot be stale while the node is in its tree). */
export function isLive(description: AstNodeDescription): boolean {
    return (description as { [LIVE]?: boolean })[LIVE] === true;
}
