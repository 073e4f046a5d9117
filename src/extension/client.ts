/**
 * The language client: dist/server.cjs over IPC, started after the commands are registered. What belongs to one
 * client (the client itself, its file watcher) is disposed when the server restarts; what belongs to the
 * extension (commands, views, the Test Explorer) lives on in the Ctx.
 */
import * as vscode from 'vscode';
import { DATA_GLOB } from './settings.js';
import { LanguageClient, TransportKind, type LanguageClientOptions, type ServerOptions } from 'vscode-languageclient/node';
import type { Ctx } from './context.js';

export class LanguageServer implements vscode.Disposable {
    /** Client-lifetime disposables: gone with each restart. */
    private owned: vscode.Disposable[] = [];
    private client: LanguageClient | undefined;
    /** How many times the server was started (1 after activation). */
    starts = 0;

    constructor(private readonly ctx: Ctx) {}

    async start(): Promise<void> {
        const module = this.ctx.asset('dist', 'server.cjs').fsPath;
        const serverOptions: ServerOptions = {
            run: { module, transport: TransportKind.ipc },
            debug: { module, transport: TransportKind.ipc, options: { execArgv: ['--nolazy', '--inspect=6009'] } },
        };
        const watcher = vscode.workspace.createFileSystemWatcher(DATA_GLOB);
        const clientOptions: LanguageClientOptions = {
            documentSelector: [{ language: 'probe' }],
            synchronize: { fileEvents: watcher },
            outputChannel: this.ctx.output,
        };
        const client = new LanguageClient('halluprobe', 'HalluProbe language server', serverOptions, clientOptions);
        this.owned.push(watcher, client);
        this.client = client;
        this.starts++;
        await client.start();
    }

    /** Stops the client and its server process, disposes what they owned, and starts a fresh pair. */
    async restart(): Promise<void> {
        await this.stop();
        await this.start();
        this.ctx.output.info('language server restarted');
    }

    private async stop(): Promise<void> {
        const client = this.client;
        this.client = undefined;
        try { if (client?.isRunning()) await client.stop(); } catch (err) { this.ctx.output.warn(`stopping the language server: ${err instanceof Error ? err.message : String(err)}`); }
        for (const d of this.owned.splice(0).reverse()) {
            try { d.dispose(); } catch { /* one failing disposable must not keep the others alive */ }
        }
    }

    dispose(): void {
        void this.stop();
    }
}
