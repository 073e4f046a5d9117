import type { AstNode } from 'langium';
import { AbstractFormatter, Formatting } from 'langium/lsp';
import {
    isAliases,
    isAttribute,
    isAttributePath,
    isAttributeTuple,
    isFd,
    isModel,
    isProbe,
    isRelation,
    isSource,
    isSpec,
    isSuite,
} from '../../core/language/index.js';

/**
 * The house layout of a spec: one declaration per line (blank lines between them are kept), blocks opened on
 * the declaration's line, one member per line indented by 4 spaces, `}` on its own line; `a, b` and `a -> b`.
 */
export class ProbeFormatter extends AbstractFormatter {
    protected format(node: AstNode): void {
        const f = this.getNodeFormatter(node);
        if (isSpec(node)) {
            const top = [...node.imports, ...node.elements].sort((a, b) => (a.$cstNode?.offset ?? 0) - (b.$cstNode?.offset ?? 0));
            const [first, ...rest] = top;
            if (first) f.node(first).prepend(Formatting.noIndent());
            f.nodes(...rest).prepend(Formatting.newLine({ allowMore: true }));
            return;
        }
        if (isRelation(node) || isSource(node) || isProbe(node) || isModel(node) || isSuite(node) || isAliases(node)) {
            const open = f.keyword('{');
            const close = f.keyword('}');
            open.prepend(Formatting.oneSpace());
            f.interior(open, close).prepend(Formatting.indent());
            close.prepend(Formatting.newLine());
        }
        f.keywords(',').prepend(Formatting.noSpace()).append(Formatting.oneSpace());
        f.keywords('->').surround(Formatting.oneSpace());
        if (isAttributePath(node) || isAttributeTuple(node)) f.keywords('.').surround(Formatting.noSpace());
        if (isFd(node) || isAttribute(node)) f.keyword(':').prepend(Formatting.noSpace()).append(Formatting.oneSpace());
    }
}
