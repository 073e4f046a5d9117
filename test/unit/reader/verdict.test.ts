/**
 * Issue 41, cause 1: the verdict is not in the first word. One rule decides where it is (src/core/reader/verdict.ts),
 * for every closed family: verdicts not spelled yes / no, a verdict after a polite preamble or a restated question,
 * a marked conclusion over the opening, a verdict after a refusal is a hedged verdict, conflicting unmarked
 * verdicts are unreadable with both spans recorded. The paper's rule stays selectable (`answer_rule paper`).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readStatement, readYesNo } from '../../../src/core/reader/index.js';

const YES_NO: [string, string, string?][] = [
    ['True.', 'yes'],
    ['False.', 'no'],
    ['Correct — he played for Chelsea in 2019.', 'yes'],
    ["That's incorrect. He played for Arsenal.", 'no'],
    ["I don't believe so.", 'no'],
    ['Absolutely not.', 'no'],
    ['Of course! Avatar was directed by James Cameron.', 'yes'],
    ['Not anymore: he left the club in 2018.', 'no'],
    ["Sure! I'd be happy to help. Yes, Avatar (2009) was directed by James Cameron.", 'yes'],
    ["Certainly! I'd be happy to help with that.\n\nNo, James Cameron did not direct it.", 'no'],
    ['Is there a movie released in 2009 directed by James Cameron? Yes — Avatar.', 'yes'],
    ['James Cameron directed Avatar in 2009, and Sam Worthington starred in it, so the answer is yes.', 'yes'],
    ['Avatar was released in 2009. Therefore, no.', 'no'],
    ['Let me think. He joined Lille in 2019. In conclusion, the answer is no.', 'no'],
    ['**Answer:** No\n\nThe film came out in 2010.', 'no'],
    ['## Answer\n\nYes — the film is *Avatar*.', 'yes'],
    ['- **No.** He never played there.', 'no'],
    ['As an AI I cannot browse, but there was no such player in 2019.', 'no', 'hedged'],
    ["I'm not sure, but I believe yes: Avatar.", 'yes', 'hedged'],
    ['There is no such film; Cameron made Titanic in 1997.', 'no'],
    ["I don't know.", 'unsure', 'abstain'],
    ["I'm sorry, but I can't help with that.", 'unsure', 'refuse'],
];

describe('issue 41 cause 1: where the verdict is (yes / no)', () => {
    for (const [text, want, stance] of YES_NO) {
        it(`${JSON.stringify(text.slice(0, 60))} → ${want}${stance ? ` (${stance})` : ''}`, () => {
            const r = readYesNo(text);
            assert.equal(r.label, want, r.why);
            if (stance) assert.equal(r.stance, stance, r.why);
            if (want !== 'unsure') assert.ok(r.span[1] > r.span[0], 'the verdict span is recorded');
        });
    }

    it('a marked conclusion decides over the opening; both spans are recorded and the why says so', () => {
        const text = 'Yes, it is true. He played for Roma in 2019. Therefore, the answer is no.';
        const r = readYesNo(text);
        assert.equal(r.label, 'no');
        assert.match(r.why, /marked conclusion "no" decides; the opening "Yes" is overruled/);
        assert.deepEqual(
            r.read?.map(x => [x.role, x.polarity, text.slice(x.span[0], x.span[1])]),
            [
                ['opening', 'pos', 'Yes'],
                ['conclusion', 'neg', 'no'],
            ],
        );
    });

    it('conflicting unmarked verdicts are unreadable, both spans recorded', () => {
        const text = 'Yes, he played for Roma. No. He played for Lazio.';
        const r = readYesNo(text);
        assert.equal(r.label, 'unparseable');
        assert.match(r.why, /conflicting verdicts "Yes" and "No"/);
        const spans = r.read!.map(x => text.slice(x.span[0], x.span[1]));
        assert.deepEqual(spans, ['Yes', 'No']);
    });

    it('a committed "there is no …" answers a negated question with yes', () => {
        assert.equal(
            readYesNo('There is no such movie.', {
                question: 'Is it true that there are no movies, released in 2009, directed by X?',
            }).label,
            'yes',
        );
        assert.equal(
            readYesNo('There is no such movie.', { question: 'Is there a movie, released in 2009, directed by X?' }).label,
            'no',
        );
    });

    it("the paper rule (answer_rule paper): the first word decides over a conclusion, as the paper's tables count it", () => {
        assert.equal(readYesNo('Yes, it is. The answer is no.', { rule: 'paper' }).label, 'yes');
        assert.equal(readYesNo('Yes, it is. The answer is no.').label, 'no');
        assert.equal(
            readYesNo('Avatar was released in 2009. Therefore, no.', { rule: 'paper' }).label,
            'no',
            'no first word: the robust reading',
        );
    });
});

describe("issue 41 cause 1: the same rule for statements (true / false / don't know)", () => {
    const cases: [string, string][] = [
        ['Correct — Avatar was released in 2009.', 'true'],
        ["That's incorrect; it came out in 2010.", 'false'],
        ['Sure! Let me check. The statement is false: the director is Cameron.', 'false'],
        ['Cameron directed Avatar in 2009. In conclusion, the statement is true.', 'true'],
        ['**Verdict:** False', 'false'],
        ["I can't verify that.", 'dont_know'],
        ['The statement is true. The statement is false.', 'unparseable'],
    ];
    for (const [text, want] of cases)
        it(`${JSON.stringify(text.slice(0, 60))} → ${want}`, () =>
            assert.equal(readStatement(text).label, want, readStatement(text).why));
});
