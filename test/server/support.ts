/** Server-side services over the real file system and the real data layer, as the language server builds them. */
import * as path from 'node:path';
import * as fs from 'node:fs';
import { URI, type LangiumDocument } from 'langium';
import { NodeFileSystem } from 'langium/node';
import { DataCache, loadData, readHeader } from '../../src/core/data/index.js';
import { probeDiagnostics, withoutFollowOns } from '../../src/core/probes/index.js';
import { createProbeServerServices } from '../../src/server/module.js';

export const FIXTURES = path.resolve(import.meta.dirname, '../fixtures/language');

export function serverServices() {
    const cache = new DataCache();
    return createProbeServerServices(
        { ...NodeFileSystem },
        {
            loadData: (spec, options) => loadData(spec, cache, undefined, options),
            readHeader,
            moreDiagnostics: ({ spec, data }, reported) => withoutFollowOns(spec, probeDiagnostics(spec, data), reported),
        },
    );
}

export type Services = ReturnType<typeof serverServices>;

/** Opens `text` as the document at `file` (absolute path; need not exist) and builds it with validation. */
export async function open(s: Services, file: string, text?: string): Promise<LangiumDocument> {
    const uri = URI.file(file);
    const documents = s.shared.workspace.LangiumDocuments;
    if (documents.hasDocument(uri)) documents.deleteDocument(uri);
    const doc = s.shared.workspace.LangiumDocumentFactory.fromString(text ?? fs.readFileSync(file, 'utf8'), uri);
    documents.addDocument(doc);
    await s.shared.workspace.DocumentBuilder.build([doc], { validation: true });
    return doc;
}

/** The position of the n-th occurrence (0-based) of `needle` in the document, plus `delta` characters. */
export function at(doc: LangiumDocument, needle: string, delta = 0, nth = 0) {
    const text = doc.textDocument.getText();
    let offset = -1;
    for (let i = 0; i <= nth; i++) offset = text.indexOf(needle, offset + 1);
    if (offset < 0) throw new Error(`'${needle}' not in the document`);
    return doc.textDocument.positionAt(offset + delta);
}

export const params = (doc: LangiumDocument) => ({ textDocument: { uri: doc.uri.toString() } });
