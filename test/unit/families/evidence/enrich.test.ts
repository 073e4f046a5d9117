// Context enriching (ReEval category 2, issue 24 item 6): the supporting sentence found by a splitter that keeps
// URLs, decimals and abbreviations whole; related passages retrieved by query and by evidence that do not state
// the answer; enriched cases validated, drops counted by reason.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sentences } from '../../../../src/core/families/evidence/text.js';
import { enrichCase, relatedPassages, supportingSentence } from '../../../../src/core/families/evidence/enrich.js';

describe('sentence splitting', () => {
    it('keeps abbreviations, initials, decimals, dates and URLs inside their sentence', () => {
        const text =
            'Mr. Smith went to Washington D.C. on Jan. 5. It cost $5.9 million, see www.cnn.com/2022/06/11/a.b.html for more. ' +
            'The U.S. economy grew 2.5% in Q2. J. K. Rowling agreed. Is that all? Yes!';
        assert.deepEqual(sentences(text), [
            'Mr. Smith went to Washington D.C. on Jan. 5.',
            'It cost $5.9 million, see www.cnn.com/2022/06/11/a.b.html for more.',
            'The U.S. economy grew 2.5% in Q2.',
            'J. K. Rowling agreed.',
            'Is that all?',
            'Yes!',
        ]);
    });

    it('the supporting sentence is a whole sentence, not a URL fragment', () => {
        const p =
            'Prices rose, per https://www.cnn.com/2022/06/11/business/gas-prices.html. Gas now costs $5.9 a gallon, AAA said. Drivers complained.';
        assert.equal(supportingSentence(p, ['$5.9']), 'Gas now costs $5.9 a gallon, AAA said.');
    });
});

describe('related passages', () => {
    const question = 'Which country won the 2022 Eurovision Song Contest?';
    const support = 'Ukraine won the Eurovision Song Contest in Turin with Stefania.';
    const candidates = [
        'The Eurovision Song Contest 2022 was held in Turin, Italy, after Maneskin won in 2021.',
        'Ukraine has taken part in the Eurovision Song Contest since 2003.',
        'The stock market fell sharply on Tuesday.',
        'Eurovision voting combines jury and public votes from every country.',
    ];

    it('keeps passages related to the question or the evidence, best related to both first, never one that states the answer', () => {
        const chosen = relatedPassages(question, support, candidates, ['Ukraine'], 4);
        assert.ok(!chosen.includes(candidates[1]!), 'a passage with the answer is left out');
        assert.ok(!chosen.includes(candidates[2]!), 'an unrelated passage is left out');
        assert.equal(chosen[0], candidates[0], 'related to both: first');
        assert.deepEqual(chosen, [candidates[0], candidates[3]]);
    });

    it('validates the enriched case: the answer only in the supporting sentence, some related passage, drops by reason', () => {
        const ok = enrichCase({
            question,
            passage: `Intro. ${support} More text.`,
            forms: ['Ukraine'],
            candidates,
            random: () => 0.3,
            max: 4,
        });
        assert.equal(typeof ok, 'object');
        if (typeof ok !== 'object') return;
        assert.ok(ok.passage.includes(support));
        assert.equal(ok.passage.split('\n\n')[ok.position! - 1], support, 'position names where the support sits');
        assert.equal(
            enrichCase({ question, passage: 'Nothing about it.', forms: ['Ukraine'], candidates, random: () => 0.3, max: 4 }),
            'no-support',
        );
        assert.equal(
            enrichCase({
                question,
                passage: support,
                forms: ['Ukraine'],
                candidates: [candidates[1]!, candidates[2]!],
                random: () => 0.3,
                max: 4,
            }),
            'no-related',
        );
    });
});
