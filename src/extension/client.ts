/**
 * The language client: dist/server.cjs over IPC, started after the commands are registered. What belongs to one
 * client (the client itself, its file watcher) is disposed when the server restarts; what belongs to the
 * extension (commands, views, the Test Explorer) lives on in the Ctx.
 */
import * as vscode from 'vscode';
import { DATA_GLOB } from './settings.js';
import { LanguageClient, TransportKind, type LanguageClientOptions, type ServerOptions } from 'vscode-languageclient/node';
import type { Ctx } from './context.js';
import { redactingLog } from './redacting-channel.js';
import { DATABASE_PASSWORDS_NOTIFICATION, SOURCE_ACCESS_NOTIFICATION, type SourceAccessParams } from '../protocol/lsp.js';

export class LanguageServer implements vscode.Disposable {
    /** Client-lifetime disposables: gone with each restart. */
    private owned: vscode.Disposable[] = [];
    private client: LanguageClient | undefined;
    private started: Promise<void> | undefined;
    /** How many times the server was started (1 after activation). */
    starts = 0;
    /** The notifications sent to the running server, oldest first (names only; for the output channel and tests). */
    readonly sent: string[] = [];

    /**
     * `access`: what the server may read outside the workspace folders (sent at start and by `sendSourceAccess`);
     * `passwords`: the saved database passwords by database id (sent at start and by `sendDatabasePasswords`).
     */
    constructor(
        private readonly ctx: Ctx,
        private readonly access?: () => SourceAccessParams,
        private readonly passwords?: () => Record<string, string>,
    ) {}

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
            // At log level Trace the client writes every message it sends, the passwords below included: redacted.
            outputChannel: redactingLog(this.ctx.output, () => Object.values(this.passwords?.() ?? {})),
            initializationOptions: {
                // The server keeps the columns it read here, so a window reload does not parse the data files again.
                dataCacheDir: this.dataCacheDir(),
                ...(this.access ? { sourceAccess: this.access() } : {}),
                ...(this.passwords ? { databasePasswords: { passwords: this.passwords() } } : {}),
            },
        };
        const client = new LanguageClient('halluprobe', 'HalluProbe language server', serverOptions, clientOptions);
        this.owned.push(watcher, client);
        this.client = client;
        this.starts++;
        this.started = client.start();
        await this.started;
    }

    /** A folder of the workspace's storage (the extension's global storage without a workspace). */
    private dataCacheDir(): string {
        const context = this.ctx.extension;
        return vscode.Uri.joinPath(context.storageUri ?? context.globalStorageUri, 'data-cache').fsPath;
    }

    /** Tells the running server what it may read now (the user allowed a file, or trusted the workspace). */
    sendSourceAccess(): void {
        this.notify(SOURCE_ACCESS_NOTIFICATION, this.access && (() => this.access!()));
    }

    /** Tells the running server the saved database passwords (one was set or deleted). */
    sendDatabasePasswords(): void {
        this.notify(DATABASE_PASSWORDS_NOTIFICATION, this.passwords && (() => ({ passwords: this.passwords!() })));
    }

    /**
     * Sends a notification to the server, or — while it is starting — once it has started (a notification
     * dropped then would leave the server checking with what it knew at start).
     */
    private notify(method: string, params: (() => unknown) | undefined): void {
        if (!params) return;
        const client = this.client;
        if (!client) return;
        const send = () => {
            if (this.client !== client) return; // restarted meanwhile: the new server got the current state at start
            this.sent.push(method);
            client
                .sendNotification(method, params())
                .catch(err =>
                    this.ctx.output.warn(
                        `could not tell the language server (${method}): ${err instanceof Error ? err.message : String(err)}`,
                    ),
                );
        };
        if (client.isRunning()) send();
        else void this.started?.then(send, () => undefined);
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
        try {
            if (client?.isRunning()) await client.stop();
        } catch (err) {
            this.ctx.output.warn(`stopping the language server: ${err instanceof Error ? err.message : String(err)}`);
        }
        for (const d of this.owned.splice(0).reverse()) {
            try {
                d.dispose();
            } catch {
                /* one failing disposable must not keep the others alive */
            }
        }
    }

    dispose(): void {
        void this.stop();
    }
}
