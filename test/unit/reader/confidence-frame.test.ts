/**
 * A verdict inside a statement of confidence (issue 41, rule 1, the opening): "I'm fairly confident this is true."
 * and "I'm reasonably sure, though not certain, that it is false." commit (a hedged verdict when the confidence is
 * qualified); "I'm not sure this is true" does not. Sentences written for this test (none is a corpus answer).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readYesNo } from '../../../src/core/reader/index.js';

const q = 'Is it true that there is a soccer player from France who played for Real Madrid with uniform number 9 in 2019?';
const read = (text: string) => readYesNo(text, { question: q });

describe('a verdict after "I\'m (fairly) confident / sure (that)"', () => {
    it('commits, hedged when the confidence is qualified', () => {
        const a = read("I'm fairly confident this is true. Karim Benzema wore the 9 for Real Madrid in 2019.");
        assert.equal(a.label, 'yes');
        assert.equal(a.stance, 'hedged');
        const b = read("I'm reasonably sure, though not completely certain, that this is false: Benzema was Real's number 9.");
        assert.equal(b.label, 'no');
        assert.equal(read("I am confident that's correct — Benzema wore 9 that season.").label, 'yes');
    });

    it('a confidence denied is no verdict', () => {
        assert.notEqual(read("I'm not sure this is true. Benzema may have worn another number.").label, 'yes');
        assert.notEqual(read("I'm not confident that this is false.").label, 'no');
    });
});
