import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { checkRuleAnswer, splitPoints } from '../../../../src/core/families/rule/claims.js';
import { ruleFigures } from '../../../../src/core/families/rule/metrics.js';
import { judgeQuestionGroups } from '../../../../src/core/verify/groups.js';
import { colleagueQuestion as question, clubKeyword as kw, ruleVerdict as verdict } from '../../../support/rule-answers.js';
import type { Question } from '../../../../src/core/probes/question.js';

describe('rule answers against their proofs', () => {
    it('splits numbered points, else sentences', () => {
        assert.deepEqual(splitPoints('\n1. A is B.\n2) C is D.\n- E'), ['A is B.', 'C is D.', 'E']);
        assert.deepEqual(splitPoints('A is B. C is D.'), ['A is B.', 'C is D.']);
    });

    it('all premises stated (with aliases), answer right: correct, full overlap', () => {
        const q = question('fact', 'yes');
        const c = checkRuleAnswer(
            q,
            verdict(q, 'yes', '1. Messi played for FC Barcelona.\n2. Xavi played for Barcelona.', [kw('found'), kw('found')]),
        )!;
        assert.deepEqual(c.premises, ['supported', 'supported']);
        assert.equal(c.category, 'correct');
        assert.equal(c.firstWrongStep, undefined);
        assert.equal(c.nodeOverlap, 1);
        assert.equal(c.edgeOverlap, 1);
    });

    it('a wrong premise in one point is contradicted with its row, even when the true value appears elsewhere', () => {
        const q = question('fact', 'yes');
        const c = checkRuleAnswer(
            q,
            verdict(q, 'yes', '1. Lionel Messi played for Barcelona.\n2. Xavi played for Real Madrid.', [
                kw('found', 'Real Madrid'),
                kw('found', 'Real Madrid'),
            ]),
        )!;
        assert.deepEqual(c.premises, ['supported', 'contradicted']);
        assert.equal(c.firstWrongStep, 2);
        assert.equal(c.category, 'right-answer-wrong-premises');
        const bad = c.claims.find(x => x.status === 'contradicted')!;
        assert.deepEqual([bad.point, bad.subject, bad.value, bad.row?.line], [2, 'Xavi', 'Real Madrid', 7]);
        assert.ok(c.edgeOverlap < 1 && c.edgeOverlap > 0);
    });

    it('premises right, answer wrong; both wrong; refusal: not a hallucination (our categories, named as such)', () => {
        const q = question('fact', 'yes');
        const right = '1. Lionel Messi played for Barcelona.\n2. Xavi played for Barcelona.';
        assert.equal(
            checkRuleAnswer(q, verdict(q, 'no', right, [kw('found'), kw('found')]))!.category,
            'wrong-answer-right-premises',
        );
        assert.equal(
            checkRuleAnswer(q, verdict(q, 'no', '1. Lionel Messi played for Barcelona.', [kw('found'), kw('missing')]))!.category,
            'wrong-answer-wrong-premises',
        );
        assert.equal(checkRuleAnswer(q, verdict(q, 'unsure', '', [kw('missing'), kw('missing')]))!.category, 'refused');
        const f = ruleFigures([
            { q, v: verdict(q, 'no', right, [kw('found'), kw('found')]) },
            { q, v: verdict(q, 'yes', right, [kw('found'), kw('found')]) },
            { q, v: verdict(q, 'unsure', '', [kw('missing'), kw('missing')]) },
        ])!;
        assert.equal(f.answered, 2);
        assert.equal(f.wrongAnswerRightPremises.k, 1);
        assert.equal(f.wrongAnswerRightPremises.n, 2);
        assert.equal(f.hallucination.k, 1);
        assert.equal(f.hallucination.n, 3);
        assert.equal(f.byRelation['Player.club']?.k, 1);
    });

    it('a metamorphic group is inconsistent when the polarity twin agrees or the symmetric reading disagrees', () => {
        const fact = question('fact', 'yes'),
            twin = question('polarity', 'no'),
            sym = question('symmetric', 'yes');
        const judge = (a: string, b: string, c: string) =>
            judgeQuestionGroups(
                [fact, twin, sym],
                [verdict(fact, a as 'yes', '', []), verdict(twin, b as 'yes', '', []), verdict(sym, c as 'yes', '', [])],
            )[0]!;
        assert.equal(judge('yes', 'no', 'yes').outcome, 'consistent');
        // Wrong but consistent: every member answers against the fact. No gold is needed to see consistency.
        assert.equal(judge('no', 'yes', 'no').outcome, 'consistent');
        assert.equal(judge('yes', 'yes', 'yes').outcome, 'polarity-broken');
        assert.equal(judge('yes', 'no', 'no').outcome, 'symmetry-broken');
        assert.equal(judge('yes', 'unsure', 'yes').outcome, 'undecided');
    });
});

describe('claims about one premise are not credited to another', () => {
    it('a value stated about one subject neither supports nor contradicts a premise about another', () => {
        const q = question('fact', 'yes');
        const about = checkRuleAnswer(
            q,
            verdict(q, 'no', '1. The club of Lionel Messi is Juventus.', [
                kw('contradicted', 'Juventus'),
                kw('contradicted', 'Juventus'),
            ]),
        )!;
        assert.deepEqual(about.premises, ['contradicted', 'missing']);
        const right = checkRuleAnswer(q, verdict(q, 'yes', '1. Lionel Messi played for Barcelona.', [kw('found'), kw('found')]))!;
        assert.deepEqual(right.premises, ['supported', 'missing']);
        // Said of nobody in particular, it counts for every premise with that value.
        const both = checkRuleAnswer(q, verdict(q, 'yes', '1. They both played for Barcelona.', [kw('found'), kw('found')]))!;
        assert.deepEqual(both.premises, ['supported', 'supported']);
    });
});

describe("a subject whose name holds the value, or the value the subject's name", () => {
    const chain = (subject: string, value: string, subjectForms: string[] = []): Question => {
        const q = question('fact', 'yes');
        const premise = {
            pred: 'Place.part_of',
            relation: 'Place',
            attribute: 'part_of',
            subject,
            value,
            forms: { subject: subjectForms, value: [] },
        };
        return {
            ...q,
            keywords: [[{ relation: 'Place', attribute: 'part_of', value }]],
            rule: { ...q.rule!, premises: [premise] },
        };
    };
    const found = (q: Question, text: string) =>
        checkRuleAnswer(
            q,
            verdict(q, 'yes', text, [
                { relation: 'Place', attribute: 'part_of', value: q.rule!.premises[0]!.value, status: 'found', spans: [] },
            ]),
        )!.premises;

    it('reads "The region of Madrid is Community of Madrid" as stating the premise', () => {
        assert.deepEqual(found(chain('Madrid', 'Community of Madrid'), '1. The region of Madrid is Community of Madrid.'), [
            'supported',
        ]);
    });

    it('reads "The city of FC Barcelona is Barcelona" as stating it, though "Barcelona" also names the club', () => {
        assert.deepEqual(found(chain('FC Barcelona', 'Barcelona', ['Barcelona']), '1. The city of FC Barcelona is Barcelona.'), [
            'supported',
        ]);
        // Naming the club alone is not stating its city.
        assert.deepEqual(
            found(
                chain('FC Barcelona', 'Barcelona', ['Barcelona']),
                '1. FC Barcelona won the league.\n2. Messi played for FC Barcelona.',
            ),
            ['missing'],
        );
    });
});
