/**
 * The server's side of the editor's rule on data files outside the workspace folders (`sourceDecision`): the
 * client describes trust, first session and allowed files at initialisation and on every change. A client
 * that describes nothing (another editor, the tests) is not gated, as before.
 */
import type { InitializeParams } from 'vscode-languageserver';
import { URI } from 'langium';
import { accessFrom, insideFolders, sourceDecision, type SourceAccess } from '../core/data/index.js';
import type { SourceAccessParams } from '../protocol/lsp.js';

export class SourceGate {
    private access: SourceAccess | undefined;
    private folders: string[] = [];

    get active(): boolean {
        return this.access !== undefined;
    }

    initialize(params: InitializeParams): void {
        this.folders = (params.workspaceFolders ?? []).map(f => URI.parse(f.uri).fsPath);
        const given = (params.initializationOptions as { sourceAccess?: SourceAccessParams } | undefined)?.sourceAccess;
        if (given) this.update(given);
    }

    update(params: SourceAccessParams): void {
        this.access = accessFrom(params, this.folders);
    }

    /** A source inside the workspace folders: read whatever the editor allows (a database never is). */
    readonly inside = (file: string): boolean => insideFolders(file, this.folders);

    readonly readable = (file: string): boolean => !this.access || sourceDecision(file, this.access) === 'read';
}
