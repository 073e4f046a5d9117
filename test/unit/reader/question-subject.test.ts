/**
 * Issue 41 (task w47c), what an open answer's clause is about when it does not name its subject, and a value the
 * answer says was replaced. The sentences are written for this test (none is a corpus answer); each failed before its
 * change:
 *   - a clause whose subject is a pronoun or a description ("It was directed by …", "the film came out in …"), or a
 *     possessor's description ("James Cameron's 2009 film …"), is about the question's entity of that kind — only
 *     when the answer named no other entity of that kind before it, and, the subject being referred to rather than
 *     named, such a claim can be supported but never contradicted;
 *   - "originally" / "initially" / "at first": a value the answer says was replaced is no claim of the final one.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { storedFacts, verifyOpenAnswer } from '../../../src/core/families/open/check.js';
import type { StoredRelation } from '../../../src/core/families/open/types.js';
import { CAMERON_FACTS, CAMERON_NODES, contextNode, DIRECTED_BY, MOVIE_STAR, MOVIE_YEAR } from '../../support/open-context.js';

const nodes = [...CAMERON_NODES, contextNode('Movie.star=Sam Worthington', 'Sam Worthington', 'Movie.star', false)];
const relations: StoredRelation[] = [DIRECTED_BY, MOVIE_STAR, MOVIE_YEAR];
const data = storedFacts([
    ...CAMERON_FACTS,
    { head: 'Movie(Avatar)', relation: 'Movie.star', tail: 'Movie.star=Sam Worthington' },
]);
/** Asked about Avatar (the question's one entity). */
const read = (answer: string, topic: string[] = ['Movie(Avatar)']) => verifyOpenAnswer({ answer, nodes, relations, data, topic });
const labels = (answer: string, topic?: string[]) => read(answer, topic).map(v => v.data.label);
const show = (answer: string) => JSON.stringify(read(answer).map(v => [v.text, v.data.label, v.mentions]));

describe("issue 41: a clause that does not name its subject is about the question's entity", () => {
    it('"It was directed by James Cameron and came out in 2009." (asked about Avatar): both supported', () => {
        const answer = 'It was directed by James Cameron and came out in 2009.';
        assert.deepEqual(labels(answer), ['supported', 'supported'], show(answer));
    });
    it('a possessor is not the subject: "James Cameron\'s 2009 film, starring Sam Worthington." is about Avatar', () => {
        const answer = "James Cameron's 2009 film, starring Sam Worthington.";
        assert.ok(labels(answer).includes('supported'), show(answer));
        assert.equal(read(answer)[0]!.mentions[0], 'Movie(Avatar)', show(answer));
    });
    it('after a framing "If you mean …, I believe it was …": the pronoun is the subject, not the first name', () => {
        const answer = "If you mean the film, I believe it was James Cameron's big 3D epic.";
        assert.deepEqual(labels(answer), ['supported'], show(answer));
    });
    it('never a contradiction from a subject only referred to: "It was directed by Steven Spielberg."', () => {
        assert.deepEqual(labels('It was directed by Steven Spielberg.'), ['unverifiable']);
        // named, the same claim is contradicted
        assert.deepEqual(labels('Avatar was directed by Steven Spielberg.'), ['contradicted']);
    });
    it('not when the answer named another film before ("… Titanic. It came out in 2009."): no subject', () => {
        const answer = 'James Cameron directed Titanic. It came out in 2009.';
        assert.deepEqual(labels(answer), ['supported', 'unverifiable'], show(answer));
    });
    it('without the question\'s entity (no topic) nothing changes: "It came out in 2009." is unverifiable', () => {
        assert.deepEqual(labels('It came out in 2009.', []), ['unverifiable']);
    });
});

describe('issue 41: a value the answer says was replaced ("originally", "initially") is no claim of the final one', () => {
    it('"Avatar was originally to be directed by Steven Spielberg" is not contradicted', () => {
        assert.deepEqual(labels('Avatar was originally to be directed by Steven Spielberg.'), ['unverifiable']);
        assert.deepEqual(labels('Avatar was initially directed by Steven Spielberg.'), ['unverifiable']);
    });
    it('the same without the word still is', () => {
        assert.deepEqual(labels('Avatar was directed by Steven Spielberg.'), ['contradicted']);
    });
});
