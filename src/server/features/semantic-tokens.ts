import { AstUtils, isReference, type AstNode, type Reference } from 'langium';
import { AbstractSemanticTokenProvider, type SemanticTokenAcceptor } from 'langium/lsp';
import { SemanticTokenModifiers, SemanticTokenTypes } from 'vscode-languageserver';
import { isAsk, isGoldWhen, isOption, isPhrasing, isStem } from '../../core/language/index.js';
import { stringOffsets } from '../../core/language/index.js';
import { parseExpression, parseTemplate, type Expr } from '../../core/spec/index.js';

/** Token type per kind of declaration; references to a thing get the same type as its declaration. */
const TYPES: Record<string, string> = {
    Source: SemanticTokenTypes.namespace,
    Relation: SemanticTokenTypes.class,
    Attribute: SemanticTokenTypes.property,
    Fd: SemanticTokenTypes.method,
    Fk: SemanticTokenTypes.method,
    Probe: SemanticTokenTypes.function,
    Model: SemanticTokenTypes.variable,
    Suite: SemanticTokenTypes.namespace,
};

/** Colours names by what they name, and the attribute names and functions inside {placeholders}. */
export class ProbeSemanticTokenProvider extends AbstractSemanticTokenProvider {
    protected highlightElement(node: AstNode, acceptor: SemanticTokenAcceptor): void {
        const type = TYPES[node.$type];
        if (type && (node as { name?: unknown }).name !== undefined)
            acceptor({ node, property: 'name' as never, type, modifier: SemanticTokenModifiers.declaration });
        for (const [property, value] of Object.entries(node)) {
            if (property.startsWith('$')) continue;
            const refs = Array.isArray(value) ? value : [value];
            refs.forEach((ref, index) => {
                if (!isReference(ref)) return;
                const target = (ref as Reference).ref;
                const t = target ? TYPES[target.$type] : undefined;
                if (t) acceptor({ node, property: property as never, index: Array.isArray(value) ? index : undefined, type: t });
            });
        }
        if (isPhrasing(node) || isStem(node) || isOption(node) || isAsk(node)) this.placeholders(node, 'text', acceptor);
        if (isGoldWhen(node)) this.placeholders(node, 'condition', acceptor);
    }

    private placeholders(node: AstNode, property: 'text' | 'condition', acceptor: SemanticTokenAcceptor): void {
        const text = (node as unknown as Record<string, string>)[property];
        const at = stringOffsets(node, property);
        if (typeof text !== 'string' || !at) return;
        const doc = AstUtils.getDocument(node).textDocument;
        const emit = (offset: number, length: number, type: string) =>
            acceptor({ range: { start: doc.positionAt(at(offset)), end: doc.positionAt(at(offset + length - 1) + 1) }, type });
        const visit = (e: Expr): void => {
            if (e.kind === 'name') emit(e.offset, e.length, SemanticTokenTypes.property);
            else if (e.kind === 'call') {
                emit(e.offset, e.fn.length, SemanticTokenTypes.function);
                e.args.forEach(visit);
            } else if (e.kind === 'unary') visit(e.arg);
            else if (e.kind === 'binary') {
                visit(e.left);
                visit(e.right);
            }
        };
        if (property === 'condition') {
            const parsed = parseExpression(text, 0);
            if ('expr' in parsed) visit(parsed.expr);
        } else {
            for (const part of parseTemplate(text).parts) if (part.kind === 'placeholder') visit(part.expr);
        }
    }
}
