// Syntax errors in the spec's words, one per broken declaration (issue 25 item 6); the rest of the spec reads as written.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Diagnostic } from 'vscode-languageserver-types';
import { diagnose, MOVIE } from './support.js';

const errors = (ds: Diagnostic[]) => ds.filter(d => d.severity === 1);
const show = (ds: Diagnostic[]) =>
    ds.map(d => `${d.range.start.line + 1}:${d.range.start.character + 1} ${String(d.code)}: ${d.message}`).join('\n');
const lineOf = (text: string, start: string) => text.split('\n').findIndex(l => l.startsWith(start));

describe('syntax errors', () => {
    it('the movie spec is clean', async () => {
        assert.deepEqual(errors(await diagnose(MOVIE)), []);
    });

    it('two half-typed declarations: one problem each, where each stops; the declarations after them still read', async () => {
        const text = MOVIE.replace('probe director_decade', 'probe p2 binary using \n\nprobe director_decade').replace(
            'model simulator',
            'probe p3 path along \n\nmodel simulator',
        );
        const ds = errors(await diagnose(text));
        assert.equal(ds.length, 2, show(ds));
        assert.deepEqual(
            ds.map(d => d.range.start),
            [
                { line: lineOf(text, 'probe p2'), character: 'probe p2 binary using'.length },
                { line: lineOf(text, 'probe p3'), character: 'probe p3 path along'.length },
            ],
        );
        assert.equal(ds[0]!.message, 'Unfinished probe p2: expected the name of an FD or rule after `using`.');
        assert.equal(
            ds[1]!.message,
            'Unfinished probe p3: expected a path, Relation.attribute -> Relation.attribute after `along`.',
        );
        // director_decade and simulator were not swallowed: the suite's references to them resolve.
        assert.ok(!ds.some(d => d.code === 'unresolved-name'), show(ds));
    });

    it('a half-typed attribute keeps its relation: one problem, and no unknown names where the relation is used', async () => {
        const text = MOVIE.replace('    genres: list<text> = "genres"\n', '    genres: list<text> = "genres"\n    rating:\n');
        const ds = errors(await diagnose(text));
        assert.equal(ds.length, 1, show(ds));
        assert.equal(ds[0]!.code, 'syntax');
        assert.match(String(ds[0]!.message), /^(In|Unfinished) relation Movie: expected .*`text`.*after `:`/);
        assert.doesNotMatch(String(ds[0]!.message), /Expecting|Token sequences/);
    });

    it('something that starts no declaration says what would', async () => {
        const ds = errors(await diagnose(`${MOVIE}\n}\n`));
        assert.equal(ds.length, 1, show(ds));
        assert.equal(
            ds[0]!.message,
            '`}` does not start a declaration: a declaration starts with import, source, relation, fd, fk, aliases, probe, model, suite or rule.',
        );
    });
});
