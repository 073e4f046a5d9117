/** The language client: dist/server.cjs over IPC. Started after the commands are registered. */
import * as vscode from 'vscode';
import { DATA_GLOB } from './settings.js';
import { LanguageClient, TransportKind, type LanguageClientOptions, type ServerOptions } from 'vscode-languageclient/node';
import type { Ctx } from './context.js';

export async function startClient(ctx: Ctx): Promise<LanguageClient> {
    const module = ctx.asset('dist', 'server.cjs').fsPath;
    const serverOptions: ServerOptions = {
        run: { module, transport: TransportKind.ipc },
        debug: { module, transport: TransportKind.ipc, options: { execArgv: ['--nolazy', '--inspect=6009'] } },
    };
    const clientOptions: LanguageClientOptions = {
        documentSelector: [{ language: 'probe' }],
        synchronize: { fileEvents: vscode.workspace.createFileSystemWatcher(DATA_GLOB) },
        outputChannel: ctx.output,
    };
    const client = new LanguageClient('halluprobe', 'HalluProbe language server', serverOptions, clientOptions);
    ctx.push(client);
    await client.start();
    return client;
}
