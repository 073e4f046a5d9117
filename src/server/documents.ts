/**
 * A language server that never dies on document events: a document whose file vanished (deleted while open,
 * or never saved and then closed, or gone between the workspace scan and its read) keeps its last text instead of throwing ENOENT in the middle of a build — a
 * build that throws leaves documents half-built and every later request waiting for them forever.
 */
import {
    type AstNode,
    type Cancellation,
    type LangiumDocument,
    type ParseResult,
    type ParserOptions,
    type TextDocument,
    type URI,
} from 'langium';
import { ProbeDocumentFactory, unparseableMessage } from '../core/language/index.js';

/** The engine's factory (an edit re-parses only what it touched), made safe for the editor's document events. */
export class SafeDocumentFactory extends ProbeDocumentFactory {
    /**
     * A file listed by the workspace scan (or an import) that is gone before it is read is an empty document:
     * throwing here would leave the workspace never "ready", and every request waiting for it. The watcher's
     * delete event then removes it.
     */
    protected override async getInitialText(uri: URI, token: Cancellation.CancellationToken): Promise<string> {
        try {
            return await super.getInitialText(uri, token);
        } catch (e) {
            if ((e as NodeJS.ErrnoException).code === 'ENOENT') return '';
            throw e;
        }
    }

    protected override async getUpdatedText(
        document: LangiumDocument,
        textDocument: TextDocument | undefined,
        token: Cancellation.CancellationToken,
    ): Promise<string> {
        try {
            return await super.getUpdatedText(document, textDocument, token);
        } catch {
            // The builder drops documents that are neither open nor on disk; this covers the race in between.
            return document.parseResult.value.$cstNode?.root.fullText ?? '';
        }
    }

    /**
     * A text the parser cannot take (it threw) is an empty spec with one error at its start naming the cause: a
     * parse that throws would stop the workspace build, and with it every other document's diagnostics and hovers.
     */
    protected override parse<T extends AstNode>(uri: URI, text: string, options?: ParserOptions): ParseResult<T> {
        try {
            return super.parse<T>(uri, text, options);
        } catch (e) {
            return this.unparseable<T>(uri, text, e);
        }
    }

    protected override async parseAsync<T extends AstNode>(
        uri: URI,
        text: string,
        token: Cancellation.CancellationToken,
    ): Promise<ParseResult<T>> {
        try {
            return await super.parseAsync<T>(uri, text, token);
        } catch (e) {
            return this.unparseable<T>(uri, text, e);
        }
    }

    private unparseable<T extends AstNode>(uri: URI, text: string, e: unknown): ParseResult<T> {
        const result = super.parse<T>(uri, '', undefined);
        result.lexerErrors.push({ offset: 0, line: 1, column: 1, length: 0, message: unparseableMessage(text, e) });
        return result;
    }
}
