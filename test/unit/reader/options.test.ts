/**
 * Issue 41, cause 2: options named other ways — a letter (A = 1), a number word, an ordinal, a bare number
 * (Mistral's "2", "**3**"), a marked conclusion ("The answer is (B).", "Therefore, Option 3"), and a restated stem
 * whose own names hold "." or "!" — each read as the option it names, never as "None of the above".
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readChoice } from '../../../src/core/reader/index.js';
import { parseChoiceAnswer } from '../../../src/core/families/choice/family.js';

const OPTIONS = ['S.W.A.T. was released in 2003.', 'S.W.A.T. was directed by Clark Johnson.', 'S.W.A.T. stars Tom Hanks.'];

const CASES: [string, number][] = [
    ['The answer is (B).', 2],
    ['The answer is C.', 3],
    ['Option one is the inaccurate one.', 1],
    ['The second option is the false one.', 2],
    ['the third option', 3],
    ['2', 2],
    ['**3**', 3],
    ['3\n\nSam Jackson starred in it, not Tom Hanks.', 3],
    ['(A)', 1],
    ['B) S.W.A.T. was directed by Clark Johnson.', 2],
    ['The inaccurate option about the film S.W.A.T. released in 2003 is: Option 2', 2],
    ['The inaccurate statement about Airplane! released in 1980 is Option 3.', 3],
    ['Option 1 is right: 2003. Option 2 is right too. Therefore, Option 3 is inaccurate.', 3],
    ['Sure! Here is my answer.\n\n**Answer:** 3', 3],
];

describe('issue 41 cause 2: options named other ways', () => {
    for (const [text, want] of CASES) {
        it(`${JSON.stringify(text.slice(0, 60))} → option ${want}`, () => {
            const r = readChoice(text, OPTIONS);
            assert.equal(r.label, 'option', r.why);
            assert.equal(r.option, want, r.why);
        });
    }

    it('a bare digit is the option it names, not "None of the above", through the family\'s own parse', () => {
        const p = parseChoiceAnswer('2', { options: OPTIONS });
        assert.equal(p.answer, 'option');
        assert.equal(p.option, 2);
    });

    it('a letter or digit out of range is a binding error, not an option', () => {
        assert.equal(readChoice('(D)', OPTIONS).label, 'binding');
        assert.equal(readChoice('7', OPTIONS).label, 'binding');
    });

    it('the paper rule (answer_rule paper) still needs "Option N" in the first sentence', () => {
        assert.equal(parseChoiceAnswer('2', { options: OPTIONS, answerRule: 'paper' }).answer, 'none');
    });
});
