// Issue 27 item 9: the paper's categories (HalluVault, METHODS.md §2) are defined among WRONG answers, from the
// node / edge overlap between the rationale's triples and the proof's: low edge overlap → error inference, low
// node overlap → error knowledge, both low → both. Ours (each premise checked against the data) carry other names.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { checkRuleAnswer } from '../../../../src/core/families/rule/claims.js';
import { ruleFigures, LOW_OVERLAP } from '../../../../src/core/families/rule/metrics.js';
import { ruleFamily } from '../../../../src/core/families/rule/family.js';
import type { GroupMetrics } from '../../../../src/core/verify/figures.js';
import { colleagueQuestion as question, clubKeyword as kw, ruleVerdict as verdict } from '../../../support/rule-answers.js';

const right = '1. Lionel Messi played for Barcelona.\n2. Xavi played for Barcelona.';
const oneWrong = '1. Lionel Messi played for Barcelona.\n2. Xavi played for Real Madrid.';

describe("the paper's categories, among wrong answers, from the overlaps", () => {
    it("the default threshold is documented: an overlap below 0.8 is low (the paper's θ, issue 41)", () => {
        assert.equal(LOW_OVERLAP, 0.8);
    });

    it("a wrong answer from right premises: overlaps 1 / 1, not low — the paper's oracle does not classify it; ours: wrong answer, right premises", () => {
        const q = question('fact', 'yes');
        const c = checkRuleAnswer(q, verdict(q, 'no', right, [kw('found'), kw('found')]))!;
        assert.deepEqual([c.nodeOverlap, c.edgeOverlap], [1, 1]);
        assert.equal(c.paper, 'not-low');
        assert.equal(c.category, 'wrong-answer-right-premises');
    });

    it('a wrong answer with one premise stated wrongly: edge overlap 1/3 (low), node 3/4 → error inference; ours: wrong answer, wrong premises', () => {
        const q = question('fact', 'yes', 'q-half', 0.5); // below 0.5 low (issue 41 made the default the paper's 0.8)
        const c = checkRuleAnswer(q, verdict(q, 'no', oneWrong, [kw('found', 'Real Madrid'), kw('found', 'Real Madrid')]))!;
        assert.equal(c.edgeOverlap, 1 / 3);
        assert.equal(c.nodeOverlap, 3 / 4);
        assert.equal(c.paper, 'error-inference');
        assert.equal(c.category, 'wrong-answer-wrong-premises');
    });

    it('a wrong answer stating nothing of the proof: both overlaps 0 → both', () => {
        const q = question('fact', 'yes');
        const c = checkRuleAnswer(q, verdict(q, 'no', '1. I do not think so.', [kw('missing'), kw('missing')]))!;
        assert.equal(c.paper, 'both');
    });

    it('low node overlap with edges not low → error knowledge (the threshold per question, `low_overlap`)', () => {
        // The proof's nodes {Lionel Messi, Barcelona, Xavi}; the rationale's {Lionel Messi, Barcelona, Xavi, Real Madrid}:
        // node 3/4, edge 1/3. With low_overlap 0.3, the edge overlap is not low; at 0.8 the node overlap is.
        const lenient = question('fact', 'yes', 'q-lenient', 0.3);
        assert.equal(
            checkRuleAnswer(lenient, verdict(lenient, 'no', oneWrong, [kw('found', 'Real Madrid'), kw('found', 'Real Madrid')]))!
                .paper,
            'not-low',
        );
        const strict = question('fact', 'yes', 'q-strict', 0.8);
        assert.equal(
            checkRuleAnswer(strict, verdict(strict, 'no', oneWrong, [kw('found', 'Real Madrid'), kw('found', 'Real Madrid')]))!
                .paper,
            'both',
        );
        // A premise missing: node 2/3, edge 1/2. At 0.6 only the edge overlap is low; at 0.7 both; error knowledge
        // needs a node overlap below the threshold with the edge overlap at or above it.
        const mid = question('fact', 'yes', 'q-mid', 0.6);
        assert.equal(
            checkRuleAnswer(mid, verdict(mid, 'no', '1. Lionel Messi played for Barcelona.', [kw('found'), kw('missing')]))!
                .paper,
            'error-inference',
        );
        const knowledge = checkRuleAnswer(mid, {
            ...verdict(mid, 'no', right, [kw('found'), kw('found')]),
            similarity: { model: 'e', threshold: 0.8, nodeOverlap: 0.5, edgeOverlap: 0.7 },
        })!;
        assert.equal(knowledge.paper, 'error-knowledge');
    });

    it('right answers and refusals get no paper category; ours names a right answer from wrong premises', () => {
        const q = question('fact', 'yes');
        const rightAnswer = checkRuleAnswer(
            q,
            verdict(q, 'yes', oneWrong, [kw('found', 'Real Madrid'), kw('found', 'Real Madrid')]),
        )!;
        assert.equal(rightAnswer.paper, undefined);
        assert.equal(rightAnswer.category, 'right-answer-wrong-premises');
        const refused = checkRuleAnswer(q, verdict(q, 'unsure', '', [kw('missing'), kw('missing')]))!;
        assert.equal(refused.paper, undefined);
        assert.equal(refused.category, 'refused');
    });

    it("figures: the paper's shares are over wrong answers, ours over answered ones, side by side", () => {
        const q = question('fact', 'yes', 'q-half', 0.5); // below 0.5 low (issue 41 made the default the paper's 0.8)
        const f = ruleFigures([
            { q, v: verdict(q, 'no', right, [kw('found'), kw('found')]) }, // wrong: not low / wrong answer, right premises
            { q, v: verdict(q, 'no', oneWrong, [kw('found', 'Real Madrid'), kw('found', 'Real Madrid')]) }, // wrong: error inference / wrong answer, wrong premises
            { q, v: verdict(q, 'no', '1. I do not think so.', [kw('missing'), kw('missing')]) }, // wrong: both / wrong answer, wrong premises
            { q, v: verdict(q, 'yes', oneWrong, [kw('found', 'Real Madrid'), kw('found', 'Real Madrid')]) }, // right answer, wrong premises
            { q, v: verdict(q, 'yes', right, [kw('found'), kw('found')]) }, // correct
            { q, v: verdict(q, 'unsure', '', [kw('missing'), kw('missing')]) }, // refused
        ])!;
        assert.equal(f.wrong, 3);
        assert.equal(f.lowOverlap, 0.5);
        assert.deepEqual([f.errorKnowledge.k, f.errorInference.k, f.both.k, f.overlapNotLow.k], [0, 1, 1, 1]);
        for (const x of [f.errorKnowledge, f.errorInference, f.both, f.overlapNotLow]) assert.equal(x.n, 3);
        assert.deepEqual([f.rightAnswerWrongPremises.k, f.wrongAnswerRightPremises.k, f.wrongAnswerWrongPremises.k], [1, 1, 2]);
        for (const x of [f.rightAnswerWrongPremises, f.wrongAnswerRightPremises, f.wrongAnswerWrongPremises])
            assert.equal(x.n, 5);
    });

    it("every report format gets both sets through the family's figure columns", () => {
        const q = question('fact', 'yes', 'q-half', 0.5); // below 0.5 low (issue 41 made the default the paper's 0.8)
        const rules = ruleFigures([
            { q, v: verdict(q, 'no', oneWrong, [kw('found', 'Real Madrid'), kw('found', 'Real Madrid')]) },
        ])!;
        const group = { figures: { rules } } as unknown as GroupMetrics;
        const columns = Object.fromEntries((ruleFamily.figures?.columns ?? []).map(c => [c.name, c.value(group)]));
        assert.deepEqual(columns, {
            rule_wrong_answers: 1,
            rule_error_knowledge: 0,
            rule_error_inference: 1,
            rule_both: 0,
            rule_overlap_not_low: 0,
            rule_low_overlap: 0.5,
            rule_right_answer_wrong_premises: 0,
            rule_wrong_answer_right_premises: 0,
            rule_wrong_answer_wrong_premises: 1,
        });
    });
});
