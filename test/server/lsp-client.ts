/**
 * The built language server (dist/server.cjs, built if missing) over JSON-RPC on stdio, exactly as an editor talks
 * to it, with a workspace folder holding a copy of the language fixtures; published diagnostics are kept per document.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
    createMessageConnection,
    StreamMessageReader,
    StreamMessageWriter,
    type MessageConnection,
} from 'vscode-languageserver-protocol/node';
import type { Diagnostic, PublishDiagnosticsParams, ShowDocumentParams } from 'vscode-languageserver-protocol';
import { FIXTURES } from './support.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SERVER = path.join(ROOT, 'dist/server.cjs');

export interface LspClient {
    rpc: MessageConnection;
    /** The workspace folder (a copy of test/fixtures/language). */
    dir: string;
    /** Documents the server asked the editor to show. */
    shown: ShowDocumentParams[];
    /** Resolves when the diagnostics published for `uri` satisfy `ok` (the server may publish several rounds). */
    diagnosticsFor(uri: string, ok: (ds: Diagnostic[]) => boolean): Promise<Diagnostic[]>;
    stop(): Promise<void>;
}

export async function startLspClient(prefix: string): Promise<LspClient> {
    if (!fs.existsSync(SERVER)) {
        const built = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, encoding: 'utf8' });
        assert.equal(built.status, 0, `build failed: ${built.stderr}`);
    }
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    fs.cpSync(FIXTURES, dir, { recursive: true });
    const published = new Map<string, Diagnostic[]>();
    const waiters: (() => void)[] = [];
    const shown: ShowDocumentParams[] = [];
    const child: ChildProcess = spawn(process.execPath, [SERVER, '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
    const rpc = createMessageConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
    rpc.onNotification('textDocument/publishDiagnostics', (p: PublishDiagnosticsParams) => {
        published.set(p.uri, p.diagnostics);
        waiters.splice(0).forEach(w => w());
    });
    rpc.onRequest('window/showDocument', (p: ShowDocumentParams) => {
        shown.push(p);
        return { success: true };
    });
    rpc.onRequest(() => null); // workspace/configuration, client/registerCapability, ...
    rpc.listen();
    await rpc.sendRequest('initialize', {
        processId: process.pid,
        rootUri: pathToFileURL(dir).toString(),
        capabilities: {},
        workspaceFolders: [{ uri: pathToFileURL(dir).toString(), name: 'w' }],
    });
    rpc.sendNotification('initialized', {});
    return {
        rpc,
        dir,
        shown,
        diagnosticsFor: (uri, ok) =>
            new Promise<Diagnostic[]>(resolve => {
                const check = () => {
                    const ds = published.get(uri);
                    if (ds && ok(ds)) resolve(ds);
                    else waiters.push(check);
                };
                check();
            }),
        stop: async () => {
            await rpc.sendRequest('shutdown').catch(() => undefined);
            const exited = new Promise(resolve => child.once('exit', resolve));
            await rpc.sendNotification('exit').catch(() => undefined);
            await exited;
            rpc.dispose();
            fs.rmSync(dir, { recursive: true, force: true });
        },
    };
}
