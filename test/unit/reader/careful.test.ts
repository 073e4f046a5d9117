/**
 * Issue 41, reading answers as a careful person does (second pass): general rules about answer style, each with
 * answers invented for this test (not copied from the natural corpus).
 *   - a verdict withdrawn at the end ("… but I can't commit either way") is no verdict: unsure;
 *   - a verdict that is "it depends" / "partly" is no single verdict: unreadable;
 *   - a short answer that only reports the passage's value and doubts it, then declines, is unsure.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readShort, readYesNo, readStatement } from '../../../src/core/reader/index.js';

describe('issue 41: a verdict withdrawn at the end is unsure', () => {
    it('"I think no … Still, I cannot commit either way." → unsure', () => {
        const r = readYesNo(
            'I think the answer is no: the club moved to a new stadium in 1998.\nStill, without a source I cannot commit either way.',
        );
        assert.equal(r.label, 'unsure', r.why);
    });
    it('statement: "I believe the statement is true, … I can\'t say for sure either way." → don\'t know', () => {
        const r = readStatement(
            "I believe the statement is true, although my memory of the season is hazy. Honestly, I can't say for sure either way.",
        );
        assert.equal(r.label, 'dont_know', r.why);
    });
    it('a withdrawal before a committed conclusion does not undo the conclusion', () => {
        const r = readYesNo(
            "I can't commit either way at first glance. Checking the dates, though, he left in 2004, so the answer is no.",
        );
        assert.equal(r.label, 'no', r.why);
    });
});

describe('issue 41: "it depends" is no single verdict', () => {
    for (const text of [
        '**Answer: It depends on which co-author you mean.** For the first, yes; for the second, no.',
        'Partly — one of the two founders was born in the 1960s, the other in the 1950s.',
        'Yes and no. The first club is in the city, the second is not.',
    ]) {
        it(`${JSON.stringify(text.slice(0, 50))} → unparseable`, () =>
            assert.equal(readYesNo(text).label, 'unparseable', readYesNo(text).why));
    }
});

describe("issue 41: a short answer that only doubts the passage's value, then declines, is unsure", () => {
    it('reported value with doubt + "I can\'t verify" → unsure', () => {
        const r = readShort(
            'The passage says the bridge was designed by Otto Kessler, but that does not match what I recall. I cannot verify which is right, so I would rather not guess.',
        );
        assert.equal(r.label, 'unsure', r.why);
    });
    it('"I\'m not sure. I believe it was X." is a hedged answer, not an abstention', () => {
        const r = readShort(
            'I am not entirely sure. I believe the bridge was designed by Maria Lund, though Otto Kessler worked on it too.',
        );
        assert.equal(r.label, 'answer', r.why);
        assert.equal(r.stance, 'hedged');
        assert.match(r.text, /Maria Lund/);
    });
    it('its own value after the doubt is an answer', () => {
        const r = readShort(
            'The passage says Otto Kessler, but that is wrong: it was Maria Lund. I cannot verify the year, though.',
        );
        assert.equal(r.label, 'answer', r.why);
    });
});

describe('issue 41: abstention is unsure in evidence too (never correct because the gold is mentioned)', () => {
    it('an answer that declines but names the gold in passing is not correct', async () => {
        const { evidenceFamily } = await import('../../../src/core/families/evidence/family.js');
        const q = { kind: 'evidence', gold: { answer: 'Ada Varga' } } as unknown as Parameters<
            typeof evidenceFamily.core.score
        >[0];
        const text =
            "I'm not confident enough to name the architect. I connect the tower with Ada Varga, but I can't say for certain.";
        const parsed = evidenceFamily.core.parse(text, q);
        assert.equal(parsed.answer, 'unsure');
        assert.equal(evidenceFamily.core.score(q, parsed, text).correct, false);
        const plain = 'Ada Varga designed it.';
        assert.equal(evidenceFamily.core.score(q, evidenceFamily.core.parse(plain, q), plain).correct, true);
    });
});
