/**
 * Issue 41 (natural-answer corpus, batch b2): what a negation covers and whose claim a clause is, in open answers.
 * Each example is written for this test (none is a corpus answer); each failed before its change.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { storedFacts, verifyOpenAnswer } from '../../../src/core/families/open/check.js';
import { deniedSpans, splitClaims } from '../../../src/core/reader/index.js';
import { readClaimsAnswer } from '../../../src/core/reader/abstain.js';
import type { StoredRelation } from '../../../src/core/families/open/types.js';
import { contextNode, DIRECTED_BY, MOVIE_STAR, MOVIE_YEAR } from '../../support/open-context.js';

const node = contextNode;
const nodes = [
    node('Movie(Inception)', 'Inception', 'Movie', true),
    node('Movie(Interstellar)', 'Interstellar', 'Movie', true),
    node('Director(Christopher Nolan)', 'Christopher Nolan', 'Director', true),
    node('Director(Wally Pfister)', 'Wally Pfister', 'Director', true),
    node('Movie.star=Leonardo DiCaprio', 'Leonardo DiCaprio', 'Movie.star', false),
    node('Movie.year=2010', '2010', 'Movie.year', false),
    node('Movie.year=2014', '2014', 'Movie.year', false),
];
const relations: StoredRelation[] = [DIRECTED_BY, MOVIE_STAR, MOVIE_YEAR];
const data = storedFacts([
    { head: 'Movie(Inception)', relation: 'directed_by', tail: 'Director(Christopher Nolan)' },
    { head: 'Movie(Inception)', relation: 'Movie.star', tail: 'Movie.star=Leonardo DiCaprio' },
    { head: 'Movie(Inception)', relation: 'Movie.year', tail: 'Movie.year=2010' },
    { head: 'Movie(Interstellar)', relation: 'directed_by', tail: 'Director(Christopher Nolan)' },
    { head: 'Movie(Interstellar)', relation: 'Movie.year', tail: 'Movie.year=2014' },
]);
const labels = (answer: string) => verifyOpenAnswer({ answer, nodes, relations, data }).map(v => v.data.label);

describe('issue 41: negation scope and clause subjects in open answers', () => {
    it('a negation in another clause of the sentence does not deny the first clause', () => {
        assert.ok(!labels('Leonardo DiCaprio starred in Inception, he never directed a film.').includes('contradicted'));
    });
    it('"not sure" / "not certain" is a hedge, no negation of the claim', () => {
        assert.ok(
            !labels('I am not completely sure that Inception was directed by Christopher Nolan in 2010.').includes(
                'contradicted',
            ),
        );
    });
});

describe('issue 41: where a clause ends (open answers)', () => {
    it('a full stop inside closing quotes ends the sentence', () => {
        assert.deepEqual(
            splitClaims('The list calls its director "2010." Nolan also directed Interstellar.').map(c => c.text),
            ['The list calls its director "2010."', 'Nolan also directed Interstellar'],
        );
    });
    it('a comma before a pronoun and its verb opens a new clause: the negation of the first stays in the first', () => {
        assert.ok(!labels("Christopher Nolan wasn't a star of Interstellar, he directed it.").includes('contradicted'));
    });
});

describe('issue 41: a clause about a pronoun or "the film" is not about the first name it mentions', () => {
    it('"The film was his follow-up to Inception (2010)": Inception is no subject, so its director is not contradicted', () => {
        assert.ok(!labels('The film was his follow-up to Inception (2010), again directed by him.').includes('contradicted'));
    });
});

describe('issue 41: a denial ends with its sentence, a closing quote after the full stop included', () => {
    it('"… not "2014." Nolan …": the next sentence is not denied', () => {
        const text = 'It came out in 2010, not in "2014." Nolan also directed Interstellar.';
        assert.deepEqual(
            deniedSpans(text).map(([a, b]) => text.slice(a, b)),
            ['in "2014'],
        );
    });
});

describe('issue 41: a passage value reported "according to the context" and then called wrong is denied', () => {
    it('"According to the passage, X. That is wrong — …": X is denied', () => {
        const text =
            'According to the passage, Interstellar was directed by Wally Pfister. That is wrong: Christopher Nolan directed it.';
        assert.ok(deniedSpans(text).some(([a, b]) => text.slice(a, b).includes('Wally Pfister')));
    });
    it('"Going by the context you gave, X. In fact it was Y": X is denied', () => {
        const text = 'Going by the context you gave, the director is Wally Pfister. In fact it was Christopher Nolan.';
        assert.ok(deniedSpans(text).some(([a, b]) => text.slice(a, b).includes('Wally Pfister')));
    });
});

describe('issue 41: a relative clause ("X, who …") is about the name it follows', () => {
    it('"Wally Pfister stood in for Christopher Nolan, who had gone to direct Interstellar": about Nolan', () => {
        assert.ok(
            !labels('Wally Pfister stood in for Christopher Nolan, who had gone to direct Interstellar.').includes(
                'contradicted',
            ),
        );
    });
});

describe("issue 41: an answer that only reports the passage's values, set aside, and declines is unsure", () => {
    it('the reported sentence states nothing of its own', () => {
        const r = readClaimsAnswer(
            "I can't answer this with confidence. The passage says Interstellar was directed by Wally Pfister, which is clearly off. I can't verify who directed it.",
        );
        assert.equal(r.label, 'unsure');
    });
});
