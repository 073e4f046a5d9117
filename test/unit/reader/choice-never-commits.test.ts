/**
 * A hedge that never commits (LABEL-SCHEMA: "a refusal, 'I don't know', 'I can't verify', or a hedge that never
 * commits is unsure"), for multiple choice: an option only called suspect ("looks suspicious", "seems off", "the
 * one I'd doubt") while the same answer says it cannot tell which option is the false one is unsure; a hedged pick
 * the answer does not take back, or a firm pick followed by a doubt about a detail, still names its option.
 * Sentences written for this test (none is a corpus answer).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readChoice } from '../../../src/core/reader/index.js';

const OPTIONS = [
    'Played for Juventus in 2019.',
    'Wore jersey number 3 in 2019.',
    'Born in Portugal.',
    'Participated in league named Ligue 1 during the year 2019.',
];
const picked = (answer: string) => {
    const r = readChoice(answer, OPTIONS);
    return r.label === 'option' ? r.option : r.label;
};

describe('a suspect option the answer then says it cannot tell apart is unsure', () => {
    it('"so Option 4 seems off … I can\'t tell which of these is meant to be false" is unsure', () => {
        assert.equal(
            picked(
                'I cannot check every detail here. Ronaldo was in Serie A with Juventus that year, so Option 4 seems off to me. ' +
                    "Still, I honestly can't tell which of these details is meant to be the false one.",
            ),
            'unsure',
        );
        assert.equal(
            picked(
                "Option 2 is the one I'd doubt, since I remember a 7 on his back. But I'm not sure whether the question wants the number or the league to be wrong.",
            ),
            'unsure',
        );
    });

    it('a hedged pick that is not taken back, and a firm pick with a doubt about a detail, still name the option', () => {
        assert.equal(picked('Option 4 looks suspicious: Ronaldo played in Serie A in 2019, not in France.'), 4);
        assert.equal(
            picked(
                'Option 4 is the inaccurate one: he played in Serie A. I am not sure whether his number was right either, but the league is certainly wrong.',
            ),
            4,
        );
    });
});
