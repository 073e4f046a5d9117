/**
 * Issue 41, reading open answers as a careful person does (second pass), with answers invented for this test:
 *   - what a denial covers is read over the whole answer: doubt about the given facts in one sentence covers the
 *     facts it reports in the next ("Some of the facts are clearly off: Avatar is listed with …");
 *   - a year in parentheses after a title is that title's ("… since Titanic (1997)"), not the subject's;
 *   - verbs sharing one object ("directed and co-wrote Avatar") each take that object.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { storedFacts, verifyOpenAnswer } from '../../../src/core/families/open/check.js';
import type { StoredRelation } from '../../../src/core/families/open/types.js';
import { contextNode, DIRECTED_BY, MOVIE_YEAR } from '../../support/open-context.js';

const node = contextNode;
const nodes = [
    node('Movie(Avatar)', 'Avatar', 'Movie', true),
    node('Director(James Cameron)', 'James Cameron', 'Director', true),
    node('Director(Steven Spielberg)', 'Steven Spielberg', 'Director', true),
    node('Movie.year=2009', '2009', 'Movie.year', false),
    node('Movie(Titanic)', 'Titanic', 'Movie', true),
    node('Movie.year=1997', '1997', 'Movie.year', false),
];
const relations: StoredRelation[] = [DIRECTED_BY, MOVIE_YEAR];
const data = storedFacts([
    { head: 'Movie(Avatar)', relation: 'directed_by', tail: 'Director(James Cameron)' },
    { head: 'Movie(Avatar)', relation: 'Movie.year', tail: 'Movie.year=2009' },
    { head: 'Movie(Titanic)', relation: 'Movie.year', tail: 'Movie.year=1997' },
]);
const labels = (answer: string) => verifyOpenAnswer({ answer, nodes, relations, data }).map(v => v.data.label);

describe('issue 41: a denial is read over the whole answer', () => {
    it('doubt about the facts before the reported one covers it: nothing contradicted', () => {
        const got = labels(
            'Some of the facts given are clearly off. Avatar is listed with Steven Spielberg as its director. James Cameron directed Avatar.',
        );
        assert.ok(!got.includes('contradicted'), got.join(', '));
        assert.ok(got.includes('supported'), got.join(', '));
    });
    it('"None of that matches what I know" is doubt about the facts reported before it', () => {
        const got = labels('The facts given say Avatar was directed by Steven Spielberg. None of that matches what I know.');
        assert.ok(!got.includes('contradicted'), got.join(', '));
    });
    it('a reported value with no doubt anywhere is still read as stated', () => {
        assert.ok(labels('Avatar is listed with Steven Spielberg as its director.').includes('contradicted'));
    });
});

describe('issue 41: verbs that share an object', () => {
    it('"James Cameron directed and co-wrote the 2009 film Avatar": the directing claim is supported', () => {
        const got = labels('James Cameron directed and co-wrote the 2009 film Avatar, his first feature in twelve years.');
        assert.ok(got.includes('supported'), got.join(', '));
    });
});

describe("issue 41: a year in parentheses after a title is that title's", () => {
    it('"Avatar was his first feature since Titanic (1997)": not a claim that Avatar came out in 1997', () => {
        const got = labels('Avatar was his first feature since Titanic (1997).');
        assert.ok(!got.includes('contradicted'), got.join(', '));
    });
    it("the subject's own year in parentheses is still its claim", () => {
        assert.deepEqual(labels('Avatar (1997) is a science-fiction epic.'), ['contradicted']);
    });
});
