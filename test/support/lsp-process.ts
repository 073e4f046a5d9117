/**
 * The bundled language server (dist/server.cjs) in its own process over a real LSP connection on stdio, as an
 * editor runs it: documents are opened and edited with notifications, diagnostics arrive as notifications and
 * are awaited as events, requests are real requests.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
    createMessageConnection,
    StreamMessageReader,
    StreamMessageWriter,
    type MessageConnection,
} from 'vscode-languageserver-protocol/node';
import type { Diagnostic, Hover, PublishDiagnosticsParams } from 'vscode-languageserver-protocol';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SERVER = path.join(ROOT, 'dist/server.cjs');

export interface LspProcess {
    rpc: MessageConnection;
    child: ChildProcess;
    /** The last diagnostics published per URI. */
    published: Map<string, Diagnostic[]>;
    uri(file: string): string;
    /** Resolves when the diagnostics published for `uri` satisfy `ok` (now or at a later publication). */
    diagnosticsFor(uri: string, ok?: (ds: Diagnostic[]) => boolean): Promise<Diagnostic[]>;
    open(file: string, text: string, version?: number): void;
    change(file: string, text: string, version: number): void;
    hover(file: string, line: number, character: number): Promise<Hover | null>;
    /** Log messages and stderr of the server (the last 4,000 characters), for failure reports. */
    log(): string;
    close(): Promise<void>;
}

/**
 * Builds the bundles when they are missing (once), then starts the server on the workspace `dir`; `node` are
 * extra Node options for the server process (e.g. a capped heap); `initializationOptions` as the extension sends
 * them (e.g. `dataCacheDir`).
 */
export async function startLanguageServer(dir: string, node: string[] = [], initializationOptions?: object): Promise<LspProcess> {
    if (!fs.existsSync(SERVER)) {
        const built = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, encoding: 'utf8' });
        assert.equal(built.status, 0, `build failed: ${built.stderr}`);
    }
    const child = spawn(process.execPath, [...node, SERVER, '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let log = '';
    child.stderr!.on('data', d => {
        log = (log + String(d)).slice(-4000);
    });
    const rpc = createMessageConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
    const published = new Map<string, Diagnostic[]>();
    const waiters: (() => void)[] = [];
    rpc.onNotification('textDocument/publishDiagnostics', (p: PublishDiagnosticsParams) => {
        published.set(p.uri, p.diagnostics);
        waiters.splice(0).forEach(w => w());
    });
    rpc.onNotification('window/logMessage', (p: { message: string }) => {
        log = (log + p.message + '\n').slice(-4000);
    });
    rpc.onNotification(() => undefined);
    rpc.onRequest(() => null);
    rpc.listen();
    await rpc.sendRequest('initialize', {
        processId: process.pid,
        rootUri: pathToFileURL(dir).toString(),
        capabilities: {},
        workspaceFolders: [{ uri: pathToFileURL(dir).toString(), name: 'w' }],
        ...(initializationOptions ? { initializationOptions } : {}),
    });
    await rpc.sendNotification('initialized', {});
    const uri = (file: string) => pathToFileURL(path.resolve(dir, file)).toString();
    return {
        rpc,
        child,
        published,
        uri,
        diagnosticsFor: (u, ok = () => true) =>
            new Promise(resolve => {
                const check = () => {
                    const ds = published.get(u);
                    if (ds && ok(ds)) resolve(ds);
                    else waiters.push(check);
                };
                check();
            }),
        open: (file, text, version = 1) =>
            void rpc.sendNotification('textDocument/didOpen', {
                textDocument: { uri: uri(file), languageId: 'probe', version, text },
            }),
        change: (file, text, version) =>
            void rpc.sendNotification('textDocument/didChange', {
                textDocument: { uri: uri(file), version },
                contentChanges: [{ text }],
            }),
        hover: (file, line, character) =>
            rpc.sendRequest('textDocument/hover', { textDocument: { uri: uri(file) }, position: { line, character } }),
        log: () => log,
        close: async () => {
            if (child.exitCode === null) {
                await Promise.race([rpc.sendRequest('shutdown'), new Promise(resolve => setTimeout(resolve, 2000))]).catch(
                    () => undefined,
                );
                const gone = new Promise(resolve => child.once('exit', resolve));
                await rpc.sendNotification('exit').catch(() => undefined);
                await Promise.race([gone, new Promise(resolve => setTimeout(resolve, 2000))]);
                child.kill();
            }
            rpc.dispose();
        },
    };
}

/** Rejects when `p` has not settled within `ms` (a bound on an awaited event, not a timed assertion). */
export function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
    let timer: NodeJS.Timeout;
    return Promise.race([
        p,
        new Promise<never>((_, reject) => {
            timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
        }),
    ]).finally(() => clearTimeout(timer));
}
