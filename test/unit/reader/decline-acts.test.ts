/**
 * Issue 41, Build item 6 (abstention is unsure in every family), found on the natural corpus's tune/ open and
 * evidence answers (batches b3, b4): declining is one act in many words — "I" + cannot / will not / would rather
 * not + a verb of answering (give, state, assert, commit to, answer …) + what is declined (an answer, a name, an
 * explanation, who …, "with confidence", "as fact"). The sentences are written for this test (none is a corpus
 * answer); each failed before its change.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { notAnswering } from '../../../src/core/reader/text.js';

const declines = (s: string) => notAnswering(s) !== undefined;

describe('issue 41: declining to answer, in its many words', () => {
    for (const s of [
        "I'm not able to answer this one with confidence.",
        "I don't want to state who directed it as a fact.",
        "I'd rather not commit to a single name here.",
        "I don't feel I can give a reliable answer.",
        "I'm not able to give a trustworthy explanation from this.",
        "Without a source, I don't want to assert who made the film.",
    ])
        it(`declines: ${s}`, () => assert.ok(declines(s)));
    for (const s of [
        "I can't stress enough how good Nolan's film is.",
        "I don't want to spoil the ending, but Nolan directed it.",
        'I will not forget the score Hans Zimmer wrote for it.',
    ])
        it(`does not decline: ${s}`, () => assert.ok(!declines(s)));
});
