import { GrammarUtils, type AstNode, type LangiumDocument } from 'langium';
import { DefaultDocumentSymbolProvider } from 'langium/lsp';
import { SymbolKind, type DocumentSymbol } from 'vscode-languageserver';
import { isFd, isFk, type AttributeTuple } from '../../core/language/index.js';

/** The outline: Langium's named declarations, plus unnamed fds and fks shown as what they say (`Movie: a -> b`). */
export class ProbeDocumentSymbolProvider extends DefaultDocumentSymbolProvider {
    protected override getSymbol(document: LangiumDocument, node: AstNode): DocumentSymbol[] {
        const unnamed = (isFd(node) || isFk(node)) && !node.name && node.$cstNode;
        if (!unnamed) return super.getSymbol(document, node);
        const keyword = GrammarUtils.findNodeForKeyword(node.$cstNode, isFd(node) ? 'fd' : 'fk') ?? node.$cstNode!;
        const side = (t: AttributeTuple | undefined) =>
            t ? `${t.relation?.$refText}.${t.attributes.map(a => a.$refText).join(', ')}` : '?';
        const name = isFd(node)
            ? `${node.relation?.$refText}: ${node.lhs.map(a => a.$refText).join(', ')} -> ${node.rhs.map(a => a.$refText).join(', ')}`
            : `${side(node.from)} -> ${side(node.to)}`;
        return [
            {
                name: `${isFd(node) ? 'fd' : 'fk'} ${name}`,
                kind: SymbolKind.Function,
                range: node.$cstNode!.range,
                selectionRange: keyword.range,
            },
        ];
    }
}
