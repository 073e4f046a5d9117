import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import * as fs from 'node:fs';
import { LangiumCompletionParser, type LangiumDocument } from 'langium';
import type { CodeAction, CompletionItem, Diagnostic, Hover, MarkupContent } from 'vscode-languageserver';
import { codeActionsFor } from '../../src/server/features/code-actions.js';
import { OPEN_DATA_ROW_COMMAND } from '../../src/protocol/lsp.js';
import { at, FIXTURES, open, params, serverServices, type Services } from './support.js';

const hoverText = (h: Hover | undefined) => (h?.contents as MarkupContent | undefined)?.value ?? '';

describe('language server features over the movie fixture and its data', () => {
    let s: Services;
    let doc: LangiumDocument;
    const spec = path.join(FIXTURES, 'movie.probe');
    before(async () => {
        s = serverServices();
        doc = await open(s, spec);
    });
    const hover = (needle: string, delta = 1, nth = 0) =>
        s.probe.lsp.HoverProvider!.getHoverContent(doc, { ...params(doc), position: at(doc, needle, delta, nth) });
    const complete = async (d: LangiumDocument, needle: string, delta: number): Promise<CompletionItem[]> =>
        (await s.probe.lsp.CompletionProvider!.getCompletion(d, { ...params(d), position: at(d, needle, delta) }))?.items ?? [];

    it('publishes the data diagnostics with the language ones: the FD violation with both line numbers', () => {
        const fd = (doc.diagnostics ?? []).find(d => d.code === 'fd-violated');
        assert.ok(fd, JSON.stringify(doc.diagnostics?.map(d => [d.code, d.message])));
        assert.match(String(fd.message), /:2\b/);
        assert.match(String(fd.message), /:13\b/);
        assert.equal(doc.textDocument.getText(fd.range).startsWith('fd Director'), true, doc.textDocument.getText(fd.range));
    });

    it('hovers an attribute with type, column, counts and samples', async () => {
        const text = hoverText(await hover('birth_year: int', 2));
        assert.match(text, /Director\.birth_year.*int.*entity4/);
        assert.match(text, /rows · \d+ distinct · 0 null/);
        assert.match(text, /samples: `1954`|samples: .*1954/);
    });

    it('hovers attributes and functions inside a question template', async () => {
        assert.match(hoverText(await hover('{director}', 2)), /Movie\.director.*text.*entity2/);
        const d = await open(
            s,
            path.join(FIXTURES, 'hover-template.probe'),
            fs.readFileSync(spec, 'utf8').replace('({year})?', '({year}), born in the {decade(Director.birth_year)}s?'),
        );
        const at2 = (needle: string, delta: number) =>
            s.probe.lsp.HoverProvider!.getHoverContent(d, { ...params(d), position: at(d, needle, delta) });
        assert.match(hoverText(await at2('{decade(', 2)), /function.*decade/);
        assert.match(hoverText(await at2('Director.birth_year)', 10)), /Director\.birth_year.*int/);
    });

    it('hovers a relation with its source and row count', async () => {
        assert.match(hoverText(await hover('relation Movie', 10)), /csv `data\/movies.csv`[\s\S]*12 rows/);
    });

    it('hovers an FD: rows, distinct left-hand sides, whether it holds, and its closure through the fk', async () => {
        const holds = hoverText(await hover('movie_director', 2));
        assert.match(holds, /12 rows · 12 distinct left-hand sides · holds/);
        assert.match(holds, /Director\.birth_year/);
        const violated = hoverText(await hover('fd Director', 0));
        assert.match(violated, /violated\*\* by 1 group/);
    });

    it('hovers an attribute of an fd with the fd first (rows, whether it holds), then the attribute', async () => {
        const text = hoverText(await hover('fd Director: name -> birth_year', 'fd Director: name -> '.length + 2));
        assert.match(text, /\*\*fd\*\*[\s\S]*rows · \d+ distinct left-hand sides · \*\*violated\*\*/);
        assert.match(text, /---[\s\S]*Director\.birth_year.*int/);
    });

    it('builds the completion parser at the first completion, not at start-up, and completes with it', async () => {
        const fresh = serverServices();
        const d = await open(fresh, path.join(FIXTURES, 'completion-lazy.probe'), 'source movies csv "data/movies.csv"\n');
        assert.ok(
            !(fresh.probe.parser.CompletionParser instanceof LangiumCompletionParser),
            'no completion parser before a completion',
        );
        const items = await fresh.probe.lsp.CompletionProvider!.getCompletion(d, {
            ...params(d),
            position: { line: 1, character: 0 },
        });
        assert.ok(
            items?.items.some(i => i.label === 'relation'),
            JSON.stringify(items?.items.map(i => i.label)),
        );
    });

    it('completes CSV column names inside a column mapping', async () => {
        const d = await open(
            s,
            path.join(FIXTURES, 'completion-column.probe'),
            'source movies csv "data/movies.csv"\nrelation M from movies {\n    title: text = "ent\n}\n',
        );
        const labels = (await complete(d, '"ent', 4)).map(i => i.label);
        assert.ok(labels.includes('common_entity') && labels.includes('entity4'), labels.join(','));
    });

    it('completes attribute names and functions inside a placeholder', async () => {
        const d = await open(
            s,
            path.join(FIXTURES, 'completion-template.probe'),
            fs.readFileSync(spec, 'utf8').replace('"Is {director}', '"Is {dir'),
        );
        const items = await complete(d, '{dir', 4);
        assert.ok(
            items.some(i => i.label === 'director'),
            items.map(i => i.label).join(','),
        );
        assert.ok(items.some(i => i.label === 'Director.birth_year'));
        assert.ok(items.some(i => i.label === 'decade'));
    });

    it('completes relation names, attribute names of the right relation, and keywords', async () => {
        const d = await open(
            s,
            path.join(FIXTURES, 'completion-names.probe'),
            `${fs.readFileSync(spec, 'utf8')}\nfd Director: \n`,
        );
        const labels = (await complete(d, 'fd Director: ', 13)).map(i => i.label);
        assert.ok(labels.includes('name') && labels.includes('birth_year'), labels.join(','));
        assert.ok(!labels.includes('title'), 'attributes of another relation are not offered');
        const top = (await complete(d, 'fd Director: ', 0)).map(i => i.label);
        assert.ok(top.includes('relation') && top.includes('probe'), top.join(','));
    });

    it('completes probe and model names in a suite', async () => {
        const d = await open(
            s,
            path.join(FIXTURES, 'completion-suite.probe'),
            `${fs.readFileSync(spec, 'utf8')}\nmodel sim offline { }\nsuite s {\n    probes \n}\nsuite t {\n    probes movie_binary\n    models \n}\n`,
        );
        assert.ok((await complete(d, 'probes ', 7)).some(i => i.label === 'movie_binary'));
        assert.ok((await complete(d, 'models ', 7)).some(i => i.label === 'sim'));
    });

    it('completes the settings a block knows', async () => {
        const d = await open(s, path.join(FIXTURES, 'completion-settings.probe'), 'model m openai {\n    id "gpt-4o"\n    \n}\n');
        const labels = (await complete(d, '"gpt-4o"\n    ', 12)).map(i => i.label);
        assert.ok(labels.includes('temperature') && labels.includes('key_env'), labels.join(','));
    });

    it('goes to the definition, finds references, lists symbols and folds blocks', async () => {
        const defs = await s.probe.lsp.DefinitionProvider!.getDefinition(doc, {
            ...params(doc),
            position: at(doc, 'Director.name', 2),
        });
        assert.equal(
            defs?.[0]?.targetRange.start.line,
            doc.textDocument.positionAt(doc.textDocument.getText().indexOf('relation Director')).line,
        );
        const refs = await s.probe.lsp.ReferencesProvider!.findReferences(doc, {
            ...params(doc),
            position: at(doc, 'movie_director', 1),
            context: { includeDeclaration: false },
        });
        assert.equal(refs.length, 1);
        const symbols = await s.probe.lsp.DocumentSymbolProvider!.getSymbols(doc, params(doc));
        assert.ok(
            ['movies', 'Movie', 'Director', 'movie_binary'].every(n => symbols.some(x => x.name === n)),
            symbols.map(x => x.name).join(','),
        );
        const unnamed = await s.probe.lsp.DocumentSymbolProvider!.getSymbols(
            await open(s, path.join(FIXTURES, 'symbols.probe'), 'fd Movie: title -> year\nfk Movie.director -> Director.name\n'),
            params(doc),
        );
        assert.deepEqual(
            unnamed.map(x => x.name),
            ['fd Movie: title -> year', 'fk Movie.director -> Director.name'],
        );
        const folds = await s.probe.lsp.FoldingRangeProvider!.getFoldingRanges(doc, params(doc));
        assert.ok(folds.length >= 3);
    });

    it('produces semantic tokens, including placeholders inside strings', async () => {
        const tokens = await s.probe.lsp.SemanticTokenProvider!.semanticHighlight(doc, params(doc));
        const lines = new Set<number>();
        let line = 0;
        for (let i = 0; i < tokens.data.length; i += 5) {
            line += tokens.data[i]!;
            lines.add(line);
        }
        const probeLine = at(doc, 'basic "Is {director}').line;
        assert.ok(lines.has(probeLine), 'a token on the template line');
    });

    it('offers quick fixes for secrets, phrasings without gold and misspelt settings', async () => {
        const d = await open(
            s,
            path.join(FIXTURES, 'fixes2.probe'),
            'model m openai {\n    api_key "sk-123"\n    temprature 0\n}\n' +
                fs.readFileSync(spec, 'utf8').replace('basic "Is', 'phrasing mine "Is'),
        );
        const fix = (code: string) =>
            codeActionsFor(
                d,
                (d.diagnostics ?? []).find(x => x.code === code)!,
            );
        const apply = (a: CodeAction | undefined) => {
            const e = Object.values(a!.edit!.changes!)[0]![0]!;
            return (
                d.textDocument.getText().slice(0, d.textDocument.offsetAt(e.range.start)) +
                e.newText +
                d.textDocument.getText().slice(d.textDocument.offsetAt(e.range.end))
            );
        };
        assert.match(apply(fix('secret-in-spec')[0]), /model m openai \{\n {4}key_env "OPENAI_API_KEY"\n/);
        assert.match(apply(fix('unknown-setting')[0]), /\n {4}temperature 0\n/);
        assert.match(apply(fix('phrasing-needs-gold')[0]), /phrasing mine gold yes "Is/);
    });

    it('offers quick fixes: closest name, closest column, and opening the conflicting rows', async () => {
        const d = await open(
            s,
            path.join(FIXTURES, 'fixes.probe'),
            fs
                .readFileSync(spec, 'utf8')
                .replace('fd Movie: title, year -> director', 'fd Movie: titel, year -> director')
                .replace('"entity1"', '"entity_1"'),
        );
        const byCode = (code: string) => (d.diagnostics ?? []).find(x => x.code === code)!;
        const actions = (diagnostic: Diagnostic): CodeAction[] => codeActionsFor(d, diagnostic);
        const rename = actions(byCode('unresolved-name'))[0];
        assert.equal(rename?.title, "Change to 'title'");
        assert.equal(Object.values(rename!.edit!.changes!)[0]![0]!.newText, 'title');
        const column = byCode('missing-column');
        assert.ok(column, JSON.stringify(d.diagnostics?.map(x => x.code)));
        const fix = actions(column)[0];
        assert.equal(Object.values(fix!.edit!.changes!)[0]![0]!.newText, '"entity1"');
        const rows = actions(byCode('fd-violated'));
        assert.deepEqual(
            rows.map(a => a.command?.arguments?.[1]),
            [2, 13],
        );
        assert.ok(rows.every(a => a.command?.command === OPEN_DATA_ROW_COMMAND));
        // The provider answers the same as the pure function (quick fixes only: FD suggestions are refactorings).
        const viaProvider = await s.probe.lsp.CodeActionProvider!.getCodeActions(d, {
            ...params(d),
            range: column.range,
            context: { diagnostics: [column], only: ['quickfix'] },
        });
        assert.equal(viaProvider?.length, 1);
    });
});
