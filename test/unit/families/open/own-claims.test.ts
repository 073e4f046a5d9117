/**
 * Issue 41 (task w48e): what an open answer states as its own, with sentences written for this test (none is a corpus
 * answer). Each failed before its change:
 *   - the given facts described with the facts as the speaker ("The list says X", "the facts you’ve provided say X",
 *     "the given facts, which claim X", "the listed facts describe X as Y") are reports, and a report the answer does not
 *     agree with is the prompt's claim: it neither supports nor contradicts the answer, nor follows a corrupted
 *     context edge;
 *   - a relation written as an active verb ("made", "directed") with the film as its subject or object states no value
 *     of the film's director: "Avatar made $2.8 billion for Fox" and "[he] directed Avatar for Fox" name no director;
 *   - a number states a numeric value only at its scale: "12 years after" is no release year;
 *   - a "that" clause with a name of its own ("… and that James Cameron directed Avatar") is about that name;
 *   - a decline written with a typographic apostrophe ("I don’t have enough information") declines;
 *   - an answer that declines and states, of its own, only side facts that do not join the question's entities is
 *     unsure.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { reportedSpans } from '../../../../src/core/reader/denial.js';
import { readClaimsAnswer } from '../../../../src/core/reader/abstain.js';
import { storedFacts, verifyOpenAnswer } from '../../../../src/core/families/open/check.js';
import type { ContextGraph, StoredRelation } from '../../../../src/core/families/open/types.js';
import { avatarPair } from './support.js';
import { CAMERON_FACTS, CAMERON_NODES, DIRECTED_BY, MOVIE_YEAR } from '../../../support/open-context.js';

const relations: StoredRelation[] = [DIRECTED_BY, MOVIE_YEAR];
const claims = (answer: string) =>
    verifyOpenAnswer({ answer, nodes: CAMERON_NODES, relations, data: storedFacts(CAMERON_FACTS) });
const show = (answer: string) => JSON.stringify(claims(answer).map(v => [v.text, v.data.label, v.mentions[0]]));

const verdict = await avatarPair();

describe('issue 41: the given facts described with the facts as the speaker are reports', () => {
    const texts = (text: string) => reportedSpans(text).map(([a, b]) => text.slice(a, b));
    it('"The list says …", "the facts you’ve provided say …", "the given facts, which claim …", "describe … as"', () => {
        assert.deepEqual(texts('The list says Avatar was directed by Steven Spielberg.'), [
            'Avatar was directed by Steven Spielberg',
        ]);
        assert.deepEqual(texts('The facts you\u2019ve provided say Titanic came out in 2009.'), ['Titanic came out in 2009']);
        assert.deepEqual(texts('Take the given facts, which claim Steven Spielberg directed Avatar.'), [
            'Steven Spielberg directed Avatar',
        ]);
        assert.deepEqual(texts('The listed facts describe James Cameron as a star of Avatar.'), [
            'James Cameron as a star of Avatar',
        ]);
    });
});

describe("issue 41: a described report is the prompt's claim, not the answer's", () => {
    it('set against in words no list holds ("those can\u2019t be right"), it does not fail the answer', () => {
        const got = verdict(
            'The facts say Avatar was directed by Steven Spielberg and came out in 2015 \u2014 those can\u2019t be right. James Cameron directed Avatar in 2009.',
        );
        assert.equal(got.correct, true, JSON.stringify(got));
    });
    it('nor does it pass one: an answer whose only supported words are the facts\u2019 has no claim of its own', () => {
        const got = verdict('The facts say James Cameron directed Avatar. Steven Spielberg directed Avatar.');
        assert.equal(got.correct, false, JSON.stringify(got));
    });
    it('agreed with ("That matches my memory"), it is the answer\u2019s own: passed', () => {
        const got = verdict('The list says James Cameron directed Avatar. That matches my memory.');
        assert.equal(got.correct, true, JSON.stringify(got));
    });
    it('an attribution the answer makes its own ("According to the facts, …") still counts: failed when wrong', () => {
        const got = verdict('According to the facts given, Avatar was directed by Steven Spielberg.');
        assert.equal(got.correct, false, JSON.stringify(got));
        assert.ok(
            got.claims?.some(c => c.status === 'contradicted'),
            JSON.stringify(got),
        );
    });
});

describe("issue 41: an active verb's doer is the relation's value", () => {
    it('"Avatar made nearly $3 billion for Fox": the film is the doer, no claim of its director', () => {
        const answer = 'Avatar made nearly $3 billion for Fox.';
        assert.ok(!claims(answer).some(v => v.data.label === 'contradicted'), show(answer));
    });
    it('"… and years later directed Avatar for Fox": the film is the object, Fox no director', () => {
        const answer = 'Titanic won eleven Oscars, which surprised many, and years later directed Avatar for Fox.';
        assert.ok(!claims(answer).some(v => v.data.label === 'contradicted'), show(answer));
    });
    it('still sound where the value is written: "Avatar was directed by Steven Spielberg" contradicted', () => {
        const answer = 'Avatar was directed by Steven Spielberg.';
        assert.ok(
            claims(answer).some(v => v.data.label === 'contradicted'),
            show(answer),
        );
    });
});

describe('issue 41: a number states a numeric value at its scale', () => {
    it('"Avatar was released 12 years after Titanic" states no release year', () => {
        const answer = 'Avatar was released 12 years after Titanic.';
        assert.ok(!claims(answer).some(v => v.data.label === 'contradicted'), show(answer));
    });
    it('"Avatar was released in 2012" still contradicts 2009', () => {
        const answer = 'Avatar was released in 2012.';
        assert.ok(
            claims(answer).some(v => v.data.label === 'contradicted'),
            show(answer),
        );
    });
});

describe('issue 41: a "that" clause with a name of its own is about that name', () => {
    it('"… that Titanic came out in 1997 and that James Cameron directed Avatar": the second is about Cameron', () => {
        const answer = 'What I can say is that Titanic came out in 1997 and that James Cameron directed Avatar.';
        const c = claims(answer).find(v => v.text.includes('James Cameron directed'));
        assert.equal(c?.mentions[0], 'Director(James Cameron)', show(answer));
        assert.equal(c?.data.edge?.head, 'Movie(Avatar)', show(answer));
    });
});

describe('issue 41: declining, with a typographic apostrophe and beside side facts', () => {
    it('"I don\u2019t have enough information to explain how Avatar relates to James Cameron." declines: unsure', () => {
        const r = readClaimsAnswer('I don\u2019t have enough information to explain how Avatar relates to James Cameron.');
        assert.equal(r.label, 'unsure', JSON.stringify(r));
    });
    it('declining the relationship and stating only the film\u2019s year: unsure', () => {
        const got = verdict(
            "I don't want to state the relationship with confidence, given the conflicting facts. Avatar came out in 2009.",
        );
        assert.equal(got.answer, 'unsure', JSON.stringify(got));
    });
    it('declining the significance and stating the relationship itself: an answer (passed)', () => {
        const got = verdict("I can't say how significant it was. James Cameron directed Avatar.");
        assert.equal(got.answer, 'yes', JSON.stringify(got));
        assert.equal(got.correct, true, JSON.stringify(got));
    });
});

describe('issue 41: a described report of a corrupted context edge is not followed', () => {
    const context: ContextGraph = {
        form: 'triplets',
        nodes: CAMERON_NODES,
        edges: [
            {
                head: 'Movie(Avatar)',
                relation: 'directed_by',
                label: 'directed by',
                tail: 'Director(Steven Spielberg)',
                prize: 1,
                cost: 1,
                perturbed: { kind: 'rewire', tail: 'Director(James Cameron)' },
            },
        ],
    };
    const causes = (answer: string) =>
        verifyOpenAnswer({ answer, nodes: CAMERON_NODES, relations, data: storedFacts(CAMERON_FACTS), context }).map(
            v => v.cause,
        );
    it('"The facts say Avatar was directed by Steven Spielberg \u2014 that can\u2019t be right." follows nothing', () => {
        assert.ok(
            !causes('The facts say Avatar was directed by Steven Spielberg \u2014 that can\u2019t be right.').includes(
                'followed-corrupted',
            ),
        );
    });
    it('"Avatar was directed by Steven Spielberg." in its own voice still followed the corrupted edge', () => {
        assert.ok(causes('Avatar was directed by Steven Spielberg.').includes('followed-corrupted'));
    });
});
