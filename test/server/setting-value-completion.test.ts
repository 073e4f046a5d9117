// Completion offers a family setting's allowed values (issue 23): after the setting's name in a probe block, and
// inside its list, the values the family declares (with its doc line); nothing for a setting without a list of
// values. Through the language server's completion provider over the real file system and data layer.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import * as fs from 'node:fs';
import type { CompletionItem } from 'vscode-languageserver';
import { CompletionItemKind } from 'vscode-languageserver';
import { at, FIXTURES, open, params, serverServices, type Services } from './support.js';

describe("completion of a setting's values", () => {
    let s: Services;
    const base = fs.readFileSync(path.join(FIXTURES, 'movie.probe'), 'utf8');
    before(() => {
        s = serverServices();
    });
    const complete = async (name: string, probe: string, needle: string, delta: number): Promise<CompletionItem[]> => {
        const d = await open(s, path.join(FIXTURES, name), `${base}\n${probe}\n`);
        return (
            (await s.probe.lsp.CompletionProvider!.getCompletion(d, { ...params(d), position: at(d, needle, delta) }))?.items ??
            []
        );
    };
    const values = (items: CompletionItem[]) => items.filter(i => i.kind === CompletionItemKind.Value);

    it("after the name: the allowed values, with the setting's doc", async () => {
        const items = await complete(
            'values-path.probe',
            'probe p path along Movie.director -> Director.birth_year {\n    basic "Was the director of {title} born in the {decade(birth_year)}s?"\n    ar_ext \n}',
            'ar_ext ',
            7,
        );
        assert.deepEqual(
            values(items).map(i => i.label),
            ['per_hop', 'complete'],
        );
        assert.match(String(values(items)[0]!.documentation), /How AR-ext counts/);
    });

    it('with a value begun: the values still offered, replacing what is typed', async () => {
        const items = await complete(
            'values-begun.probe',
            'probe p path along Movie.director -> Director.birth_year {\n    basic "Was the director of {title} born in the {decade(birth_year)}s?"\n    ar_ext comp\n}',
            'ar_ext comp',
            11,
        );
        const complete_ = values(items).find(i => i.label === 'complete');
        assert.ok(complete_, JSON.stringify(items.map(i => i.label)));
        assert.equal((complete_.textEdit as { newText: string }).newText, 'complete');
    });

    it("inside a list setting's brackets", async () => {
        const items = await complete(
            'values-list.probe',
            'probe p statement using movie_director {\n    corrupt [tail, \n}',
            'corrupt [tail, ',
            15,
        );
        assert.deepEqual(
            values(items).map(i => i.label),
            ['tail', 'head', 'relation'],
        );
    });

    it('nothing for a setting without a list of values', async () => {
        const items = await complete(
            'values-none.probe',
            'probe p path along Movie.director -> Director.birth_year {\n    basic "Was the director of {title} born in the {decade(birth_year)}s?"\n    limit \n}',
            'limit ',
            6,
        );
        assert.deepEqual(values(items), []);
    });
});
