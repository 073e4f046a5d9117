import { statSync } from 'node:fs';
import { specFileProblem } from '../core/language/index.js';
import {
    Cancellation as CancellationNs,
    DefaultDocumentBuilder,
    DocumentState,
    OperationCancelled,
    UriUtils,
    type BuildOptions,
    type Cancellation,
    type LangiumDocument,
    type LangiumSharedCoreServices,
    type URI,
} from 'langium';

/** Turns of the event loop without an edit after which the connection counts as quiet (see `quiet`). */
const QUIET_TURNS = 3;

const IMPORT = /^\s*import\s+(?:"((?:\\.|[^"\\])*)"|'((?:\\.|[^'\\])*)')/gm;

/**
 * Builds, with the documents being built, the files they import that the workspace has not loaded (e.g. a
 * shared spec outside the opened folder), so their names resolve in the same build. Imports are found in
 * the text, before parsing, so the loaded files take part in every phase.
 */
export class ImportLoadingDocumentBuilder extends DefaultDocumentBuilder {
    private readonly services: LangiumSharedCoreServices;

    constructor(services: LangiumSharedCoreServices) {
        super(services);
        this.services = services;
    }

    /**
     * The editor's text is the truth for an open document, the disk for the others: a "changed" document that
     * is neither open nor on disk (closed before it was ever saved, a watcher event for a file already gone) is
     * a deleted one — building it would read a file that is not there — and a "deleted" file that is still open
     * is rebuilt from the editor's text, not dropped while requests about it wait for it.
     */
    override async update(changed: URI[], deleted: URI[], cancelToken?: Cancellation.CancellationToken): Promise<void> {
        const gone = changed.filter(uri => !this.isOpen(uri) && uri.scheme === 'file' && !safeExistsAny(this.services, uri));
        const stillOpen = deleted.filter(uri => this.isOpen(uri));
        const kept = [...changed.filter(uri => !gone.includes(uri)), ...stillOpen];
        return super.update(kept, [...deleted.filter(uri => !stillOpen.includes(uri)), ...gone], cancelToken);
    }

    private isOpen(uri: URI): boolean {
        const docs = (this.services as { workspace: { TextDocuments?: { get(uri: string): unknown } } }).workspace.TextDocuments;
        return docs?.get(uri.toString()) !== undefined;
    }

    /**
     * A document's diagnostics are published when it reaches Validated, even if the build was cancelled meanwhile.
     * Langium skips the phase's listeners once the build is cancelled but leaves the document Validated, so no
     * later build validates it again: the diagnostics just computed (after a slow data load, e.g. a database
     * connection that now has its password) were never published, and the editor kept showing the old ones.
     */
    protected override async notifyDocumentPhase(
        document: LangiumDocument,
        state: DocumentState,
        cancelToken: Cancellation.CancellationToken,
    ): Promise<void> {
        return super.notifyDocumentPhase(
            document,
            state,
            state === DocumentState.Validated ? CancellationNs.CancellationToken.None : cancelToken,
        );
    }

    protected override async buildDocuments(
        documents: LangiumDocument[],
        options: BuildOptions,
        cancelToken: Cancellation.CancellationToken,
    ): Promise<void> {
        if (documents.some(d => d.state < DocumentState.Parsed)) await quiet(cancelToken);
        const all = [...documents];
        const seen = new Set(all.map(d => d.uri.toString()));
        for (let i = 0; i < all.length; i++) {
            for (const target of importsOf(all[i]!, this.services)) {
                const key = target.toString();
                if (seen.has(key)) continue;
                seen.add(key);
                const documents = this.services.workspace.LangiumDocuments;
                if (documents.hasDocument(target)) continue;
                if (target.scheme !== 'file' || !safeExists(this.services, target)) continue; // reported by the missing-import check
                try {
                    all.push(await documents.getOrCreateDocument(target, cancelToken));
                } catch {
                    // An unreadable file stays unloaded; the import check reports it.
                }
            }
        }
        return super.buildDocuments(all, options, cancelToken);
    }
}

/**
 * Waits until the edits already received are handled: each edit cancels the build before it (Langium's workspace
 * lock), but the editor's messages are handled one per turn of the event loop, so a build that went straight to
 * parsing made every queued edit wait for a parse of a document the next edit replaces (hovers took 8–15 s after
 * a burst of edits of an 11,000-line spec). A few turns of the loop let the queued edits in; a build they
 * superseded stops here, before any work, and only the last text is parsed. Not a timer: with no edits queued
 * the build goes on at once.
 */
async function quiet(cancelToken: Cancellation.CancellationToken): Promise<void> {
    if (cancelToken === CancellationNs.CancellationToken.None) return;
    for (let turn = 0; turn < QUIET_TURNS; turn++) {
        await new Promise(resolve => setImmediate(resolve));
        if (cancelToken.isCancellationRequested) throw OperationCancelled;
    }
}

function importsOf(doc: LangiumDocument, services: LangiumSharedCoreServices): URI[] {
    const text =
        (
            services as { workspace: { TextDocuments?: { get(uri: string): { getText(): string } | undefined } } }
        ).workspace.TextDocuments?.get(doc.uri.toString())?.getText() ?? doc.textDocument.getText();
    const dir = UriUtils.dirname(doc.uri);
    return [...text.matchAll(IMPORT)].map(m => UriUtils.resolvePath(dir, (m[1] ?? m[2])!.replace(/\\(.)/g, '$1')));
}

/** A file or folder exists (a folder event stands for the documents in it). */
function safeExistsAny(services: LangiumSharedCoreServices, uri: URI): boolean {
    try {
        return services.workspace.FileSystemProvider.existsSync(uri);
    } catch {
        return false;
    }
}

function safeExists(services: LangiumSharedCoreServices, uri: URI): boolean {
    try {
        // Only regular .probe files of a sane size are loaded; the import check reports anything else.
        const fsp = services.workspace.FileSystemProvider;
        if (!fsp.existsSync(uri)) return false;
        const node = fsp.statSync(uri);
        let size: number | undefined;
        try {
            size = statSync(uri.fsPath).size;
        } catch {
            size = undefined;
        }
        return !node.isDirectory && !specFileProblem(uri.fsPath, { isFile: node.isFile, isDirectory: node.isDirectory, size });
    } catch {
        return false;
    }
}
