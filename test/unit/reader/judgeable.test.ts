/**
 * Issue 41, cause 4: claims judged against what the data cannot know. A claim is contradicted only where the data
 * holds a functional value for its subject and relation (the head → tail direction of an edge: a row has one value
 * per attribute, one target per FK) and the claim states another. (Each failed before the change.)
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { storedFacts, verifyOpenAnswer } from '../../../src/core/families/open/check.js';
import type { StoredRelation } from '../../../src/core/families/open/types.js';
import { contextNode, DIRECTED_BY, MOVIE_STAR, MOVIE_YEAR } from '../../support/open-context.js';

const node = contextNode;
const nodes = [
    node('Movie(Avatar)', 'Avatar', 'Movie', true),
    node('Director(James Cameron)', 'James Cameron', 'Director', true),
    node('Movie.star=Sam Worthington', 'Sam Worthington', 'Movie.star', false),
    node('Movie.year=2009', '2009', 'Movie.year', false),
    node('Director.birth_year=1954', '1954', 'Director.birth_year', false),
];
const relations: StoredRelation[] = [
    DIRECTED_BY,
    MOVIE_STAR,
    MOVIE_YEAR,
    {
        name: 'Director.birth_year',
        label: 'birth year',
        headType: 'Director',
        tailType: 'Director.birth_year',
        words: ['birth year', 'born'],
    },
];
const data = storedFacts([
    { head: 'Movie(Avatar)', relation: 'directed_by', tail: 'Director(James Cameron)' },
    { head: 'Movie(Avatar)', relation: 'Movie.star', tail: 'Movie.star=Sam Worthington' },
    { head: 'Movie(Avatar)', relation: 'Movie.year', tail: 'Movie.year=2009' },
    { head: 'Director(James Cameron)', relation: 'Director.birth_year', tail: 'Director.birth_year=1954' },
]);
const labels = (answer: string) => verifyOpenAnswer({ answer, nodes, relations, data }).map(v => v.data.label);

describe('issue 41: what the data can judge (open answers)', () => {
    it("a director's other films are the non-functional direction: unverifiable", () => {
        assert.deepEqual(labels('James Cameron also directed Titanic.'), ['unverifiable']);
    });
    it('another cast member, the subject of its own clause, is unverifiable', () => {
        assert.deepEqual(labels('Zoe Saldana also starred in Avatar.'), ['unverifiable']);
    });
    it('a functional value stated otherwise is still contradicted', () => {
        assert.deepEqual(labels('Avatar was directed by Steven Spielberg.'), ['contradicted']);
        assert.deepEqual(labels('James Cameron was born in 1960.'), ['contradicted']);
        assert.deepEqual(labels('Avatar was released in 2012.'), ['contradicted']);
    });
    it('a claim about an entity the data does not hold is unverifiable', () => {
        assert.deepEqual(labels('Titanic was released in 1997.'), ['unverifiable']);
    });
});

describe('issue 41: composite keys resolve to the row the claim names', () => {
    const rows = [
        node('Spell(Messi, 2019)', 'Messi, 2019', 'Spell', true, 'Messi (2019)'),
        node('Spell(Messi, 2022)', 'Messi, 2022', 'Spell', true, 'Messi (2022)'),
        node('Spell.club=FC Barcelona', 'FC Barcelona', 'Spell.club', false),
        node('Spell.club=PSG', 'PSG', 'Spell.club', false),
    ];
    const rels: StoredRelation[] = [
        { name: 'Spell.club', label: 'club', headType: 'Spell', tailType: 'Spell.club', words: ['club', 'played for'] },
    ];
    const facts = storedFacts([
        { head: 'Spell(Messi, 2019)', relation: 'Spell.club', tail: 'Spell.club=FC Barcelona' },
        { head: 'Spell(Messi, 2022)', relation: 'Spell.club', tail: 'Spell.club=PSG' },
    ]);
    const read = (answer: string) =>
        verifyOpenAnswer({ answer, nodes: rows, relations: rels, data: facts }).map(v => v.data.label);
    it('"Messi played for PSG in 2022" is checked against the 2022 row', () => {
        assert.deepEqual(read('Messi played for PSG in 2022.'), ['supported']);
        assert.deepEqual(read('Messi played for FC Barcelona in 2022.'), ['contradicted']);
    });
    it('a claim naming no row of several is never contradicted by one of them', () => {
        assert.deepEqual(read('Messi played for PSG.'), ['supported']);
    });
});

describe('issue 41 (w44d): an attribute the spec declares one of many (a list) is not a functional value', () => {
    // The spec says a movie has stars (`star: list<text>`); the data holds one of them. Another star is a claim the
    // data cannot judge; a star the data holds is still supported. The release year stays functional.
    const many: StoredRelation[] = relations.map(r => (r.name === 'Movie.star' ? { ...r, many: true } : r));
    const read = (answer: string) => verifyOpenAnswer({ answer, nodes, relations: many, data }).map(v => v.data.label);
    it('another star than the one the data holds is unverifiable', () => {
        assert.deepEqual(read('Avatar starred Michelle Rodriguez.'), ['unverifiable']);
    });
    it('the star the data holds is supported; a functional value stated otherwise is still contradicted', () => {
        assert.deepEqual(read('Avatar starred Sam Worthington.'), ['supported']);
        assert.deepEqual(read('Avatar was released in 2012.'), ['contradicted']);
    });
    it('without the declaration, one stored star is the functional value (as before)', () => {
        assert.deepEqual(labels('Avatar starred Michelle Rodriguez.'), ['contradicted']);
    });
});
