import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { MessageConnection } from 'vscode-languageserver-protocol/node';
import type { CodeAction, Diagnostic, Hover, MarkupContent, ShowDocumentParams } from 'vscode-languageserver-protocol';
import { startLspClient, type LspClient } from './lsp-client.js';

/** Talks JSON-RPC over stdio to the bundled server, exactly as an editor does. */
// The timeout only stops a broken server from hanging the run; nothing here asserts on time.
describe('the built language server over a real LSP connection', { timeout: 120_000 }, () => {
    let client: LspClient;
    let rpc: MessageConnection;
    let dir: string;
    let shown: ShowDocumentParams[];

    before(async () => {
        client = await startLspClient('halluprobe-lsp-');
        ({ rpc, dir, shown } = client);
    });

    after(async () => {
        await client?.stop();
    });

    const diagnosticsFor = (uri: string, ok: (ds: Diagnostic[]) => boolean) => client.diagnosticsFor(uri, ok);

    it('opens a document with an error and receives its language and data diagnostics', async () => {
        const file = path.join(dir, 'movie.probe');
        const uri = pathToFileURL(file).toString();
        const text = fs.readFileSync(file, 'utf8').replace('fd Movie: title, year', 'fd Movie: titel, year');
        rpc.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'probe', version: 1, text } });
        const ds = await diagnosticsFor(
            uri,
            d => d.some(x => x.code === 'unresolved-name') && d.some(x => x.code === 'fd-violated'),
        );
        const unresolved = ds.find(d => d.code === 'unresolved-name')!;
        assert.match(String(unresolved.message), /Did you mean 'title'/);
        assert.equal(
            unresolved.range.start.line,
            text.split('\n').findIndex(l => l.includes('titel')),
        );
        assert.match(String(ds.find(d => d.code === 'fd-violated')!.message), /:13/);

        const line = text.split('\n').findIndex(l => l.startsWith('fd Director'));
        const hover = (await rpc.sendRequest('textDocument/hover', {
            textDocument: { uri },
            position: { line, character: 1 },
        })) as Hover | null;
        assert.match((hover?.contents as MarkupContent).value, /violated/);

        // The quick fix of the FD violation opens the conflicting row: the server asks the editor to show it.
        const violation = ds.find(d => d.code === 'fd-violated')!;
        const actions = (await rpc.sendRequest('textDocument/codeAction', {
            textDocument: { uri },
            range: violation.range,
            context: { diagnostics: [violation] },
        })) as CodeAction[];
        const open = actions.find(a => a.command?.arguments?.[1] === 13)!;
        await rpc.sendRequest('workspace/executeCommand', { command: open.command!.command, arguments: open.command!.arguments });
        assert.equal(shown.at(-1)?.uri, pathToFileURL(path.join(dir, 'data/movies.csv')).toString());
        assert.equal(shown.at(-1)?.selection?.start.line, 12);

        rpc.sendNotification('textDocument/didChange', {
            textDocument: { uri, version: 2 },
            contentChanges: [{ text: text.replace('titel', 'title') }],
        });
        const fixed = await diagnosticsFor(uri, d => !d.some(x => x.code === 'unresolved-name'));
        assert.ok(
            fixed.some(d => d.code === 'fd-violated'),
            'the data diagnostics stay after an edit',
        );

        // Mending the data file on disk re-checks the open spec without any edit to it.
        const csv = path.join(dir, 'data/movies.csv');
        fs.writeFileSync(csv, fs.readFileSync(csv, 'utf8').replace(/1955\n$/, '1954\n'));
        await diagnosticsFor(uri, d => !d.some(x => x.code === 'fd-violated'));
    });

    it('offers the FDs the data holds as code actions on a relation, with their evidence; an added one is not offered again', async () => {
        // 2,000 rows: city -> country exactly, shop -> price except on 10 rows (0.5 %), id a key.
        const rows = Array.from({ length: 2000 }, (_, i) => {
            const city = (i * 7) % 40,
                shop = (i * 13) % 30;
            return [i, city, city % 7, shop, i % 200 === 3 ? 99 : shop % 11].join(',');
        });
        fs.writeFileSync(path.join(dir, 'sales.csv'), `id,city,country,shop,price\n${rows.join('\n')}\n`);
        const file = path.join(dir, 'sales.probe');
        const uri = pathToFileURL(file).toString();
        const text =
            'source sales csv "sales.csv"\n\nrelation Sale from sales {\n    id: int\n    city: int\n    country: int\n    shop: int\n    price: int\n    key (id)\n}\n';
        rpc.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'probe', version: 1, text } });
        await diagnosticsFor(uri, () => true);
        const onRelation = { start: { line: 2, character: 10 }, end: { line: 2, character: 10 } };
        const ask = async () =>
            (await rpc.sendRequest('textDocument/codeAction', {
                textDocument: { uri },
                range: onRelation,
                context: { diagnostics: [] },
            })) as CodeAction[];
        const actions = await ask();
        const titles = actions.map(a => a.title);
        assert.ok(titles.includes('add fd Sale: city -> country (holds on 100.0 % of rows, 40 groups)'), titles.join('\n'));
        assert.ok(titles.includes('add fd Sale: shop -> price (holds on 99.5 % of rows, 30 groups)'), titles.join('\n'));
        assert.ok(!titles.some(t => /fd Sale: id ->/.test(t)), 'a key left-hand side is not offered');
        // Nothing is offered away from a relation.
        const elsewhere = (await rpc.sendRequest('textDocument/codeAction', {
            textDocument: { uri },
            range: { start: { line: 0, character: 2 }, end: { line: 0, character: 2 } },
            context: { diagnostics: [] },
        })) as CodeAction[];
        assert.deepEqual(elsewhere, []);

        const add = actions.find(a => a.title.startsWith('add fd Sale: city -> country'))!;
        const change = add.edit!.changes![uri]![0]!;
        const lines = text.split('\n');
        const offset =
            lines.slice(0, change.range.start.line).reduce((n, l) => n + l.length + 1, 0) + change.range.start.character;
        const edited = text.slice(0, offset) + change.newText + text.slice(offset);
        assert.match(edited, /\n}\nfd Sale: city -> country\n/);
        rpc.sendNotification('textDocument/didChange', { textDocument: { uri, version: 2 }, contentChanges: [{ text: edited }] });
        const after = await diagnosticsFor(uri, () => true);
        assert.deepEqual(
            after.filter(d => d.severity === 1),
            [],
            'the added fd checks clean',
        );
        const again = (await ask()).map(a => a.title);
        assert.ok(!again.some(t => t.startsWith('add fd Sale: city -> country')), again.join('\n'));
        assert.ok(again.some(t => t.startsWith('add fd Sale: shop -> price')));
    });

    it('keeps answering while it works out the FD suggestions of a large table', async () => {
        // 150,000 rows × 10 columns: discovery takes about a second or more, on its budget of 2 s of computing.
        let seed = 7;
        const next = (limit: number) => {
            seed = (seed * 1103515245 + 12345) % 2147483648;
            return seed % limit;
        };
        const sizes = [2, 5, 10, 30, 100, 300, 1000, 3000, 10000, 50000];
        const rows = Array.from({ length: 150_000 }, () => sizes.map(n => next(n)).join(','));
        fs.writeFileSync(path.join(dir, 'wide.csv'), `${sizes.map((_, i) => `c${i}`).join(',')}\n${rows.join('\n')}\n`);
        const file = path.join(dir, 'wide.probe');
        const uri = pathToFileURL(file).toString();
        const text = `source wide csv "wide.csv"\n\nrelation Wide from wide {\n${sizes.map((_, i) => `    c${i}: int\n`).join('')}}\n`;
        rpc.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'probe', version: 1, text } });
        await diagnosticsFor(uri, () => true);
        const order: string[] = [];
        const actions = rpc
            .sendRequest('textDocument/codeAction', {
                textDocument: { uri },
                range: { start: { line: 2, character: 10 }, end: { line: 2, character: 10 } },
                context: { diagnostics: [] },
            })
            .then(r => {
                order.push('code actions');
                return r as CodeAction[];
            });
        // A hover asked right after: answered while the discovery runs, not after it.
        const hover = rpc
            .sendRequest('textDocument/hover', { textDocument: { uri }, position: { line: 3, character: 5 } })
            .then(r => {
                order.push('hover');
                return r;
            });
        const [found, shown] = await Promise.all([actions, hover]);
        assert.ok(shown, 'the hover has content');
        assert.ok(
            found.some(a => a.title.startsWith('add fd Wide:')),
            found.map(a => a.title).join('\n') || 'no FD offered',
        );
        assert.deepEqual(order, ['hover', 'code actions']);
    });
});
