/**
 * The built language server over a real LSP connection, with a real PostgreSQL and no PGPASSWORD in its
 * environment: a spec reading the database shows how to give a password; once the editor sends the saved
 * password (`halluprobe/databasePasswords`), the same spec checks clean. Also at start-up
 * (`initializationOptions.databasePasswords`).
 */
import { after, before, describe, it } from 'node:test';
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
import type { Diagnostic, PublishDiagnosticsParams } from 'vscode-languageserver-protocol';
import { startPostgres, type PostgresServer } from '../support/postgres.js';
import {
    DATABASE_PASSWORDS_NOTIFICATION,
    SOURCE_ACCESS_NOTIFICATION,
    type DatabasePasswordsParams,
    type SourceAccessParams,
} from '../../src/protocol/lsp.js';
import { databaseId } from '../../src/core/data/postgres-url.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SERVER = path.join(ROOT, 'dist/server.cjs');

interface Lsp {
    rpc: MessageConnection;
    child: ChildProcess;
    diagnosticsFor(uri: string, ok: (ds: Diagnostic[]) => boolean): Promise<Diagnostic[]>;
    /** How many times diagnostics were published for a document. */
    publishes(uri: string): number;
    /** The server's log lines so far (window/logMessage). */
    logs(): string[];
    close(): Promise<void>;
}

/** The bundled server over stdio, started without any PostgreSQL password in its environment. */
async function startServer(dir: string, initializationOptions?: unknown): Promise<Lsp> {
    const env: NodeJS.ProcessEnv = { ...process.env, PGPASSFILE: path.join(dir, 'no-pgpass') };
    delete env.PGPASSWORD;
    const child = spawn(process.execPath, [SERVER, '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'], env });
    const rpc = createMessageConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
    const published = new Map<string, Diagnostic[]>();
    const counts = new Map<string, number>();
    const logs: string[] = [];
    const waiters: (() => void)[] = [];
    rpc.onNotification('textDocument/publishDiagnostics', (p: PublishDiagnosticsParams) => {
        published.set(p.uri, p.diagnostics);
        counts.set(p.uri, (counts.get(p.uri) ?? 0) + 1);
        waiters.splice(0).forEach(w => w());
    });
    rpc.onNotification('window/logMessage', (p: { message: string }) => {
        logs.push(p.message);
    });
    rpc.onRequest(() => null);
    rpc.listen();
    const root = pathToFileURL(dir).toString();
    await rpc.sendRequest('initialize', {
        processId: process.pid,
        rootUri: root,
        capabilities: {},
        workspaceFolders: [{ uri: root, name: 'w' }],
        initializationOptions,
    });
    await rpc.sendNotification('initialized', {});
    return {
        rpc,
        child,
        diagnosticsFor: (uri, ok) =>
            new Promise(resolve => {
                const check = () => {
                    const ds = published.get(uri);
                    if (ds && ok(ds)) resolve(ds);
                    else waiters.push(check);
                };
                check();
            }),
        publishes: uri => counts.get(uri) ?? 0,
        logs: () => [...logs],
        close: async () => {
            await rpc.sendRequest('shutdown').catch(() => undefined);
            const exited = new Promise(resolve => child.once('exit', resolve));
            await rpc.sendNotification('exit').catch(() => undefined);
            await exited;
            rpc.dispose();
        },
    };
}

const message = (ds: Diagnostic[]) => ds.map(d => `${String(d.code)}: ${String(d.message)}`).join(' | ');

describe('database passwords through the language server', { timeout: 120_000 }, () => {
    let pg: PostgresServer | undefined;
    let dir: string;

    before(async () => {
        if (!fs.existsSync(SERVER)) {
            const built = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, encoding: 'utf8' });
            assert.equal(built.status, 0, `build failed: ${built.stderr}`);
        }
        pg = await startPostgres();
        if (!pg) return;
        pg.createDatabase('shop');
        pg.sql(
            'shop',
            `create table store(id integer primary key, city text); insert into store values (1, 'Paris'), (2, 'Lyon');`,
        );
        dir = fs.mkdtempSync(path.join(os.tmpdir(), 'halluprobe-lsp-pg-'));
    });
    after(() => {
        pg?.stop();
        if (dir) fs.rmSync(dir, { recursive: true, force: true });
    });

    /** Opens a spec reading the `store` table and returns its URI. */
    const openSpec = async (lsp: Lsp, name: string): Promise<string> => {
        const uri = pathToFileURL(path.join(dir, name)).toString();
        const text = `source store_src postgres "${pg!.url('shop')}" table "store"\n\nrelation Store from store_src {\n    id: int\n    city: text\n    key (id)\n}\n`;
        await lsp.rpc.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'probe', version: 1, text } });
        return uri;
    };

    it('reports the missing password, then checks clean once the editor sends the saved one', async t => {
        if (!pg) return t.skip('PostgreSQL is not installed (CI installs it and fails instead)');
        const lsp = await startServer(dir);
        try {
            const uri = await openSpec(lsp, 'shop.probe');
            const before = await lsp.diagnosticsFor(uri, ds => ds.some(d => d.code === 'postgres-error'));
            const problem = before.find(d => d.code === 'postgres-error')!;
            assert.match(String(problem.message), /asks for a password .* none was given/, message(before));
            assert.match(String(problem.message), /HalluProbe: Set Database Password/);
            assert.equal(problem.range.start.line, 0, 'located at the source');

            const params: DatabasePasswordsParams = { passwords: { [databaseId(pg.url('shop'))!]: pg.password } };
            await lsp.rpc.sendNotification(DATABASE_PASSWORDS_NOTIFICATION, params);
            const after = await lsp.diagnosticsFor(uri, ds => !ds.some(d => d.code === 'postgres-error'));
            assert.deepEqual(
                after.filter(d => d.severity === 1),
                [],
                message(after),
            );

            // A wrong saved password is refused with the same remedy.
            await lsp.rpc.sendNotification(DATABASE_PASSWORDS_NOTIFICATION, {
                passwords: { [databaseId(pg.url('shop'))!]: 'wrong' },
            });
            const refused = await lsp.diagnosticsFor(uri, ds => ds.some(d => d.code === 'postgres-error'));
            assert.match(
                String(refused.find(d => d.code === 'postgres-error')!.message),
                /refused the credentials.*Set Database Password/,
            );
            assert.doesNotMatch(message(refused), /wrong|test-secret/, 'no password in a diagnostic');
        } finally {
            await lsp.close();
        }
    });

    it('re-checks only the specs that read a database when a password changes (the open spec is not kept waiting)', async t => {
        if (!pg) return t.skip('PostgreSQL is not installed (CI installs it and fails instead)');
        const lsp = await startServer(dir);
        try {
            fs.writeFileSync(path.join(dir, 'cities.csv'), 'name,country\nParis,fr\n');
            const plain = pathToFileURL(path.join(dir, 'plain.probe')).toString();
            await lsp.rpc.sendNotification('textDocument/didOpen', {
                textDocument: {
                    uri: plain,
                    languageId: 'probe',
                    version: 1,
                    text: 'source cities_src csv "cities.csv"\n\nrelation City from cities_src {\n    name: text\n    country: text\n    key (name)\n}\n',
                },
            });
            const uri = await openSpec(lsp, 'scoped.probe');
            await lsp.diagnosticsFor(plain, () => true);
            await lsp.diagnosticsFor(uri, ds => ds.some(d => d.code === 'postgres-error'));
            await lsp.rpc.sendNotification(DATABASE_PASSWORDS_NOTIFICATION, {
                passwords: { [databaseId(pg.url('shop'))!]: pg.password },
            });
            const after = await lsp.diagnosticsFor(uri, ds => !ds.some(d => d.code === 'postgres-error'));
            assert.deepEqual(
                after.filter(d => d.severity === 1),
                [],
                message(after),
            );
            // The server logs what it re-checks before it does, on the same connection: the line is here by now.
            assert.match(
                lsp.logs().find(l => /database passwords changed/.test(l)) ?? lsp.logs().join('\n'),
                /checking 1 of 2 specs again/,
            );
        } finally {
            await lsp.close();
        }
    });

    it("allowed, then given a password at once (the editor's order): the spec checks clean", async t => {
        if (!pg) return t.skip('PostgreSQL is not installed (CI installs it and fails instead)');
        const lsp = await startServer(dir, {
            sourceAccess: { trusted: true, newlyOpened: true, allowed: [] } satisfies SourceAccessParams,
        });
        try {
            const uri = await openSpec(lsp, 'gated.probe');
            await lsp.diagnosticsFor(uri, ds => ds.some(d => d.code === 'source-not-read'));
            await lsp.rpc.sendNotification(SOURCE_ACCESS_NOTIFICATION, {
                trusted: true,
                newlyOpened: true,
                allowed: [pg.url('shop')],
            } satisfies SourceAccessParams);
            await lsp.diagnosticsFor(uri, ds => ds.some(d => d.code === 'postgres-error'));
            await lsp.rpc.sendNotification(DATABASE_PASSWORDS_NOTIFICATION, {
                passwords: { [databaseId(pg.url('shop'))!]: pg.password },
            });
            const after = await lsp.diagnosticsFor(uri, ds => !ds.some(d => d.code === 'postgres-error'));
            assert.deepEqual(
                after.filter(d => d.severity === 1),
                [],
                message(after),
            );
        } finally {
            await lsp.close();
        }
    });

    it("publishes the clean check even when another edit cancels the re-check just as it finishes (the editor's password test)", async t => {
        if (!pg) return t.skip('PostgreSQL is not installed (CI installs it and fails instead)');
        const lsp = await startServer(dir);
        try {
            const other = pathToFileURL(path.join(dir, 'other.probe')).toString();
            await lsp.rpc.sendNotification('textDocument/didOpen', {
                textDocument: { uri: other, languageId: 'probe', version: 1, text: '// nothing yet\n' },
            });
            const uri = await openSpec(lsp, 'cancelled.probe');
            await lsp.diagnosticsFor(uri, ds => ds.some(d => d.code === 'postgres-error'));
            await lsp.rpc.sendNotification(DATABASE_PASSWORDS_NOTIFICATION, {
                passwords: { [databaseId(pg.url('shop'))!]: pg.password },
            });
            // An edit elsewhere while the re-check connects to the database: its build cancels the re-check's.
            await lsp.rpc.sendNotification('textDocument/didChange', {
                textDocument: { uri: other, version: 2 },
                contentChanges: [{ text: '// still nothing\n' }],
            });
            let timer: NodeJS.Timeout | undefined;
            const deadline = new Promise<never>((_, reject) => {
                timer = setTimeout(() => reject(new Error('the clean check was never published')), 30_000);
            });
            try {
                const after = await Promise.race([
                    lsp.diagnosticsFor(uri, ds => !ds.some(d => d.code === 'postgres-error')),
                    deadline,
                ]);
                assert.deepEqual(
                    after.filter(d => d.severity === 1),
                    [],
                    message(after),
                );
            } finally {
                clearTimeout(timer);
            }
        } finally {
            await lsp.close();
        }
    });

    it('connects with the passwords given at start-up (initializationOptions)', async t => {
        if (!pg) return t.skip('PostgreSQL is not installed');
        const lsp = await startServer(dir, { databasePasswords: { passwords: { [databaseId(pg.url('shop'))!]: pg.password } } });
        try {
            const uri = await openSpec(lsp, 'start.probe');
            const ds = await lsp.diagnosticsFor(uri, () => true);
            assert.deepEqual(
                ds.filter(d => d.severity === 1),
                [],
                message(ds),
            );
        } finally {
            await lsp.close();
        }
    });
});
