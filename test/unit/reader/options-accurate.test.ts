/**
 * Issue 41 (batch b2): in a "which option is wrong" question, a marked conclusion that calls an option right — however
 * it is emphasised or worded ("so Option 1 is **right**", "so Option 3 is plausible") — rules that option out; it names
 * no answer. Examples written for this test; each failed before the change.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readChoice } from '../../../src/core/reader/index.js';

const OPTIONS = ['Heat was released in 1995.', 'Heat was directed by Michael Mann.', 'Heat was produced in Italy.'];
const picked = (answer: string) => {
    const r = readChoice(answer, OPTIONS);
    return r.label === 'option' ? [r.option] : r.label;
};

describe('issue 41: a conclusion calling an option right names no answer', () => {
    it('emphasis around the word ("so Option 2 is **right**")', () => {
        assert.deepEqual(picked('**Option 3**\n\nMichael Mann directed it, so Option 2 is **right**.'), [3]);
    });
    it('"plausible" / "consistent" call an option right too', () => {
        assert.deepEqual(
            picked(
                'Option 3. It came out in the mid-nineties, so Option 1 is plausible; Mann made it, so Option 2 (Michael Mann) is consistent.',
            ),
            [3],
        );
    });
});
