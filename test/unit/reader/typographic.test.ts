/**
 * Today's assistants write typographic apostrophes ("I don’t know", "I can’t verify"): the yes / no and true / false
 * readers read them as they read ASCII ones, and the spans they report are spans of the answer as written. The
 * paper rule reads the text as the authors' parser did (unchanged). Sentences written for this test.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readChoice, readStatement, readYesNo } from '../../../src/core/reader/index.js';

describe('typographic apostrophes read as ASCII ones', () => {
    it("a decline written with ’ is unsure, like the same decline written with '", () => {
        for (const text of [
            'I don’t know.',
            'I can’t verify that, sorry.',
            'I don’t have enough information to say whether that is so.',
            'As an AI, I can’t browse the web to check this.',
        ]) {
            const curly = readYesNo(text);
            assert.equal(curly.label, 'unsure', text);
            assert.deepEqual(curly.span, readYesNo(text.replace(/’/g, "'")).span, text);
        }
    });

    it('a statement declined with ’ is don’t-know; a verdict after a contraction still decides', () => {
        assert.equal(readStatement('I don’t know whether that statement holds.').label, 'dont_know');
        assert.equal(readStatement('That’s false: the film came out in 2010.').label, 'false');
        assert.equal(readYesNo('No — it’s not true; he didn’t direct it.').label, 'no');
    });

    it('the span quoted from the answer is the answer’s own text', () => {
        const text = 'I can’t say for sure which club he joined.';
        const r = readYesNo(text);
        assert.equal(text.slice(r.span[0], r.span[1]).includes('can’t'), true);
    });

    it('a multiple-choice decline written with ’ is unsure, and an option whose text has ’ is still named', () => {
        const options = [
            'Directed by Steven Soderbergh',
            'Released in 2001',
            'Ocean’s Eleven stars Julia Roberts',
            'Produced in Spain',
        ];
        assert.equal(readChoice('I can’t tell which option is false.', options).label, 'unsure');
        assert.equal(readChoice('I don’t know.', options).label, 'unsure');
        const named = readChoice("The false one: Ocean's Eleven stars Julia Roberts.", options);
        assert.equal(named.option, 3);
    });
});
