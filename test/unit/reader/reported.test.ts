/**
 * Issue 41, Build item 2 (what a denial covers) and item 6 (abstention), found on the natural corpus's tune/ open
 * answers (batches b3, b4): what an answer attributes to the given facts or passage ("Per the facts given, X",
 * "the facts list X", "they claim X") is reported speech (`reportedSpans`); an answer that declines and only reports
 * the facts commits to nothing. (The open claims of a report: clause-subjects.test.ts.) The sentences are written for
 * this test (none is a corpus answer); each failed before its change.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readClaimsAnswer } from '../../../src/core/reader/abstain.js';
import { reportedSpans } from '../../../src/core/reader/denial.js';

describe('issue 41: what the answer reports of the given facts (reportedSpans)', () => {
    it('"they claim …" after the facts are named reports them too', () => {
        const text = 'Looking at the facts first: they claim Tenet was directed by Denis Villeneuve.';
        assert.ok(reportedSpans(text).some(([a, b]) => text.slice(a, b).includes('Denis Villeneuve')));
    });
    it("the answer's own sentence is no report", () => {
        assert.deepEqual(reportedSpans('Interstellar was directed by Christopher Nolan, as the facts say.'), []);
    });
});

describe('issue 41: an answer that declines and only reports the facts commits to nothing', () => {
    it('declines, reports the facts, recommends a source: unsure', () => {
        const r = readClaimsAnswer(
            "I can't give a confident answer to this. The facts provided say Tenet was directed by Denis Villeneuve, and they list Christopher Nolan's birth year as Interstellar. A good film database would settle the credit.",
        );
        assert.equal(r.label, 'unsure');
    });
    it('an answer that reports the facts and then states its own claim commits', () => {
        const r = readClaimsAnswer(
            "I can't give a confident answer to this. The facts provided say Tenet was directed by Denis Villeneuve. Christopher Nolan directed Tenet in 2020.",
        );
        assert.equal(r.label, 'yes');
    });
});

describe('issue 41: advice to check a source, and the word "I", state nothing', () => {
    it('declines, then points to a source ("If you can check …, that would settle it"): unsure', () => {
        const r = readClaimsAnswer(
            "I can't give a confident answer to this. If you can check the credits on IMDb, that would settle who directed Tenet.",
        );
        assert.equal(r.label, 'unsure');
    });
    it('declines, then recommends a source by name: unsure', () => {
        assert.equal(
            readClaimsAnswer("I'd rather not guess. I'd recommend checking Christopher Nolan's filmography on IMDb.").label,
            'unsure',
        );
    });
    it('declines, then offers to try again ("I\'m happy to"): unsure', () => {
        assert.equal(
            readClaimsAnswer("I can't give a reliable answer here. If you share a corrected list, I'm happy to try again.").label,
            'unsure',
        );
    });
    it('a narrative "would" after a decline still states ("Nolan would go on to direct Tenet")', () => {
        assert.equal(
            readClaimsAnswer("I'm not sure about the early years. Nolan would go on to direct Tenet in 2020.").label,
            'yes',
        );
    });
});
