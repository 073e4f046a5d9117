/**
 * Issue 41, Build item 1: one declaration of what marks a conclusion (verdict.ts `conclusionStarts`), read by every
 * closed reader and by the short-answer reader, which keeps the marks that name the answer. A mark the short reader
 * knew ("I'd go with X") now concludes a yes / no answer and a multiple-choice answer too; a hedge among the marked
 * words ("the most likely answer is") hedges the short answer. Sentences written for this test; each failed before.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readChoice, readShort, readYesNo } from '../../../src/core/reader/index.js';

const OPTIONS = ['Fargo came out in 1996.', 'Fargo was directed by Joel Coen.', 'Fargo was shot in Brazil.'];

describe('issue 41: one declaration of a marked conclusion, shared by every reader', () => {
    it('"I\'d go with yes." after reasoning concludes a yes / no answer', () => {
        const r = readYesNo("The archive lists her at the club for two seasons, which matches what I remember. I'd go with yes.");
        assert.equal(r.label, 'yes', r.why);
    });
    it('"I\'d go with the third option." concludes a multiple-choice answer over the options cleared before it', () => {
        const r = readChoice(
            "Options 1 and 2 both agree with what I know about the film. I'd go with the third option.",
            OPTIONS,
        );
        assert.equal(r.label, 'option', r.why);
        assert.equal(r.option, 3);
    });
    it('a short answer after "the most likely answer is" is that value, hedged', () => {
        const r = readShort('The passage names a stunt coordinator. The most likely answer is Joel Coen.');
        assert.equal(r.text, 'Joel Coen');
        assert.equal(r.stance, 'hedged');
    });
    it('"so" alone marks no short answer: the reasoning\'s facts are not the answer', () => {
        const r = readShort('Joel Coen. The passage credits his brother, so Ethan Coen appears there.');
        assert.equal(r.text, 'Joel Coen');
    });
});
