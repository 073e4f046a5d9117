// `keyword_match paper`: the ERBench authors' keyword check (check_reasoning), spelling by spelling.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createVerifyContext, verify } from '../../../src/core/verify/verify.js';
import { keywordForms } from '../../../src/core/verify/aliases.js';
import type { AliasRuleDecl, SpecModel } from '../../../src/core/spec/model.js';
import { data, kw, loc, question, spec } from '../../fixtures/verify/world.js';

const normaliser = (name: string, args: (string | number)[] = []): AliasRuleDecl => ({ kind: 'normaliser', name, args, loc });
const withAliases = (relation: string, attribute: string, rules: AliasRuleDecl[]): SpecModel => ({
    ...spec,
    aliases: [...spec.aliases, { target: { relation, attribute }, rules, loc }],
});
const texts = (s: SpecModel, relation: string, attribute: string, value: string, paper = true) =>
    keywordForms(s, data, relation, attribute, value, { paper }).alternatives.map(a => a.text);

function paperCheck(response: string, keyword = kw('Movie', 'title', 'Avatar'), s: SpecModel = spec) {
    const q = question('Which option is false about the movie?', [[keyword]], {
        kind: 'choice',
        gold: 1,
        options: ['a', 'b'],
        keywordMatch: 'paper',
    });
    return verify(q, response, createVerifyContext(s, data), 'm').hops[0]!.keywords[0]!;
}

describe("the authors' keyword rule (keyword_match paper)", () => {
    it('is a lower-case substring of the whole response, the answer line included, not a word', () => {
        assert.equal(paperCheck('Option 1: Avatar').status, 'found', 'in the answer line');
        assert.equal(paperCheck('Option 2. I loved avatars.').status, 'found', 'inside a longer word');
        assert.equal(paperCheck('Option 2. I loved avatars.').rule, 'paper');
        assert.equal(paperCheck('Option 2. Titanic, then\nAva\ntar.').status, 'missing');
    });

    it('reads line breaks as spaces, as the authors joined the answer', () => {
        const k = paperCheck('Option 2.\n\nThe director is James\nCameron.', kw('Director', 'name', 'James Cameron'));
        assert.equal(k.status, 'found');
    });

    it('looks for no contradiction: another title stated does not fail a found keyword, nor make a missing one contradicted', () => {
        assert.equal(paperCheck('Option 1. It is "Titanic", not Avatar.').status, 'found');
        const k = paperCheck('Option 1. The movie is "Titanic".');
        assert.equal(k.status, 'missing');
        assert.equal(k.conflict, undefined);
    });

    it("takes a name's first and last word as written (no length floor), numbers as rounded or truncated texts", () => {
        assert.deepEqual(texts(spec, 'Director', 'name', 'Jo Li Wu'), ['Jo', 'Wu']);
        assert.deepEqual(texts(spec, 'Director', 'name', 'Jo Li Wu', false), [], 'ours drops initials-like parts');
        assert.deepEqual(texts(spec, 'Airport', 'lat', '37.4691'), ['37.47']);
        assert.deepEqual(texts(spec, 'Airport', 'lon', '-72.0508'), ['-72.05']);
        assert.deepEqual(texts(spec, 'Airport', 'lon', '10.5169'), ['10.51']);
        const k = paperCheck('Option 3: it lies at 37.47 N.', kw('Airport', 'lat', '37.4691'));
        assert.equal(k.status, 'found');
        assert.equal(k.rule, 'paper:round(2)');
        assert.equal(
            paperCheck('Option 3: it lies at 37.470 N.', kw('Airport', 'lat', '37.4691')).status,
            'found',
            'a substring: 37.47 in 37.470',
        );
        assert.equal(
            paperCheck('Option 3: it lies at 37.5 N.', kw('Airport', 'lat', '37.4691')).status,
            'missing',
            'no numeric tolerance',
        );
    });

    it("split, first_word and ascii give the authors' genre, publisher and accent spellings (also in our default)", () => {
        const s = withAliases('Song', 'genre', [normaliser('split', ['/'])]);
        assert.deepEqual(texts(s, 'Song', 'genre', 'pop/rock'), ['pop', 'rock']);
        assert.deepEqual(texts(s, 'Song', 'genre', 'pop/rock', false), ['pop', 'rock']);
        assert.deepEqual(texts(s, 'Song', 'genre', 'jazz'), []);
        const p = withAliases('Book', 'publisher', [normaliser('first_word')]);
        assert.deepEqual(texts(p, 'Book', 'publisher', 'Sterling Publishing'), ['Sterling']);
        assert.deepEqual(texts(p, 'Book', 'publisher', 'Penguin'), []);
        const a = withAliases('Player', 'club', [normaliser('ascii')]);
        assert.deepEqual(texts(a, 'Player', 'club', 'Atlético de Madrid'), ['Atletico de Madrid']);
        assert.equal(
            paperCheck('Option 2: the genre is wrong; it is a rock song.', kw('Song', 'genre', 'pop/rock'), s).rule,
            'paper:split',
        );
    });
});
