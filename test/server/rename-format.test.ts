import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import * as fs from 'node:fs';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { at, FIXTURES, open, params, serverServices } from './support.js';

describe('rename across files', () => {
    it('renames a relation and an attribute in the declaring file and the importing file', async () => {
        const s = serverServices();
        const dir = path.join(FIXTURES, 'rename');
        const a = await open(
            s,
            path.join(dir, 'countries.probe'),
            'source c csv "c.csv"\nrelation Country from c {\n    code: text\n    name: text\n    key (code)\n}\n',
        );
        const b = await open(
            s,
            path.join(dir, 'people.probe'),
            'import "countries.probe"\nsource p csv "p.csv"\nrelation Person from p {\n    country: text\n}\nfk Person.country -> Country.code\naliases Person.country {\n    lookup Country.code -> name\n}\n',
        );
        await s.shared.workspace.DocumentBuilder.build([a, b], { validation: true });
        assert.deepEqual(
            b.diagnostics?.filter(d => d.code !== 'missing-file').map(d => d.message),
            [],
        );
        const rename = s.probe.lsp.RenameProvider!;
        const edit = await rename.rename(a, { ...params(a), position: at(a, 'Country', 1), newName: 'Nation' });
        const changes = edit?.changes ?? {};
        assert.equal(changes[a.uri.toString()]?.length, 1);
        assert.equal(changes[b.uri.toString()]?.length, 2, JSON.stringify(changes));
        assert.ok(
            Object.values(changes)
                .flat()
                .every(e => e.newText === 'Nation'),
        );
        const attr = await rename.rename(b, { ...params(b), position: at(b, 'Country.code', 9), newName: 'iso' });
        const attrChanges = attr?.changes ?? {};
        assert.equal(attrChanges[a.uri.toString()]?.length, 2, 'the declaration and the key'); // `code: text` and `key (code)`
        assert.equal(attrChanges[b.uri.toString()]?.length, 2, 'the fk and the lookup');
    });
});

describe('formatting', () => {
    const format = async (text: string) => {
        const s = serverServices();
        const doc = await open(s, path.join(FIXTURES, 'format.probe'), text);
        const edits = await s.probe.lsp.Formatter!.formatDocument(doc, {
            ...params(doc),
            options: { tabSize: 4, insertSpaces: true },
        });
        return TextDocument.applyEdits(doc.textDocument, edits);
    };

    it('puts one declaration per line and indents block members by 4 spaces', async () => {
        const messy =
            'source movies csv "m.csv" relation Movie from movies{title: text = "t"   year:int\nkey (title ,year)}\n\n\nfd Movie:title->year as f\nmodel m offline {  knowledge 0.8 unsure 0.1 }\nsuite s { probes p models m }\nprobe p binary using f { basic "Is {title} from {year}?" }\n';
        const expected = [
            'source movies csv "m.csv"',
            'relation Movie from movies {',
            '    title: text = "t"',
            '    year: int',
            '    key (title, year)',
            '}',
            '',
            '',
            'fd Movie: title -> year as f',
            'model m offline {',
            '    knowledge 0.8',
            '    unsure 0.1',
            '}',
            'suite s {',
            '    probes p',
            '    models m',
            '}',
            'probe p binary using f {',
            '    basic "Is {title} from {year}?"',
            '}',
            '',
        ].join('\n');
        assert.equal(await format(messy), expected);
    });

    it('leaves the movie example (comments, blank lines, blocks) unchanged', async () => {
        const example = fs.readFileSync(path.resolve(FIXTURES, '../../../examples/movie/movie.probe'), 'utf8');
        assert.equal(await format(example), example);
    });

    it('leaves a formatted file unchanged', async () => {
        const tidy = 'relation R from s {\n    a: int\n    key (a)\n}\n\nsource s csv "s.csv"\n';
        assert.equal(await format(tidy), tidy);
    });
});
