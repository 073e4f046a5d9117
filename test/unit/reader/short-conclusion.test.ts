/**
 * Issue 41, Build item 1 for short answers (evidence), found on the natural corpus's tune/ evidence answers (batch
 * b3): reasoning first, the answer last ("… so the answer is X") — a marked conclusion that names the answer decides
 * over an opening that only reports the passage; and a value the question or passage already gave is no value of the
 * answer's own. The sentences are written for this test (none is a corpus answer); each failed before its change.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readShort } from '../../../src/core/reader/index.js';

const QUESTION =
    'Context: Inception is a 2010 science fiction film directed by Wally Pfister.\n\nQuestion: Who directed the movie Inception (2010)?\n\nAnswer:';

describe('issue 41: a short answer given last, after "the answer is", decides over the opening', () => {
    it('"The passage credits X to Y. … so the answer is Z.": Z', () => {
        const text =
            'The passage credits Inception to Wally Pfister. That clashes with my memory: Pfister shot the film as its cinematographer, so the answer is Christopher Nolan.';
        const r = readShort(text);
        assert.equal(r.label, 'answer');
        assert.equal(r.text, 'Christopher Nolan');
        // the family scores the answer's words from there (evidence: the passage's Pfister earlier is not followed)
        assert.equal(r.from, text.indexOf('Christopher Nolan'));
    });
    it('"**Final answer:** Z" after reasoning: Z', () => {
        const r = readShort(
            'Inception is listed in the passage under Wally Pfister, which does not match what I know.\n\n**Final answer:** Christopher Nolan',
        );
        assert.equal(r.text, 'Christopher Nolan');
    });
    it('an answer that opens with its value and names no conclusion keeps it; "the answer is" with no value after it is none', () => {
        assert.equal(readShort('Christopher Nolan. He also wrote the screenplay.').text, 'Christopher Nolan');
        assert.equal(readShort("Christopher Nolan. I'm confident that is what the answer is.").text, 'Christopher Nolan');
    });
});

describe("issue 41: a short answer states a value of its own only beyond the question's and the passage's", () => {
    it("sets the passage aside, names only the question's film, then declines: unsure", () => {
        const r = readShort(
            "The passage says Inception was directed by Wally Pfister, but that isn't how I remember Inception. I can't verify which is right, so I won't guess.",
            { question: QUESTION },
        );
        assert.equal(r.label, 'unsure');
    });
    it('sets the passage aside and names a value of its own: an answer, even when a doubt follows', () => {
        const r = readShort(
            "The passage says Inception was directed by Wally Pfister, but I recall Christopher Nolan. I can't verify it, though.",
            { question: QUESTION },
        );
        assert.equal(r.label, 'answer');
    });
});

describe('issue 41: more ways a short answer is concluded or declined after reasoning', () => {
    it('"So I\'d answer X": X', () => {
        const r = readShort(
            "The passage names Wally Pfister, but I believe that's a mistake. Pfister was the cinematographer. So I'd answer Christopher Nolan.",
        );
        assert.equal(r.text, 'Christopher Nolan');
    });
    it('the value alone on the last line, after the reasoning: that value', () => {
        const r = readShort(
            'The passage names Wally Pfister for Inception. But Pfister shot the film; the director was someone else, as I recall.\n\nChristopher Nolan',
        );
        assert.equal(r.text, 'Christopher Nolan');
    });
    it('opens by reporting the passage, doubts it, declines, names no answer of its own: unsure', () => {
        const r = readShort(
            "According to the passage, Wally Pfister directed Inception (2010). However, I'm not sure that's right, and I don't have enough confidence to give a definitive answer.",
            { question: QUESTION },
        );
        assert.equal(r.label, 'unsure');
    });
    it("opens by reporting the passage and follows it: the passage's value is the answer", () => {
        const r = readShort('According to the passage, Wally Pfister directed Inception.', { question: QUESTION });
        assert.equal(r.label, 'answer');
    });
    it("reports the passage, agrees with it, then a caveat: the passage's value is the answer", () => {
        const r = readShort(
            "According to the passage, Wally Pfister directed Inception. That seems right to me, although I can't verify it.",
            { question: QUESTION },
        );
        assert.equal(r.label, 'answer');
    });
    it('reports the passage, then commits in its own voice, then doubts: a hedged answer', () => {
        const r = readShort(
            "The passage says Wally Pfister. To my knowledge, Inception was directed by Christopher Nolan. I can't verify it, though.",
            { question: QUESTION },
        );
        assert.equal(r.label, 'answer');
    });
});
