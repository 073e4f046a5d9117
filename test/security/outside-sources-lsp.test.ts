// Issue 11, "Also", the language server's side: in a workspace the editor gates (untrusted or newly opened), a
// source outside the workspace folders is not read for diagnostics until the user allowed it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-languageserver-protocol/node';
import type { Diagnostic, PublishDiagnosticsParams } from 'vscode-languageserver-protocol';
import { FIXTURES } from '../server/support.js';
import { SOURCE_ACCESS_NOTIFICATION, type SourceAccessParams } from '../../src/protocol/lsp.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SERVER = path.join(ROOT, 'dist/server.cjs');

test('an outside source is not read until allowed; then its data is checked', { timeout: 120_000 }, async () => {
    if (!fs.existsSync(SERVER)) assert.equal(spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT }).status, 0);
    const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'halluprobe-ws-'));
    const elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), 'halluprobe-elsewhere-'));
    const csv = path.join(elsewhere, 'movies.csv');
    fs.copyFileSync(path.join(FIXTURES, 'data', 'movies.csv'), csv);
    const file = path.join(workspace, 'movie.probe');
    const text = fs.readFileSync(path.join(FIXTURES, 'movie.probe'), 'utf8').replace('"data/movies.csv"', JSON.stringify(csv));
    fs.writeFileSync(file, text);
    const uri = pathToFileURL(file).toString();

    const child = spawn(process.execPath, [SERVER, '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
    const rpc = createMessageConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
    const published = new Map<string, Diagnostic[]>();
    const waiters: (() => void)[] = [];
    rpc.onNotification('textDocument/publishDiagnostics', (p: PublishDiagnosticsParams) => {
        published.set(p.uri, p.diagnostics);
        waiters.splice(0).forEach(w => w());
    });
    rpc.onNotification(() => undefined);
    rpc.onRequest(() => null);
    rpc.listen();
    const diagnostics = (ok: (ds: Diagnostic[]) => boolean) =>
        new Promise<Diagnostic[]>(resolve => {
            const check = () => {
                const ds = published.get(uri);
                if (ds && ok(ds)) resolve(ds);
                else waiters.push(check);
            };
            check();
        });
    try {
        const gated: SourceAccessParams = { trusted: false, newlyOpened: true, allowed: [] };
        await rpc.sendRequest('initialize', {
            processId: process.pid,
            rootUri: pathToFileURL(workspace).toString(),
            capabilities: {},
            workspaceFolders: [{ uri: pathToFileURL(workspace).toString(), name: 'w' }],
            initializationOptions: { sourceAccess: gated },
        });
        rpc.sendNotification('initialized', {});
        rpc.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'probe', version: 1, text } });
        const before = await diagnostics(ds => ds.some(d => d.code === 'source-not-read'));
        assert.ok(!before.some(d => d.code === 'fd-violated'), 'the outside data was not checked');
        const notRead = before.find(d => d.code === 'source-not-read')!;
        assert.equal(
            notRead.range.start.line,
            text.split('\n').findIndex(l => l.startsWith('source')),
        );
        assert.match(String(notRead.message), /outside the workspace folders/);

        // The user allowed the file (Preview Questions asked): the server checks the data now.
        rpc.sendNotification(SOURCE_ACCESS_NOTIFICATION, { ...gated, allowed: [csv] } satisfies SourceAccessParams);
        const after = await diagnostics(ds => ds.some(d => d.code === 'fd-violated'));
        assert.ok(!after.some(d => d.code === 'source-not-read'));
    } finally {
        await rpc.sendRequest('shutdown').catch(() => undefined);
        const exited = new Promise(resolve => child.once('exit', resolve));
        await rpc.sendNotification('exit').catch(() => undefined);
        await exited;
        rpc.dispose();
        fs.rmSync(workspace, { recursive: true, force: true });
        fs.rmSync(elsewhere, { recursive: true, force: true });
    }
});
