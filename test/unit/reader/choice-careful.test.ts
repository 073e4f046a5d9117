/**
 * Issue 41, multiple choice read as a careful person reads it (ERBench asks for the one inaccurate option):
 * - a marked conclusion whose sentence names the inaccurate option decides, however the naming is phrased ("so my
 *   best guess is that the wrong statement is option C") — the statement WRONG_REF reads anywhere, with the
 *   conclusion's precedence over the opening;
 * - a hedge between "the inaccurate option is" and the option ("is most likely Option 2") leaves the option named;
 * - an option the answer calls accurate ("(Option 1 true)", "Option 2 is correct") is an option cleared, not picked,
 *   when the answer picks another; alone, it is read as before;
 * - "1. … 2. …" numbering a walk through the options names no option.
 * Sentences written for this test (none is a corpus answer); the failures before the change are in the report.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readChoice } from '../../../src/core/reader/index.js';

const OPTIONS = [
    'Gattaca was released in 1997.',
    'Gattaca was directed by Andrew Niccol.',
    'Gattaca was produced in Japan.',
    'Gattaca is a live-action film.',
];
const picked = (answer: string) => {
    const r = readChoice(answer, OPTIONS);
    return r.label === 'option' ? r.option : r.label;
};

describe('issue 41: a conclusion that names the inaccurate option decides', () => {
    it('"so my best guess is that the wrong statement is option C", after an opening naming other options', () => {
        assert.equal(
            picked(
                'Options 1 and 4 are easy to confirm from memory. The production country is the one I cannot place, so my best guess is that the wrong statement is option C.',
            ),
            3,
        );
    });
    it('"Therefore I think Option 3 is the false one." after a walk that names option 1 first', () => {
        assert.equal(picked('Option 1 matches the year I remember. Therefore I think Option 3 is the false one.'), 3);
    });
});

describe('issue 41: a hedge between the mark and the option leaves the option named', () => {
    it('"So the inaccurate option is most likely Option 3."', () => {
        assert.equal(
            picked(
                'Niccol wrote and directed it in 1997 (Options 1 and 2).\n\nSo the inaccurate option is most likely Option 3.',
            ),
            3,
        );
    });
    it('"The false one is probably option C." with no marker before it', () => {
        assert.equal(picked('It is an American film. The false one is probably option C.'), 3);
    });
});

describe('issue 41: an option called accurate is cleared, not picked', () => {
    it('an aside "(Option 1 true)" and "(so the second option is right)" in the opening do not pick them', () => {
        assert.equal(
            picked(
                'Gattaca came out in 1997 (Option 1 true) and Andrew Niccol directed it (so the second option is right). Option 3 is off: it is an American production.',
            ),
            3,
        );
    });
    it('"Option 2 is correct, but Option 3 is not": 3, not both', () => {
        assert.equal(picked('Option 2 is correct, but Option 3 is not: the film was made in the United States.'), 3);
    });
    it('options cleared one per line, then the one called wrong', () => {
        assert.equal(picked('Option 1 is correct.\nOption 2 is correct.\nOption 3: wrong, it was shot in California.'), 3);
    });
    it('an option conceded as right ("looks right at first, but …") is not cleared: it is the pick', () => {
        assert.equal(picked('Option 1 is fine. Option 3 looks right at first glance, but the film was made in California.'), 3);
    });
    it('an option called correct and nothing else is read as before (the option named)', () => {
        assert.equal(picked('Option 2 is correct.'), 2);
    });
});

describe('issue 41: numbering a walk through the options names no option', () => {
    it('"1. … 2. … 3. …" then no pick: none, as the paper reads nothing named', () => {
        assert.equal(
            picked(
                'Checking each one:\n\n1. The film premiered in 1997. Right.\n2. Andrew Niccol wrote and directed it. Right.\n3. It is set in the future but made in the US, so Japan looks doubtful.\n4. Live action. Right.',
            ),
            'none',
        );
    });
    it('a bare "1." that opens a one-line answer is still the option it names', () => {
        assert.equal(picked('1. Gattaca premiered in 1998, not 1997.'), 1);
    });
    it('a bare "2." before an explanation numbered from 1 is still option 2', () => {
        assert.equal(picked('2.\n\nWhy:\n1. Niccol did not direct it.\n2. The rest fits.'), 2);
    });
});
