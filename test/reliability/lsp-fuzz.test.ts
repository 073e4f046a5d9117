// Item 3 of issue 11: the language server survives any sequence of didOpen / didChange / didClose / file events.
// ≥ 500 random sequences over a real LSP connection to the bundled server (dist/server.cjs), with pathological
// texts among the normal ones (issue 29); a hover on an untouched document is answered within 2 s throughout,
// however the pathological documents' builds go. Seeded: a failure prints the seed and the sequence that killed it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
    CancellationTokenSource,
    createMessageConnection,
    StreamMessageReader,
    StreamMessageWriter,
} from 'vscode-languageserver-protocol/node';
import { FIXTURES } from '../server/support.js';
import { prng } from '../../src/core/probes/sampling.js';
import { within } from '../support/lsp-process.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SERVER = path.join(ROOT, 'dist/server.cjs');
const SEQUENCES = 520;
const SEED = Number(process.env.HALLUPROBE_FUZZ_SEED ?? 20261123);

test('the language server survives ≥ 500 random document and file-event sequences', { timeout: 180_000 }, async () => {
    if (!fs.existsSync(SERVER)) {
        const built = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, encoding: 'utf8' });
        assert.equal(built.status, 0, `build failed: ${built.stderr}`);
    }
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'halluprobe-lsp-fuzz-'));
    fs.cpSync(FIXTURES, dir, { recursive: true });
    const spec = fs.readFileSync(path.join(dir, 'movie.probe'), 'utf8');
    const child = spawn(process.execPath, [SERVER, '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr!.on('data', d => {
        stderr = (stderr + String(d)).slice(-4000);
    });
    let exited: string | undefined;
    child.on('exit', (code, signal) => {
        exited = `exit ${code ?? signal}`;
    });
    const rpc = createMessageConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
    // The server's console goes to the client as log messages: keep the last ones for a failure report.
    rpc.onNotification('window/logMessage', (p: { message: string }) => {
        stderr = (stderr + p.message + '\n').slice(-4000);
    });
    rpc.onNotification(() => undefined);
    rpc.onRequest(() => null);
    rpc.listen();
    const random = prng(SEED);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
    const texts = [
        spec,
        '',
        'source',
        'import "movie.probe"\n',
        'import "gone.probe"\nrelation R from x { a: text = "a" key (a) }',
        spec.replace('movies.csv', 'missing.csv'),
        spec.slice(0, Math.floor(spec.length / 2)),
        '{{{{"""',
        `import "${'x'.repeat(300)}"`,
        spec.replace(/basic "[^"]*"/, 'basic "{constructor(title)} {lower(lower(lower(title)))}"'),
        'import "data/movies.csv"\n',
        // Pathological shapes (issue 29): long comment runs, deep nesting, huge literals, many imports.
        '//\n'.repeat(40_000) + spec,
        `${'{'.repeat(5_000)}\n${spec}`,
        `rule r(p: Movie, q: Movie) :- ${'('.repeat(3_000)}p.title = q.title${')'.repeat(3_000)}\n`,
        `source big csv "${'x'.repeat(300_000)}"\n`,
        `probe p binary using movie_director {\n    basic "${'{title} '.repeat(20_000)}"\n}\n${spec}`,
        Array.from({ length: 300 }, (_, i) => `import "m${i}.probe"`).join('\n') + '\nimport "movie.probe"\n',
        '/*'.repeat(50_000),
    ];
    const names = ['a.probe', 'b.probe', 'movie.probe', 'unsaved.probe', 'sub/c.probe'];
    const uriOf = (n: string) => pathToFileURL(path.join(dir, n)).toString();
    const open = new Map<string, number>();
    // A notification to a dead server is dropped; the exit is what the test reports.
    /** True when the request is answered (with anything) within 20 s; false when the server died or hangs. */
    const answered = (p: Promise<unknown>) =>
        Promise.race([
            p.then(
                () => true,
                () => !exited,
            ),
            new Promise<boolean>(resolve => {
                const t = setTimeout(() => resolve(false), 20_000);
                child.once('exit', () => {
                    clearTimeout(t);
                    resolve(false);
                });
            }),
        ]);
    const send = (method: string, params: unknown) =>
        exited ? Promise.resolve() : rpc.sendNotification(method, params).catch(() => undefined);
    const log: string[] = [];
    try {
        await rpc.sendRequest('initialize', {
            processId: process.pid,
            rootUri: pathToFileURL(dir).toString(),
            capabilities: {},
            workspaceFolders: [{ uri: pathToFileURL(dir).toString(), name: 'w' }],
        });
        rpc.sendNotification('initialized', {});
        // The normal document: opened once, built before the sequences start, never edited by them.
        const normal = uriOf('normal.probe');
        const normalLine = spec.split('\n').findIndex(l => l.startsWith('relation Movie'));
        fs.writeFileSync(path.join(dir, 'normal.probe'), spec);
        await send('textDocument/didOpen', { textDocument: { uri: normal, languageId: 'probe', version: 1, text: spec } });
        assert.ok(
            await answered(
                rpc.sendRequest('textDocument/hover', {
                    textDocument: { uri: normal },
                    position: { line: normalLine, character: 10 },
                }),
            ),
        );
        let sent = 0;
        for (let seq = 0; seq < SEQUENCES && !exited; seq++, sent++) {
            log.length = 0;
            const steps = 3 + Math.floor(random() * 6);
            for (let s = 0; s < steps; s++) {
                const name = pick(names);
                const uri = uriOf(name);
                const file = path.join(dir, name);
                const op = pick(['open', 'change', 'change', 'close', 'write', 'delete', 'event'] as const);
                log.push(`${op} ${name}`);
                if (op === 'open') {
                    const version = (open.get(uri) ?? 0) + 1;
                    open.set(uri, version);
                    await send('textDocument/didOpen', {
                        textDocument: { uri, languageId: 'probe', version, text: pick(texts) },
                    });
                } else if (op === 'change') {
                    const version = (open.get(uri) ?? 0) + 1;
                    open.set(uri, version);
                    await send('textDocument/didChange', {
                        textDocument: { uri, version },
                        contentChanges: [{ text: pick(texts) }],
                    });
                } else if (op === 'close') {
                    open.delete(uri);
                    await send('textDocument/didClose', { textDocument: { uri } });
                } else if (op === 'write') {
                    fs.mkdirSync(path.dirname(file), { recursive: true });
                    fs.writeFileSync(file, pick(texts));
                    await send('workspace/didChangeWatchedFiles', { changes: [{ uri, type: 1 }] });
                } else if (op === 'delete') {
                    fs.rmSync(file, { force: true });
                    await send('workspace/didChangeWatchedFiles', { changes: [{ uri, type: 3 }] });
                } else {
                    // An event that does not match the disk (a stale or reordered watcher report).
                    await send('workspace/didChangeWatchedFiles', { changes: [{ uri, type: pick([1, 2, 3]) }] });
                }
            }
            // Every few sequences, a request must still be answered, and a hover on a normal document (one the
            // sequences never touch) within 2 s, while the documents just changed (pathological ones among them) build.
            if (seq % 20 === 19) {
                const hover = await within(
                    rpc.sendRequest('textDocument/hover', {
                        textDocument: { uri: normal },
                        position: { line: normalLine, character: 10 },
                    }),
                    2_000,
                    `the hover on the normal document (seed ${SEED}, sequence ${seq}: ${log.join(', ')})`,
                ).catch((e: Error) => {
                    throw new Error(`${e.message}\n${stderr}`);
                });
                assert.ok(
                    hover || exited,
                    `no hover on the normal document (seed ${SEED}, sequence ${seq}): ${log.join(', ')}\n${stderr}`,
                );
                const name = pick(names);
                // The workspace must answer; a request about one document may wait for its next build, as in an
                // editor, but must end when the client cancels it (editors cancel on the next keystroke).
                const workspace = await answered(rpc.sendRequest('workspace/symbol', { query: 'Movie' }));
                const cancel = new CancellationTokenSource();
                const timer = setTimeout(() => cancel.cancel(), 1000);
                const docReply = await answered(
                    rpc.sendRequest('textDocument/documentSymbol', { textDocument: { uri: uriOf(name) } }, cancel.token),
                );
                clearTimeout(timer);
                assert.ok(
                    (workspace && docReply) || exited,
                    `the server stopped answering (seed ${SEED}, sequence ${seq}, symbols of ${name}): ${log.join(', ')}\n${stderr}`,
                );
            }
        }
        // The last request is answered only when the server has worked through everything before it.
        const last = await answered(rpc.sendRequest('workspace/symbol', { query: 'title' }));
        // Builds run after the notifications are read: one more document, with an error naming it, is opened after
        // them; its diagnostics are published by the build that takes in everything before it. Then ask again.
        const marker = uriOf('last.probe');
        const built = new Promise<void>(resolve =>
            rpc.onNotification('textDocument/publishDiagnostics', (p: { uri: string; diagnostics: { message: string }[] }) => {
                if (p.uri === marker && p.diagnostics.some(d => d.message.includes('LastOne'))) resolve();
            }),
        );
        await send('textDocument/didOpen', {
            textDocument: { uri: marker, languageId: 'probe', version: 1, text: 'fd LastOne: a -> b\n' },
        });
        assert.ok(await answered(built), `no diagnostics for the last document (seed ${SEED})\n${stderr}`);
        const after = await answered(rpc.sendRequest('workspace/symbol', { query: 'Movie' }));
        assert.equal(exited, undefined, `the server died (seed ${SEED}) in sequence ${sent}: ${log.join(', ')}\n${stderr}`);
        assert.ok(last && after, 'the server answers after the sequences');
        assert.equal(sent, SEQUENCES);
    } finally {
        if (!exited) {
            await rpc.sendRequest('shutdown').catch(() => undefined);
            const gone = new Promise(resolve => child.once('exit', resolve));
            await send('exit', undefined);
            await Promise.race([gone, new Promise(resolve => setTimeout(resolve, 2000))]);
            child.kill();
        }
        rpc.dispose();
        fs.rmSync(dir, { recursive: true, force: true });
    }
});
