/** Where a syntax node is: its file and range (a leaf, so the model builders can share it without a cycle). */
import { AstUtils, type AstNode } from 'langium';
import type { URI } from 'vscode-uri';
import type { SpecLocation } from '../spec/model.js';

/** Absolute file path of a document (file URIs) or the URI text (other schemes, e.g. tests in memory). */
export function documentPath(uri: URI): string {
    return uri.scheme === 'file' ? uri.fsPath : uri.toString();
}

export function locationOf(node: AstNode): SpecLocation {
    const doc = AstUtils.getDocument(node);
    const range = node.$cstNode?.range ?? { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
    return { file: documentPath(doc.uri), range: { start: { ...range.start }, end: { ...range.end } } };
}
