// Issue 29, item 9: diagnostics after an edit of a 2,000-line spec took a whole re-parse, re-link and re-check of
// every declaration (median 116–193 ms, p95 204–408 ms on a busy machine). Now an edit costs what it touched. This
// counts the work (characters parsed, nodes checked, names looked up, probes analysed) through the language
// server's own services, on a real spec file and a real 20,000-row CSV, after typing in one probe and after a
// line added at the top: each is bounded by the edit, not by the spec. (Speed itself: `npm run bench -- lsp`.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { URI, type AstNode, type LangiumDocument } from 'langium';
import { NodeFileSystem } from 'langium/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { DataCache, loadData, readHeader } from '../../src/core/data/index.js';
import { probeDiagnostics } from '../../src/core/probes/index.js';
import type { SpecModel } from '../../src/core/spec/index.js';
import { createProbeServerServices } from '../../src/server/module.js';
import { cachedProbeDiagnostics } from '../../src/server/probe-diagnostics.js';
import { largeSpec, writeLargeCsv } from '../support/large-spec.js';

const LINES = 2_000;

test('an edit of a 2,000-line spec parses, links and checks what it touched', { timeout: 180_000 }, async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'halluprobe-edit-work-'));
    try {
        writeLargeCsv(path.join(dir, 'movies.csv'), 20_000);
        let text = largeSpec(LINES);
        const file = path.join(dir, 'spec.probe');
        fs.writeFileSync(file, text);
        const work = { parsed: 0, checked: 0, lookedUp: 0, analysed: 0 };
        const cache = new DataCache();
        let model: SpecModel | undefined;
        const probes = cachedProbeDiagnostics((spec, data) => {
            work.analysed += spec.probes.length;
            return probeDiagnostics(spec, data, { editor: true });
        });
        const { shared, probe } = createProbeServerServices(
            { ...NodeFileSystem },
            {
                loadData: (spec, options) => loadData(spec, cache, undefined, options),
                readHeader,
                moreDiagnostics: ({ spec, data }, _reported, token) => {
                    model = spec;
                    return probes(spec, data, token);
                },
            },
        );
        const parser = probe.parser.LangiumParser;
        const parse = parser.parse.bind(parser);
        parser.parse = ((input: string, options?: never) => {
            work.parsed += input.length;
            return parse(input, options);
        }) as typeof parser.parse;
        probe.validation.ValidationRegistry.register({
            AstNode: () => {
                work.checked++;
            },
        } as never);
        const scopes = probe.references.ScopeProvider;
        const getScope = scopes.getScope.bind(scopes);
        scopes.getScope = context => {
            work.lookedUp++;
            return getScope(context);
        };

        const uri = URI.file(file);
        const texts = shared.workspace.TextDocuments!;
        let version = 1;
        // Opened as the server opens a document: an update of an open text document (the server's build options).
        texts.set(TextDocument.create(uri.toString(), 'probe', version, text));
        await shared.workspace.DocumentBuilder.update([uri], []);
        const whole = { ...work };
        assert.ok(
            whole.checked > 1_000 && whole.lookedUp > 1_000 && whole.analysed > 50,
            `the first build does it all: ${JSON.stringify(whole)}`,
        );
        const relations = model!.relations;

        const edit = async (next: string) => {
            Object.assign(work, { parsed: 0, checked: 0, lookedUp: 0, analysed: 0 });
            text = next;
            texts.set(TextDocument.create(uri.toString(), 'probe', ++version, text));
            await shared.workspace.DocumentBuilder.update([uri], []);
            return { ...work };
        };
        // Typing in one probe's question, five times.
        for (let i = 0; i < 5; i++) {
            const done = await edit(
                text.replace(
                    /basic "Is \{director\}( really)* the director/,
                    m => `${m.slice(0, -'the director'.length)}really the director`,
                ),
            );
            assert.ok(done.parsed < 2_000, `characters parsed: ${done.parsed} (the spec has ${text.length})`);
            assert.ok(done.checked < 60, `nodes checked: ${done.checked} (the first build: ${whole.checked})`);
            assert.ok(done.lookedUp < 20, `names looked up: ${done.lookedUp} (the first build: ${whole.lookedUp})`);
            assert.equal(done.analysed, 1, 'probes analysed for the data diagnostics');
            assert.ok(
                model!.relations.every((r, k) => r === relations[k]),
                'the untouched relations are the same declarations',
            );
        }
        // A line added at the top moves every declaration: nothing is parsed, checked or looked up again for that.
        const moved = await edit(`// a note\n${text}`);
        assert.ok(moved.parsed < 2_000, `characters parsed: ${moved.parsed}`);
        assert.ok(moved.checked < 60, `nodes checked: ${moved.checked}`);
        assert.ok(moved.lookedUp < 20, `names looked up: ${moved.lookedUp}`);
        assert.equal(moved.analysed, 0, 'a probe that only moved keeps its data diagnostics');

        // And what is published is what a fresh build of the same text publishes.
        const fresh = createProbeServerServices(
            { ...NodeFileSystem },
            {
                loadData: (spec, options) => loadData(spec, cache, undefined, options),
                readHeader,
                moreDiagnostics: ({ spec, data }) => probeDiagnostics(spec, data, { editor: true }),
            },
        );
        const other = fresh.shared.workspace.LangiumDocumentFactory.fromString(text, uri);
        fresh.shared.workspace.LangiumDocuments.addDocument(other);
        await fresh.shared.workspace.DocumentBuilder.build([other], { validation: true });
        const shown = (d: LangiumDocument<AstNode>) =>
            (d.diagnostics ?? [])
                .map(x => `${x.range.start.line}:${x.range.start.character} ${String(x.code)} ${x.message}`)
                .sort();
        assert.deepEqual(shown(shared.workspace.LangiumDocuments.getDocument(uri)!), shown(other));
    } finally {
        fs.rmSync(dir, { recursive: true, force: true });
    }
});
