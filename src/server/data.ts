import { URI, type LangiumDocument } from 'langium';
import type { Diagnostic } from 'vscode-languageserver-types';
import type { LangiumSharedServices } from 'langium/lsp';
import { buildSpecModel } from '../core/language/index.js';
import { importedDocuments } from '../core/language/index.js';
import type { SpecModel } from '../core/spec/index.js';
import type { LoadedData } from '../core/data/index.js';
import type { LoadOptions } from '../core/data/index.js';
import { dataOptionsFor } from '../core/spec/index.js';
import { toSpecDiagnostic, type SpecDiagnostic } from '../core/spec/index.js';

/** Loads the data of a spec; the server passes the data layer's `loadData` bound to ONE DataCache. */
export type DataLoader = (spec: SpecModel, options: LoadOptions) => Promise<LoadedData>;

export interface SpecData {
    spec: SpecModel;
    data: LoadedData;
}

/**
 * The spec (a document and everything it imports) and its loaded data, for diagnostics and hovers. The result
 * is remembered per set of document versions, so validation and the hovers that follow share one load; the
 * data layer's cache makes a reload after a spec-only edit cheap.
 */
export class SpecDataService {
    private last = new Map<string, { key: string; value: Promise<SpecData | undefined> }>();

    /** Called with the data files a document's spec reads, after each load (the server watches them). */
    onLoaded: ((documentUri: string, files: string[]) => void) | undefined;

    constructor(
        private readonly shared: LangiumSharedServices,
        private readonly loader: DataLoader | undefined,
    ) {}

    /** Forgets every remembered load, so the next validation asks the data layer again (a data file changed). */
    invalidate(): void {
        this.last.clear();
    }

    get enabled(): boolean {
        return this.loader !== undefined;
    }

    /**
     * `diagnostics`: the language diagnostics of `document` when they are being computed right now (during
     * validation); otherwise each document's last published ones are used. Relations whose declarations have
     * errors are not loaded, as in `halluprobe check`.
     */
    forDocument(document: LangiumDocument, diagnostics?: Diagnostic[]): Promise<SpecData | undefined> {
        const loader = this.loader;
        if (!loader) return Promise.resolve(undefined);
        const documents = this.shared.workspace.LangiumDocuments;
        const docs = [...importedDocuments(document, documents)]
            .map(uri => (uri === document.uri.toString() ? document : documents.getDocument(URI.parse(uri))))
            .filter((d): d is LangiumDocument => d !== undefined);
        const key = docs.map(d => `${d.uri.toString()}@${d.textDocument.version}`).join('|');
        const cached = this.last.get(document.uri.toString());
        if (cached && cached.key === key) return cached.value;
        const value = (async () => {
            const spec = buildSpecModel(docs);
            const language: SpecDiagnostic[] = docs.flatMap(d =>
                ((d === document ? diagnostics : undefined) ?? d.diagnostics ?? []).map(x => toSpecDiagnostic(d, x)),
            );
            try {
                const data = await loader(spec, dataOptionsFor({ model: spec, documents: docs }, language));
                this.onLoaded?.(
                    document.uri.toString(),
                    spec.sources.map(s => s.path),
                );
                return { spec, data };
            } catch (e) {
                // The data layer reports bad data as diagnostics; an exception here is a bug, so keep the editor working.
                console.error(`HalluProbe: loading data failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
                return undefined;
            }
        })();
        this.last.set(document.uri.toString(), { key, value });
        return value;
    }
}
