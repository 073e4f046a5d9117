/**
 * A language server that never dies on document events: a document whose file vanished (deleted while open,
 * or never saved and then closed, or gone between the workspace scan and its read) keeps its last text instead of throwing ENOENT in the middle of a build — a
 * build that throws leaves documents half-built and every later request waiting for them forever.
 */
import { DefaultLangiumDocumentFactory, type AstNode, type Cancellation, type LangiumDocument, type ParseResult, type ParserOptions, type TextDocument, type URI } from 'langium';
import { spliceParse, unparseableMessage } from '../core/language/index.js';

export class SafeDocumentFactory extends DefaultLangiumDocumentFactory {
    /** The parse of each document being updated, until its new text is parsed (an edit re-parses only what it touched). */
    private readonly previous = new Map<string, ParseResult<AstNode>>();

    override async update<T extends AstNode = AstNode>(document: LangiumDocument<T>, cancelToken: Cancellation.CancellationToken): Promise<LangiumDocument<T>> {
        const key = document.uri.toString();
        this.previous.set(key, document.parseResult);
        try {
            return await super.update(document, cancelToken);
        } finally {
            this.previous.delete(key);
        }
    }

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

    protected override async getUpdatedText(document: LangiumDocument, textDocument: TextDocument | undefined, token: Cancellation.CancellationToken): Promise<string> {
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

    protected override async parseAsync<T extends AstNode>(uri: URI, text: string, token: Cancellation.CancellationToken): Promise<ParseResult<T>> {
        const previous = this.previous.get(uri.toString());
        if (previous) {
            try {
                const spliced = spliceParse(previous, text, whole => super.parse(uri, whole));
                if (spliced) return spliced as ParseResult<T>;
            } catch (e) {
                // A bug in the splice must not cost the document its parse: parse it whole (below), and say so.
                console.error(`HalluProbe: incremental parse failed, parsing the whole document: ${e instanceof Error ? e.stack ?? e.message : String(e)}`);
            }
        }
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
