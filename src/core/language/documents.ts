/**
 * The language's document factory: a document whose text changed is parsed from its previous parse, re-parsing
 * only the declarations the change touched (incremental.ts), in the language server (each edit) and in the
 * engine (`loadSpec` of a file it loaded before: `check` after an edit).
 */
import {
    DefaultLangiumDocumentFactory,
    type AstNode,
    type Cancellation,
    type LangiumDocument,
    type ParseResult,
    type ParserOptions,
    type URI,
} from 'langium';
import { spliceParse } from './incremental.js';

export class ProbeDocumentFactory extends DefaultLangiumDocumentFactory {
    /** Per document URI: the parse its next parse may start from (taken by that parse). */
    private readonly previous = new Map<string, ParseResult<AstNode>>();

    /**
     * The next parse of `uri` (a `fromString`) starts from `parse`, which it may change in place: the caller
     * gives the old document up (its references unlinked) and uses the new one.
     */
    reuse(uri: URI, parse: ParseResult<AstNode>): void {
        this.previous.set(uri.toString(), parse);
    }

    override async update<T extends AstNode = AstNode>(
        document: LangiumDocument<T>,
        cancelToken: Cancellation.CancellationToken,
    ): Promise<LangiumDocument<T>> {
        this.reuse(document.uri, document.parseResult);
        try {
            return await super.update(document, cancelToken);
        } finally {
            this.previous.delete(document.uri.toString());
        }
    }

    protected override parse<T extends AstNode>(uri: URI, text: string, options?: ParserOptions): ParseResult<T> {
        return (this.spliced(uri, text) ?? super.parse<T>(uri, text, options)) as ParseResult<T>;
    }

    protected override async parseAsync<T extends AstNode>(
        uri: URI,
        text: string,
        token: Cancellation.CancellationToken,
    ): Promise<ParseResult<T>> {
        return (this.spliced(uri, text) ?? (await super.parseAsync<T>(uri, text, token))) as ParseResult<T>;
    }

    private spliced(uri: URI, text: string): ParseResult<AstNode> | undefined {
        const previous = this.previous.get(uri.toString());
        if (!previous) return undefined;
        this.previous.delete(uri.toString());
        try {
            return spliceParse(previous, text, whole => super.parse(uri, whole));
        } catch (e) {
            // A bug in the splice must not cost the document its parse: it is parsed whole, and the log says so.
            console.error(
                `HalluProbe: incremental parse failed, parsing the whole document: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`,
            );
            return undefined;
        }
    }
}
