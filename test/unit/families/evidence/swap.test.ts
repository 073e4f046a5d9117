import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { answerType, swapAnswer, validateSwap, type Swap } from '../../../../src/core/families/evidence/swap.js';
import { exactMatch, normalise, occurrences, states, tokenF1 } from '../../../../src/core/families/evidence/text.js';

const P = 'Avatar is a 2009 film directed by James Cameron. Cameron wrote it in 1994.';

/** A swap made by hand (what a careless rewrite could produce), with the spans of what was written. */
function handSwap(passage: string, replacement: string): Swap {
    const spans: [number, number][] = [];
    for (let i = passage.indexOf(replacement); i >= 0; i = passage.indexOf(replacement, i + 1))
        spans.push([i, i + replacement.length]);
    return { passage, spans, replacement };
}

describe('answer swapping', () => {
    it('replaces every occurrence, aliases too, and keeps the rest of the passage', () => {
        const s = swapAnswer(P, ['James Cameron', 'Cameron'], 'Joss Whedon')!;
        assert.equal(s.passage, 'Avatar is a 2009 film directed by Joss Whedon. Joss Whedon wrote it in 1994.');
        assert.equal(validateSwap(P, s, ['James Cameron', 'Cameron'], 'James Cameron'), undefined);
        assert.deepEqual(
            s.spans.map(([a, b]) => s.passage.slice(a, b)),
            ['Joss Whedon', 'Joss Whedon'],
        );
    });

    it('rejects an answer left in a possessive', () => {
        const bad = handSwap("Avatar is a 2009 film directed by Joss Whedon. Cameron's script came first.", 'Joss Whedon');
        assert.equal(validateSwap(P, bad, ['James Cameron', 'Cameron'], 'James Cameron'), 'old-answer-left');
    });

    it('rejects an answer left inside another word', () => {
        const original = 'The director Tom Ford lives in Fordham.';
        const bad = handSwap('The director Tom Hardy lives in Fordham.', 'Tom Hardy');
        assert.equal(validateSwap(original, bad, ['Tom Ford', 'Ford'], 'Tom Ford'), 'old-answer-left');
    });

    it('rejects an answer left as an alias', () => {
        const bad = swapAnswer(P, ['James Cameron'], 'Joss Whedon');
        assert.equal(validateSwap(P, bad, ['James Cameron', 'Cameron'], 'James Cameron'), 'old-answer-left');
    });

    it('rejects a replacement of another shape, the same answer, and a passage without the answer', () => {
        const year = 'The film came out in 2009.';
        assert.equal(validateSwap(year, swapAnswer(year, ['2009'], 'Peter Jackson'), ['2009'], '2009'), 'type-mismatch');
        assert.equal(validateSwap(year, swapAnswer(year, ['2009'], '1997'), ['2009'], '2009'), undefined);
        assert.equal(
            validateSwap(P, swapAnswer(P, ['James Cameron'], 'james cameron'), ['James Cameron'], 'James Cameron'),
            'same-answer',
        );
        assert.equal(validateSwap(P, swapAnswer(P, ['Sam Raimi'], 'Joss Whedon'), ['Sam Raimi'], 'Sam Raimi'), 'no-occurrence');
    });

    it('rejects extra changes outside the swapped spans', () => {
        const bad = handSwap('Avatar is a 2010 film directed by Joss Whedon. Joss Whedon wrote it in 1994.', 'Joss Whedon');
        assert.equal(validateSwap(P, bad, ['James Cameron', 'Cameron'], 'James Cameron'), 'extra-changes');
    });

    it('rejects a new answer that is not in the passage', () => {
        const bad: Swap = {
            passage: 'Avatar is a 2009 film directed by someone. Someone wrote it in 1994.',
            spans: [],
            replacement: 'Joss Whedon',
        };
        assert.equal(validateSwap(P, bad, ['James Cameron', 'Cameron'], 'James Cameron'), 'new-answer-missing');
    });

    it('tells types apart', () => {
        assert.deepEqual(
            ['1997', '3,400', 'June 2, 2022', 'Peter Jackson', '“Squid Game”', 'ban on assault weapons'].map(a => answerType(a)),
            ['year', 'count', 'date', 'person', 'name', 'thing'],
        );
    });
});

describe('short-answer scoring', () => {
    it('normalises as SQuAD does and gives exact match and token F1', () => {
        assert.equal(normalise('The “Squid Game”!'), 'squid game');
        assert.equal(exactMatch('Squid Game.', ['“Squid Game”']), true);
        assert.equal(tokenF1('the Squid', ['Squid Game']), 2 / 3);
        assert.equal(states('It was directed by James Cameron.', ['James Cameron']), true);
        assert.equal(states('Jameson', ['James']), false);
        assert.deepEqual(occurrences('Ford, Fordham and ford.', ['Ford']), [
            [0, 4],
            [18, 22],
        ]);
    });
});
