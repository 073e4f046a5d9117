/**
 * Issue 41 (w44d): answers that commit without a verdict word where the reader looked for one — a hedged marked
 * conclusion ("my best guess is Option 2", "the answer is probably no"), a conditional's consequent ("If we count the
 * loan, then yes, …"), a verdict tagged onto the end of a sentence after a dash ("… is false — No."), and "all three
 * options look accurate" as none of the above. Examples written for this test (Heat, Inception, Zidane); each failed
 * before the change.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readChoice, readYesNo } from '../../../src/core/reader/index.js';

const OPTIONS = ['Heat was released in 1995.', 'Heat was directed by Michael Mann.', 'Heat was produced in Italy.'];
const picked = (answer: string) => {
    const r = readChoice(answer, OPTIONS);
    return r.label === 'option' ? [r.option] : r.label;
};

describe('issue 41: a hedged pick is a pick', () => {
    it('"my best guess is Option 3" after an opening that names another option', () => {
        assert.deepEqual(
            picked(
                'Option 1 looks fine to me, since Heat came out in the mid-nineties, and Mann is its director. That leaves Italy, which feels off, so my best guess is Option 3.',
            ),
            [3],
        );
    });
    it('"the answer is probably no" is a hedged no', () => {
        const r = readYesNo('Zidane retired from playing in 2006 and never came back. Given that, the answer is probably no.');
        assert.equal(r.label, 'no');
        assert.equal(r.stance, 'hedged');
    });
    it('"my best guess would be yes" is a hedged yes', () => {
        const r = readYesNo('I cannot check a squad list from that season. Still, my best guess would be yes.');
        assert.equal(r.label, 'yes');
        assert.equal(r.stance, 'hedged');
    });
});

describe('issue 41: the consequent of a conditional the answer adopts', () => {
    it('"If we count …, then yes, …"', () => {
        const r = readYesNo(
            'Zidane spent most of 2001 in Turin before his summer move. If we count the club he ended the year with, then yes, it was Real Madrid.',
        );
        assert.equal(r.label, 'yes');
    });
    it('"then" with no condition before it in its sentence is narrative, not a conclusion', () => {
        const r = readYesNo('No. Zidane moved to Turin in 1996, then yes, he went on to Madrid in 2001.');
        assert.equal(r.label, 'no');
    });
});

describe('issue 41: a verdict tagged onto the end of a sentence after a dash', () => {
    it('"… is false — No."', () => {
        const r = readYesNo(
            'Inception came out in 2010, directed by Christopher Nolan.\n\nSince it was released in 2010, the claim that it was released in 2012 is false — No.',
        );
        assert.equal(r.label, 'no');
    });
    it('"… is right – Yes."', () => {
        const r = readYesNo('Nolan made Inception in 2010. So the statement that Nolan directed it is right – Yes.');
        assert.equal(r.label, 'yes');
    });
    it('a dash before a word that only starts a phrase is no verdict ("— no doubt about it")', () => {
        const r = readYesNo('Inception came out in 2010. Nolan directed it — no doubt about it.');
        assert.equal(r.label, 'unparseable');
    });
});

describe('issue 41: "all three options look accurate" is none of the above', () => {
    // (each sentence also quotes one option's text, which alone would read as that option)
    it('a number word and "look" / "seem"', () => {
        assert.equal(
            picked('Honestly, all three options look accurate to me: Heat was directed by Michael Mann, in 1995, in the USA.'),
            'none',
        );
        assert.equal(picked('All of them seem correct: Heat was released in 1995, by Michael Mann.'), 'none');
    });
});
