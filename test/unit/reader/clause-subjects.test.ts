/**
 * Issue 41, Build item 3 ("the claim's subject is the entity its clause is about"), found on the natural corpus's
 * tune/ open answers (batch b3): a relative clause with no name of its own, a subordinate clause with a subject of
 * its own, a denied span written before the clause's subject, and a title named by its subtitle. The sentences are
 * written for this test (none is a corpus answer); each failed before its change.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { storedFacts, verifyOpenAnswer } from '../../../src/core/families/open/check.js';
import type { StoredRelation } from '../../../src/core/families/open/types.js';
import { contextNode, DIRECTED_BY, MOVIE_STAR, MOVIE_YEAR } from '../../support/open-context.js';

const node = contextNode;
const nodes = [
    node('Movie(Interstellar)', 'Interstellar', 'Movie', true),
    node('Movie(Transcendence)', 'Transcendence', 'Movie', true),
    node('Movie(Harry Potter: The Goblet of Fire)', 'Harry Potter: The Goblet of Fire', 'Movie', true),
    node('Director(Christopher Nolan)', 'Christopher Nolan', 'Director', true),
    node('Director(Wally Pfister)', 'Wally Pfister', 'Director', true),
    node('Director(Mike Newell)', 'Mike Newell', 'Director', true),
    node('Movie.year=2014', '2014', 'Movie.year', false),
];
const relations: StoredRelation[] = [DIRECTED_BY, MOVIE_STAR, MOVIE_YEAR];
const data = storedFacts([
    { head: 'Movie(Interstellar)', relation: 'directed_by', tail: 'Director(Christopher Nolan)' },
    { head: 'Movie(Interstellar)', relation: 'Movie.year', tail: 'Movie.year=2014' },
    { head: 'Movie(Transcendence)', relation: 'directed_by', tail: 'Director(Wally Pfister)' },
    { head: 'Movie(Harry Potter: The Goblet of Fire)', relation: 'directed_by', tail: 'Director(Mike Newell)' },
]);
const read = (answer: string) => verifyOpenAnswer({ answer, nodes, relations, data });
const labels = (answer: string) => read(answer).map(v => v.data.label);

describe('issue 41: a relative clause with no name of its own is about the name it follows', () => {
    it('"… directed by Christopher Nolan, who had earlier directed Memento": about Nolan (another film: unverifiable)', () => {
        const got = labels('Interstellar was directed by Christopher Nolan, who had earlier directed Memento.');
        assert.deepEqual(got, ['supported', 'unverifiable']);
    });
});

describe('issue 41: a subordinate clause with a subject of its own ("after X left to …") is about that subject', () => {
    it('"…, who came back after Wally Pfister left to direct Transcendence": Pfister directed Transcendence', () => {
        const got = read(
            'Interstellar was directed by Christopher Nolan, who came back after Wally Pfister left to direct Transcendence.',
        );
        assert.ok(!got.some(v => v.data.label === 'contradicted'), JSON.stringify(got.map(v => [v.text, v.data.label])));
        assert.ok(got.some(v => v.data.label === 'supported' && v.text.includes('Transcendence')));
    });
    it('a preposition after the name is no clause: "released before Transcendence in 2014" stays one claim', () => {
        assert.deepEqual(labels('Interstellar was released in 2014.'), ['supported']);
        assert.equal(read('Interstellar came out in 2014, one year before Transcendence in the same genre.').length, 1);
    });
});

describe('issue 41: a denied span written before the clause subject is a claim about what it names', () => {
    it('"Listing Interstellar under Wally Pfister is incorrect — Nolan directed it": a true denial, not a contradiction', () => {
        const got = read('Listing Interstellar under Wally Pfister is incorrect — Nolan directed it.');
        const denied = got.find(v => v.negated && v.text.includes('Wally Pfister'));
        assert.ok(denied, JSON.stringify(got.map(v => [v.text, v.data.label, v.negated])));
        assert.equal(denied.data.label, 'supported');
        assert.ok(!got.some(v => v.data.label === 'contradicted'));
    });
    it('a correction after the subject still denies a value of that subject ("Nolan directed Interstellar, not Transcendence")', () => {
        const got = read('Christopher Nolan directed Interstellar, not Transcendence.');
        assert.deepEqual(
            got.map(v => [v.data.label, !!v.negated]),
            [
                ['supported', false],
                ['supported', true],
            ],
        );
    });
});

describe('issue 41: a title named by its subtitle ("The Goblet of Fire") links to the film', () => {
    it('"Mike Newell directed The Goblet of Fire" is supported', () => {
        assert.deepEqual(labels('Mike Newell directed The Goblet of Fire.'), ['supported']);
    });
    it('the subtitle written in lower case is ordinary words, no mention', () => {
        assert.deepEqual(
            read('Mike Newell directed it like the goblet of fire it is.').map(v => v.mentions),
            [['Director(Mike Newell)']],
        );
    });
});

describe('issue 41: a denial denies the relation it names', () => {
    it('"the facts list Wally Pfister as a star of Transcendence, but he directed it": the denied star credit is a true denial', () => {
        const got = read('The facts list Wally Pfister as a star of Transcendence, but he directed it.');
        assert.ok(!got.some(v => v.data.label === 'contradicted'), JSON.stringify(got.map(v => [v.text, v.data.label])));
    });
    it('"Nolan never acted in Interstellar": a relation the data does not name is no contradiction of its directing', () => {
        assert.ok(!labels('Christopher Nolan never acted in Interstellar.').includes('contradicted'));
    });
    it('a denied relation the data names is still contradicted ("Nolan did not direct Interstellar")', () => {
        assert.deepEqual(labels('Christopher Nolan did not direct Interstellar.'), ['contradicted']);
    });
});

describe('issue 41: what the answer reports of the given facts is its claim only as a whole', () => {
    it('"Per the facts given, X was directed by Y, not Z. By my recollection, though, …": set against; "not Z" is the facts\'', () => {
        const got = read(
            'Per the facts given, Interstellar was directed by Wally Pfister, not Christopher Nolan. By my recollection, though, Nolan directed Interstellar.',
        );
        assert.ok(!got.some(v => v.data.label === 'contradicted'), JSON.stringify(got.map(v => [v.text, v.data.label])));
        assert.ok(got.some(v => v.data.label === 'supported'));
    });
    it('a report the answer follows stays its claim ("According to the facts, X was directed by Y.")', () => {
        assert.deepEqual(labels('According to the facts given, Interstellar was directed by Wally Pfister.'), ['contradicted']);
    });
});

describe('issue 41 (b4): a "which" clause right after a name is about that name', () => {
    it('"Pfister went on to make Transcendence, which starred Johnny Depp": no star claim about Pfister', () => {
        const got = read('Wally Pfister went on to make Transcendence, which starred Johnny Depp.');
        assert.ok(!got.some(v => v.data.label === 'contradicted'), JSON.stringify(got.map(v => [v.text, v.data.label])));
        assert.ok(got.some(v => v.data.label === 'supported' && v.text.includes('Transcendence')));
    });
    it('guard: a "which" clause that states the data\'s value is judged about the name it follows', () => {
        const got = read('Christopher Nolan made a film, Interstellar, which was released in 2014.');
        assert.ok(
            got.some(v => v.data.label === 'supported' && /2014/.test(v.text)),
            JSON.stringify(got.map(v => [v.text, v.data.label])),
        );
    });
    it('guard: "which" after a common noun opens no clause ("the notes given, which agree with me, …")', () => {
        const got = read('Going by the notes given, which agree with me, Wally Pfister directed Transcendence.');
        assert.ok(
            got.some(v => v.data.label === 'supported'),
            JSON.stringify(got.map(v => [v.text, v.data.label])),
        );
    });
    it('guard: "which" with a subject of its own ("which the list credits to …") opens no clause', () => {
        const got = read('Pfister also made Transcendence, which the list wrongly credits to Johnny Depp.');
        assert.equal(got.length, 1, JSON.stringify(got.map(v => v.text)));
    });
});

describe('issue 41 (b4): a dash before a pronoun and its verb opens a clause of its own, as a comma does', () => {
    it('"Nolan is the director of Interstellar — he did not act in it": the first clause stands, supported', () => {
        const got = read('Christopher Nolan is the director of Interstellar — he did not star in it, whatever the list says.');
        assert.ok(!got.some(v => v.data.label === 'contradicted'), JSON.stringify(got.map(v => [v.text, v.data.label])));
        assert.ok(got.some(v => v.data.label === 'supported' && v.text.includes('director')));
    });
    it('guard: a dash before a name is no such clause ("Interstellar — Christopher Nolan\'s film — came out in 2014")', () => {
        const got = read("Interstellar — Christopher Nolan's film — came out in 2014.");
        assert.equal(got.length, 1, JSON.stringify(got.map(v => v.text)));
    });
});

describe('issue 41 (b4): a value of an attribute written after the subject is that attribute, not the object of the relation', () => {
    it('"Interstellar (2014), starring Anne Hathaway": the year is no star of the film, nothing contradicted', () => {
        const got = read('Interstellar (2014), starring Anne Hathaway.');
        assert.ok(!got.some(v => v.data.label === 'contradicted'), JSON.stringify(got.map(v => [v.text, v.data.label])));
    });
    it('guard: an entity linked by another relation is still contradicted ("Interstellar starred Christopher Nolan")', () => {
        assert.deepEqual(labels('Interstellar starred Christopher Nolan.'), ['contradicted']);
    });
});

describe('issue 41 (b4): a report the next sentence rejects whole is no claim of the answer', () => {
    it('"the facts given claim X … None of that fits what I know": X is not the answer\'s claim', () => {
        const got = read(
            'To start with the notes: the facts given claim Interstellar was directed by Wally Pfister. None of that fits what I know. Christopher Nolan directed Interstellar.',
        );
        assert.ok(!got.some(v => v.data.label === 'contradicted'), JSON.stringify(got.map(v => [v.text, v.data.label])));
        assert.ok(got.some(v => v.data.label === 'supported'));
    });
    it('guard: a report the answer follows stays its claim ("the facts given claim X, and that matches my memory")', () => {
        const got = read('The facts given claim Interstellar was directed by Wally Pfister. That is what I remember too.');
        assert.ok(
            got.some(v => v.data.label === 'contradicted'),
            JSON.stringify(got.map(v => [v.text, v.data.label])),
        );
    });
});

describe('issue 41 (b4): a relation word inside a run of capitalised words is part of a name, not a relation', () => {
    it('"Interstellar is the 2014 heir to Star Trek": "Star" names no star relation; the year is supported', () => {
        assert.deepEqual(labels('Interstellar is the 2014 heir to Star Trek.'), ['supported']);
    });
    it('guard: a lone capitalised relation word still names its relation ("Released in 2014, Interstellar …")', () => {
        const got = read('Interstellar starred Christopher Nolan, per its Director credit.');
        assert.ok(
            got.some(v => v.relations.includes('Movie.star')),
            JSON.stringify(got.map(v => v.relations)),
        );
    });
});
