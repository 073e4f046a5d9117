/**
 * Extension-host tests with the real vscode API, against the workspace the runner opened (a copy of the
 * movie example whose data has one injected FD violation: James Cameron with two birth years).
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import pg from 'pg';
import type { HalluProbeApi } from '../../../src/extension/main.js';
import { measured } from './measured.js';
import { databaseId } from '../../../src/core/data/postgres-url.js';

const EXTENSION = 'halluprobe.halluprobe';
/** The repository's examples (the suite bundle is written to test-artifacts/vscode/ in the repository). */
const EXAMPLES = path.resolve(__dirname, '..', '..', 'examples');

async function until<T>(what: string, fn: () => T | undefined | Promise<T | undefined>, ms = 90_000): Promise<T> {
    const end = Date.now() + ms;
    for (;;) {
        const v = await fn();
        if (v !== undefined && v !== false) return v as T;
        if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
        await new Promise(r => setTimeout(r, 200));
    }
}

/**
 * Resolves with a document's diagnostics once `ok` holds, checked on every diagnostics change of that document
 * (the event), not on a timer; the deadline only turns a never-coming event into a readable failure.
 */
function diagnosticsUntil(
    uri: vscode.Uri,
    what: string,
    ok: (ds: vscode.Diagnostic[]) => boolean,
    ms = 90_000,
    more = () => '',
): Promise<vscode.Diagnostic[]> {
    const code = (d: vscode.Diagnostic) => String(typeof d.code === 'object' ? d.code.value : d.code);
    return new Promise((resolve, reject) => {
        const check = () => {
            const ds = vscode.languages.getDiagnostics(uri);
            if (!ok(ds)) return;
            done();
            resolve(ds);
        };
        const sub = vscode.languages.onDidChangeDiagnostics(e => {
            if (e.uris.some(u => u.toString() === uri.toString())) check();
        });
        const timer = setTimeout(() => {
            done();
            reject(
                new Error(
                    `no ${what} within ${ms / 1000} s; diagnostics: ${
                        vscode.languages
                            .getDiagnostics(uri)
                            .map(d => `${code(d)}: ${d.message}`)
                            .join(' | ') || 'none'
                    }${more()}`,
                ),
            );
        }, ms);
        const done = () => {
            sub.dispose();
            clearTimeout(timer);
        };
        check();
    });
}

function specUri(): vscode.Uri {
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'a workspace folder is open');
    return vscode.Uri.file(path.join(folder.uri.fsPath, 'movie.probe'));
}

export function register(): void {
    describe('HalluProbe in the extension host', () => {
        let api: HalluProbeApi;

        before(async () => {
            const ext = vscode.extensions.getExtension<HalluProbeApi>(EXTENSION);
            assert.ok(ext, `${EXTENSION} is installed`);
            await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(specUri()));
            api = await ext.activate();
            await api.ready;
        });

        it('registers every HalluProbe command', async () => {
            const all = new Set(await vscode.commands.getCommands(true));
            for (const id of [
                'previewQuestions',
                'runSuite',
                'runProbe',
                'stopRun',
                'showResults',
                'openGraph',
                'compareRuns',
                'exportReport',
                'selectModel',
                'setApiKey',
                'restartServer',
                'importDatabase',
                'setDatabasePassword',
            ]) {
                assert.ok(all.has(`halluprobe.${id}`), `halluprobe.${id} is registered`);
            }
        });

        it('imports a folder of CSV files by command and opens the written spec', async () => {
            const folder = fs.mkdtempSync(path.join(path.dirname(specUri().fsPath), 'import-'));
            fs.mkdirSync(path.join(folder, 'shop'));
            fs.writeFileSync(path.join(folder, 'shop', 'city.csv'), 'name,country\nParis,fr\nLyon,fr\nBerlin,de\n');
            fs.writeFileSync(
                path.join(folder, 'shop', 'store.csv'),
                'id,city,size\n1,Paris,3\n2,Lyon,3\n3,Paris,5\n4,Berlin,5\n',
            );
            const out = path.join(folder, 'shop.probe');
            await vscode.commands.executeCommand('halluprobe.importDatabase', { input: path.join(folder, 'shop'), out });
            const text = fs.readFileSync(out, 'utf8');
            assert.match(text, /relation store from store_src \{/);
            assert.match(text, /fk store\.city -> city\.name/);
            assert.equal(vscode.window.activeTextEditor?.document.uri.fsPath, out, 'the written spec is opened');
        });

        it('reports its activation time', () => {
            const ms = api.activationMs();
            assert.equal(typeof ms, 'number');
            measured.activationMs = ms!;
            const server = api.serverReadyMs();
            if (server !== undefined) measured.serverReadyMs = server;
        });

        it('publishes the injected FD violation as a diagnostic on the spec', async () => {
            const code = (d: vscode.Diagnostic) => String(typeof d.code === 'object' ? d.code.value : d.code);
            const diag = (
                await diagnosticsUntil(specUri(), 'fd-violated diagnostic', ds => ds.some(d => code(d) === 'fd-violated'))
            ).find(d => code(d) === 'fd-violated')!;
            assert.match(diag.message, /James Cameron/);
            assert.equal(diag.severity, vscode.DiagnosticSeverity.Error);
        });

        it('restarts the language server: a new server process publishes the diagnostics again', async () => {
            const before = api.serverStarts();
            await vscode.commands.executeCommand('halluprobe.restartServer');
            assert.equal(api.serverStarts(), before + 1);
            const code = (d: vscode.Diagnostic) => String(typeof d.code === 'object' ? d.code.value : d.code);
            // Touch the document so the new server validates it, then wait for its diagnostics.
            const doc = await vscode.workspace.openTextDocument(specUri());
            await vscode.window.showTextDocument(doc);
            const diag = (
                await diagnosticsUntil(specUri(), 'fd-violated diagnostic after the restart', ds =>
                    ds.some(d => code(d) === 'fd-violated'),
                )
            ).find(d => code(d) === 'fd-violated')!;
            assert.match(diag.message, /James Cameron/);
        });

        it('builds the Test Explorer tree spec → suite → probe → phrasing', async () => {
            const controller = api.services.testing!.controller;
            const spec = await until('the spec item', () => {
                let found: vscode.TestItem | undefined;
                controller.items.forEach(i => {
                    if (i.id === specUri().fsPath) found = i;
                });
                return found;
            });
            const suite = spec.children.get([specUri().fsPath, 'movies'].join('\u241f'));
            assert.ok(suite, 'suite "movies" is an item');
            const probes: string[] = [];
            suite.children.forEach(p => probes.push(p.label));
            assert.deepEqual(probes.sort(), ['director_decade', 'know_movie', 'movie_binary']);
            const binary = suite.children.get([specUri().fsPath, 'movies', 'movie_binary'].join('\u241f'))!;
            const phrasings: string[] = [];
            binary.children.forEach(p => phrasings.push(p.label));
            assert.deepEqual(phrasings, ['basic', 'negated', 'is_there']);
            assert.equal(binary.range?.start.line !== undefined, true);
        });

        it('runs a suite by command (offline simulator) and shows its CodeLens summary', async () => {
            await vscode.commands.executeCommand('halluprobe.runSuite', { file: specUri().fsPath, suite: 'movies' });
            const titles = async () =>
                (
                    (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', specUri(), 100)) ??
                    []
                ).map(l => l.command?.title ?? '');
            const summary = await until('a CodeLens summary', async () =>
                (await titles()).find(t =>
                    /^simulator \(offline simulator\) · A [.\d]+ R [.\d]+ AR [.\d]+ H [.\d]+ · \d+ of \d+ rationales failed$/.test(
                        t,
                    ),
                ),
            ).catch(async err => {
                throw new Error(`${(err as Error).message}; lenses: ${(await titles()).join(' | ')}`);
            });
            assert.ok(summary);
        });

        it('moves the CodeLens with unsaved edits (views follow the spec as it is edited)', async () => {
            // The lines of every summary lens: more may appear while the store is read, so the test follows one
            // line (a lens present at the start) instead of whichever lens happens to come first.
            const lensLines = async () =>
                new Set(
                    (
                        (await vscode.commands.executeCommand<vscode.CodeLens[]>(
                            'vscode.executeCodeLensProvider',
                            specUri(),
                            100,
                        )) ?? []
                    )
                        .filter(l => /^simulator \(offline simulator\) · A /.test(l.command?.title ?? ''))
                        .map(l => l.range.start.line),
                );
            const lensLine = async () => ((await lensLines()).has(at) ? at : undefined);
            let at = await until('a summary lens', async () => {
                const lines = await lensLines();
                return lines.size ? Math.min(...lines) : undefined;
            });
            const before = at;
            // Edits through a WorkspaceEdit on the document itself: an editor's edit() fails once that editor is
            // replaced, and revert acts on whichever editor is active — on a busy machine, sometimes another.
            const doc = await vscode.workspace.openTextDocument(specUri());
            await vscode.window.showTextDocument(doc);
            const original = doc.getText();
            const edit = (change: (e: vscode.WorkspaceEdit) => void) => {
                const e = new vscode.WorkspaceEdit();
                change(e);
                return vscode.workspace.applyEdit(e);
            };
            assert.ok(
                await edit(e => e.insert(doc.uri, new vscode.Position(0, 0), '// one\n// two\n// three\n')),
                'the lines were inserted',
            );
            try {
                at = before + 3;
                await until('the lens three lines lower', lensLine);
            } finally {
                // Back to the saved text, then saved (the same bytes), so the spec is left as the next test expects.
                assert.ok(await edit(e => e.delete(doc.uri, new vscode.Range(0, 0, 3, 0))), 'the lines were deleted');
                assert.equal(doc.getText(), original);
                await doc.save();
            }
            at = before;
            await until('the lens back in place', lensLine);
        });

        it('shows an evidence probe in the Test Explorer and runs it from there (offline simulator)', async () => {
            const folder = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
            const file = path.join(folder, 'evidence.probe');
            const text = await fs.promises.readFile(path.join(EXAMPLES, 'evidence', 'evidence.probe'), 'utf8');
            await fs.promises.writeFile(file, text.replace('"../movie/data/movies.csv"', '"data/movies.csv"'));
            await api.services.testing!.discover();
            const controller = api.services.testing!.controller;
            const spec = await until('the evidence spec item', () => {
                let found: vscode.TestItem | undefined;
                controller.items.forEach(i => {
                    if (i.id === file) found = i;
                });
                return found;
            });
            const probe = await until('the evidence probe item', () =>
                spec.children
                    .get([file, 'evidence'].join('\u241f'))
                    ?.children.get([file, 'evidence', 'directed_by'].join('\u241f')),
            );
            const phrasings: string[] = [];
            probe.children.forEach(p => phrasings.push(p.label));
            assert.deepEqual(phrasings, ['seed', 'swap', 'enrich', 'closed']);
            // Run everything the Test Explorer shows, with its default profile (the spec's offline simulator).
            await vscode.commands.executeCommand('testing.runAll');
            const results = await until(
                'evidence verdicts',
                () => {
                    const r = api.services.state.results(file);
                    return r && r.verdicts.length > 0 ? r : undefined;
                },
                90_000,
            );
            const kinds = new Set(results.questions.map(q => q.evidence?.kind));
            assert.deepEqual([...kinds].sort(), ['closed', 'enrich', 'seed', 'swap']);
            assert.equal(results.verdicts.length, results.answers.length);
        });

        it('opens the preview and the graph panel by command', async () => {
            await vscode.commands.executeCommand('halluprobe.previewQuestions', specUri());
            await vscode.commands.executeCommand('halluprobe.openGraph', specUri());
            const tabs = () => vscode.window.tabGroups.all.flatMap(g => g.tabs).map(t => t.label);
            await until(
                'the preview and graph tabs',
                () => tabs().some(t => t.startsWith('Questions · ')) && tabs().some(t => t.startsWith('Graph · ')),
            ).catch(err => {
                throw new Error(`${(err as Error).message}; tabs: ${tabs().join(', ')}`);
            });
        });

        it('connects to a PostgreSQL source once its password is set by command (SecretStorage)', async function () {
            // Four re-checks, each waited on as an event; on a busy machine each may take a while.
            this.timeout(300_000);
            // A real PostgreSQL started by the runner; its password is NOT in PGPASSWORD.
            const url = process.env.HALLUPROBE_TEST_PG_URL,
                password = process.env.HALLUPROBE_TEST_PG_PASSWORD;
            assert.ok(
                url && password,
                'the runner passes a real PostgreSQL as HALLUPROBE_TEST_PG_URL and HALLUPROBE_TEST_PG_PASSWORD',
            );
            const file = vscode.Uri.file(path.join(path.dirname(specUri().fsPath), 'shop.probe'));
            await fs.promises.writeFile(
                file.fsPath,
                `source store_src postgres "${url}" table "store"\n\nrelation Store from store_src {\n    id: int\n    city: text\n    key (id)\n}\n`,
            );
            const code = (d: vscode.Diagnostic) => String(typeof d.code === 'object' ? d.code.value : d.code);
            const shown = () =>
                vscode.languages
                    .getDiagnostics(file)
                    .map(d => `${code(d)}: ${d.message}`)
                    .join(' | ') || 'none';
            const waitFor = (what: string, ok: (ds: vscode.Diagnostic[]) => boolean) =>
                diagnosticsUntil(
                    file,
                    what,
                    ok,
                    90_000,
                    () =>
                        `; sent to the server: ${api.services.server?.sent.join(', ') || 'nothing'}; passwords saved for: ${Object.keys(api.services.passwords.all()).join(', ') || 'none'}`,
                );
            try {
                await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(file));
                // A database is outside the workspace: not read until the user allows it.
                await waitFor('the source-not-read warning', ds => ds.some(d => code(d) === 'source-not-read'));
                await api.services.state.sources.allow([url]);
                const passwordProblem = (ds: vscode.Diagnostic[]) =>
                    ds.some(d => code(d) === 'postgres-error' && /Set Database Password/.test(d.message));
                await waitFor('the diagnostic saying how to give a password', passwordProblem);
                assert.doesNotMatch(shown(), new RegExp(password), 'no password in a diagnostic');

                await vscode.commands.executeCommand('halluprobe.setDatabasePassword', { url, password });
                await waitFor(
                    'clean diagnostics after the password was saved',
                    ds => !ds.some(d => d.severity === vscode.DiagnosticSeverity.Error),
                );
                assert.equal(api.services.passwords.get(databaseId(url)!), password, 'saved under user@host:port/database');
                // The engine in the extension host reads the same saved password (preview, runs, import).
                const { data } = await api.services.state.generation(file.fsPath);
                assert.equal(data.tables.get('Store')?.rowCount, 2);

                // An empty password deletes the saved one: the problem comes back.
                await vscode.commands.executeCommand('halluprobe.setDatabasePassword', { url, password: '' });
                await waitFor('the password diagnostic again after deleting it', passwordProblem);
            } finally {
                await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
                await fs.promises.rm(file.fsPath, { force: true });
            }
        });

        it('keeps results in a PostgreSQL store named by the storePath setting, its password from SecretStorage', async function () {
            this.timeout(300_000);
            const url = process.env.HALLUPROBE_TEST_PG_URL,
                password = process.env.HALLUPROBE_TEST_PG_PASSWORD;
            assert.ok(
                url && password,
                'the runner passes a real PostgreSQL as HALLUPROBE_TEST_PG_URL and HALLUPROBE_TEST_PG_PASSWORD',
            );
            const config = vscode.workspace.getConfiguration('halluprobe', specUri());
            await vscode.commands.executeCommand('halluprobe.setDatabasePassword', { url, password });
            await config.update('storePath', url, vscode.ConfigurationTarget.Workspace);
            try {
                await vscode.commands.executeCommand('halluprobe.runSuite', { file: specUri().fsPath, suite: 'movies' });
                const shown = api.services.state.results(specUri().fsPath);
                assert.ok(shown && shown.verdicts.length > 0, 'the run finished and its verdicts are shown');
                // On the server, read with the password the test knows (PGPASSWORD is not set in this host).
                const u = new URL(url);
                const client = new pg.Client({
                    host: u.hostname,
                    port: Number(u.port),
                    user: u.username,
                    database: u.pathname.slice(1),
                    password,
                });
                await client.connect();
                try {
                    const runs = (
                        await client.query<{ id: string; n: string }>(
                            'SELECT r.id, (SELECT COUNT(*) FROM verdicts v WHERE v.run = r.id) AS n FROM runs r',
                        )
                    ).rows;
                    assert.deepEqual(
                        runs.map(r => [r.id, Number(r.n)]),
                        [[shown.run.id, shown.verdicts.length]],
                        'the run and its verdicts are in the PostgreSQL store',
                    );
                } finally {
                    await client.end();
                }
            } finally {
                await config.update('storePath', undefined, vscode.ConfigurationTarget.Workspace);
            }
        });
    });
}
