// `as of` in the editor: completion offers it where the grammar allows it, and a date naming no year is a located error.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import type { LangiumDocument } from 'langium';
import { at, FIXTURES, open, params, serverServices, type Services } from './support.js';

describe('as of in the editor', () => {
    let s: Services;
    before(() => {
        s = serverServices();
    });
    const labels = async (d: LangiumDocument, needle: string, delta: number) =>
        (
            (await s.probe.lsp.CompletionProvider!.getCompletion(d, { ...params(d), position: at(d, needle, delta) }))?.items ??
            []
        ).map(i => i.label);

    it('completes "as" after a source\'s path and a relation\'s source, and "of" after "as"', async () => {
        const d = await open(
            s,
            path.join(FIXTURES, 'as-of-completion.probe'),
            'source players csv "p.csv" \nrelation P from players  {\n    name: text\n}\nsource clubs csv "c.csv" as \n',
        );
        assert.ok((await labels(d, '"p.csv" ', 8)).includes('as'), 'after a source path');
        assert.ok((await labels(d, 'from players ', 13)).includes('as'), "after a relation's source");
        assert.ok((await labels(d, '"c.csv" as ', 11)).includes('of'), 'after as');
    });

    it('an "as of" that names no year is an error on its value, with the fix', async () => {
        const d = await open(
            s,
            path.join(FIXTURES, 'as-of-error.probe'),
            'source players csv "p.csv" as of "some day"\nrelation P from players as of 2019 {\n    name: text\n}\n',
        );
        const errors = (d.diagnostics ?? []).filter(x => x.code === 'as-of-value');
        assert.equal(errors.length, 1, JSON.stringify(d.diagnostics?.map(x => [x.code, x.message])));
        assert.equal(d.textDocument.getText(errors[0]!.range), '"some day"');
        assert.match(String(errors[0]!.message), /e\.g\. 'as of 2019'/);
    });
});
