/**
 * Issue 41 (task w47c), what a report of the given facts covers and what a name before a plural noun names, with
 * sentences written for this test (none is a corpus answer). Each failed before its change:
 *   - "the facts appear to be scrambled" is doubt about them, as "seem to be scrambled" is;
 *   - the passive report "X is given as Y" set against the answer's own is denied from X, as it is reported from X:
 *     the claim set against is X's, no claim the answer follows;
 *   - a list that leaves the report's verb out ("X is given as A, 1997 as B, and Z as C") reports every item, each its
 *     own claim;
 *   - a name before a plural or collective noun ("several Avatar films") names a set, not the entity;
 *   - "If you mean the 2009 film, …" is a condition, not advice to the reader ("If you can check the credits, …").
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { deniedSpans, reportedSpans } from '../../../src/core/reader/denial.js';
import { readClaimsAnswer } from '../../../src/core/reader/abstain.js';
import { storedFacts, verifyOpenAnswer } from '../../../src/core/families/open/check.js';
import type { StoredRelation } from '../../../src/core/families/open/types.js';
import { CAMERON_FACTS, CAMERON_NODES, DIRECTED_BY, MOVIE_YEAR } from '../../support/open-context.js';

const nodes = CAMERON_NODES;
const relations: StoredRelation[] = [DIRECTED_BY, MOVIE_YEAR];
const data = storedFacts(CAMERON_FACTS);
const read = (answer: string) => verifyOpenAnswer({ answer, nodes, relations, data });
const show = (answer: string) => JSON.stringify(read(answer).map(v => [v.text, v.data.label, v.negated ?? false]));
const texts = (text: string, spans: [number, number][]) => spans.map(([a, b]) => text.slice(a, b));

describe('issue 41: a passive report of doubted facts is set against from its subject', () => {
    const answer = 'The listed facts appear to be scrambled: Avatar is given as a film directed by Steven Spielberg.';
    it('denied from "Avatar": the span starts at the report\'s subject', () => {
        assert.deepEqual(texts(answer, deniedSpans(answer)), ['Avatar is given as a film directed by Steven Spielberg']);
    });
    it('so no claim follows it: nothing contradicted, the denial of Spielberg supported', () => {
        const got = read(answer);
        assert.ok(!got.some(v => v.data.label === 'contradicted'), show(answer));
        assert.ok(
            got.some(v => v.negated && v.data.label === 'supported'),
            show(answer),
        );
    });
});

describe("issue 41: a list that leaves the report's verb out reports each item", () => {
    const answer =
        'The facts seem to be scrambled: Avatar is given as a film by Steven Spielberg, 1997 as its release year, and Titanic as a 2009 film.';
    it('every item is reported and, doubted, denied — each a span of its own', () => {
        const items = ['Avatar is given as a film by Steven Spielberg', '1997 as its release year', 'Titanic as a 2009 film'];
        assert.deepEqual(texts(answer, reportedSpans(answer)), items);
        assert.deepEqual(texts(answer, deniedSpans(answer)), items);
    });
    it('a list of clauses with verbs of their own is not: "… Spielberg, and Titanic came out in 1997" is the answer\'s', () => {
        const own =
            'The facts seem to be scrambled: Avatar is given as a film by Steven Spielberg, and Titanic came out in 1997.';
        assert.deepEqual(texts(own, reportedSpans(own)), ['Avatar is given as a film by Steven Spielberg']);
    });
});

describe('issue 41: a name before a plural noun names a set', () => {
    it('"There have been several Avatar films (2009, 2022)": no claim about Avatar', () => {
        const answer = 'There have been several Avatar films (2009, 2022).';
        assert.deepEqual(
            read(answer).map(v => v.data.label),
            ['unverifiable'],
            show(answer),
        );
    });
});

describe('issue 41: a condition is no advice', () => {
    it('"I\'m not sure which film you mean. If you mean the 2009 film, it was directed by James Cameron." commits', () => {
        const r = readClaimsAnswer(
            "I'm not sure which film you mean. If you mean the 2009 film, it was directed by James Cameron.",
        );
        assert.equal(r.label, 'yes', JSON.stringify(r));
    });
    it('"If you can check the credits, that would settle it" is still advice (states nothing)', () => {
        const r = readClaimsAnswer("I'm not sure who directed it. If you can check the credits, Avatar's would settle it.");
        assert.equal(r.label, 'unsure', JSON.stringify(r));
    });
});
