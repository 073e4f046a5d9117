/**
 * Issue 41, cause 5: rule and temporal rationales read as claims, not keywords anywhere. (Each failed before.)
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import '../../../src/core/probes/registry.js';
import { checkRuleAnswer, LOW_OVERLAP } from '../../../src/core/families/rule/claims.js';
import { deniedSpans } from '../../../src/core/reader/index.js';
import type { Premise } from '../../../src/core/families/rule/questions.js';
import type { Question } from '../../../src/core/probes/question.js';
import type { KeywordVerdict, Verdict } from '../../../src/core/verify/types.js';
import { createVerifyContext, verify } from '../../../src/core/verify/verify.js';
import { spec } from '../../fixtures/verify/world.js';

function ruleQuestion(premises: Premise[], temporal?: Record<string, unknown>): Question {
    return {
        id: 'q',
        probe: 'p',
        kind: 'rule',
        phrasing: 'basic',
        variant: 'zero_shot',
        question: 'Is it true that …?',
        messages: [],
        gold: 'yes',
        keywords: premises.map(p => [{ relation: p.relation, attribute: p.attribute, value: p.value }]),
        rule: {
            pred: 'x',
            args: [],
            fact: { pred: 'x', args: [] },
            proof: { kind: 'base', fact: { pred: 'x', args: [] } },
            role: 'fact',
            premises,
            ...(temporal ? { temporal } : {}),
        },
        entity: { relation: 'Player', key: ['X'] },
        path: { nodes: [], edges: [] },
        source: {
            spec: 's',
            probe: { file: 's', range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } } },
            constraints: [],
            rows: [],
        },
    } as unknown as Question;
}
const hop = (p: Premise, status: KeywordVerdict['status'], other?: string): KeywordVerdict => ({
    relation: p.relation,
    attribute: p.attribute,
    value: p.value,
    status,
    spans: [],
    ...(other ? { [status === 'found' ? 'alsoStated' : 'conflict']: { value: other, spans: [] } } : {}),
});
const verdict = (rationale: string, hops: KeywordVerdict[], answer = 'yes', correct = true): Verdict => ({
    questionId: 'q',
    model: 'm',
    sample: 0,
    answer: answer as Verdict['answer'],
    correct,
    rationale: true,
    rationaleText: rationale,
    hops: hops.map((k, i) => ({ hop: i + 1, status: k.status, keywords: [k] })),
});

const MESSI: Premise = {
    pred: 'Player.club',
    relation: 'Player',
    attribute: 'club',
    subject: 'Lionel Messi',
    value: 'FC Barcelona',
    forms: { subject: ['Messi'], value: [] },
};

const spell = (attribute: 'begin' | 'end', value: string): Premise => ({
    pred: `Spell.${attribute}`,
    relation: 'Spell',
    attribute,
    label: attribute === 'begin' ? 'first year' : 'last year',
    subject: 'R. Lewandowski (Bayern Munich)',
    value,
    forms: { subject: ['R. Lewandowski', 'Lewandowski'], value: [] },
    spell: [2014, 2022],
});

describe('issue 41: temporal spells', () => {
    const begin = spell('begin', '2014'),
        end = spell('end', '2022');
    it('a year inside the spell supports it, it does not contradict its begin and end', () => {
        const c = checkRuleAnswer(
            ruleQuestion([begin, end], { op: 'at', year: 2015, years: [2015] }),
            verdict('Yes.\n1. Lewandowski played for Bayern Munich in 2015 and 2016.', [
                hop(begin, 'contradicted', '2015'),
                hop(end, 'contradicted', '2016'),
            ]),
        )!;
        assert.deepEqual(c.premises, ['supported', 'supported']);
        assert.equal(c.firstWrongStep, undefined);
        assert.equal(c.category, 'correct');
    });
    it('a year outside the spell contradicts it', () => {
        const c = checkRuleAnswer(
            ruleQuestion([begin, end], { op: 'at', year: 2015, years: [2015] }),
            verdict('Yes.\n1. Lewandowski played for Bayern Munich in 2012.', [hop(begin, 'missing'), hop(end, 'missing')]),
        )!;
        assert.equal(c.premises[0], 'contradicted');
    });
    it('a point naming the bound states it: "the last year … is 2019" contradicts an end of 2022', () => {
        const c = checkRuleAnswer(
            ruleQuestion([begin, end], { op: 'at', year: 2015, years: [2015] }),
            verdict(
                'Yes.\n1. The first year of R. Lewandowski (Bayern Munich) is 2014.\n2. The last year of R. Lewandowski (Bayern Munich) is 2019.',
                [hop(begin, 'found'), hop(end, 'contradicted', '2019')],
            ),
        )!;
        assert.deepEqual(c.premises, ['supported', 'contradicted']);
    });
    it('begin and end are not needed when the question does not ask for them', () => {
        const c = checkRuleAnswer(
            ruleQuestion([begin, end], { op: 'and', year: 2015, years: [2015, 2015] }),
            verdict('Yes.\n1. Lewandowski was a Bayern Munich player.', [hop(begin, 'missing'), hop(end, 'missing')]),
        )!;
        assert.equal(c.firstWrongStep, undefined);
        assert.equal(c.category, 'correct');
    });
});

describe('issue 41: an intermediate node of the proof may be skipped', () => {
    const city: Premise = { pred: 'Club.city', relation: 'Club', attribute: 'city', subject: 'Real Madrid', value: 'Madrid' };
    const region: Premise = {
        pred: 'City.region',
        relation: 'City',
        attribute: 'region',
        subject: 'Madrid',
        value: 'Community of Madrid',
    };
    const country: Premise = {
        pred: 'Region.country',
        relation: 'Region',
        attribute: 'country',
        subject: 'Community of Madrid',
        value: 'Spain',
    };
    it('"Real Madrid is based in Madrid, Spain" without the region does not fail by itself', () => {
        const c = checkRuleAnswer(
            ruleQuestion([city, region, country]),
            verdict('Yes.\n1. Real Madrid is based in Madrid, Spain.', [
                hop(city, 'found'),
                hop(region, 'missing'),
                hop(country, 'found'),
            ]),
        )!;
        assert.equal(c.premises[2], 'supported');
        assert.equal(c.firstWrongStep, undefined);
    });
});

describe("issue 41: the paper's oracle", () => {
    const messi = MESSI;
    it('θ = 0.8 by default (METHODS.md §2)', () => {
        assert.equal(LOW_OVERLAP, 0.8);
    });
    it("the rationale's own triples are in the union: extra facts lower the edge overlap", () => {
        const c = checkRuleAnswer(
            ruleQuestion([messi]),
            verdict(
                'Yes.\n1. Messi played for FC Barcelona.\n2. Messi was born in Rosario.\n3. Messi won the World Cup.',
                [hop(messi, 'found')],
                'no',
                false,
            ),
        )!;
        assert.ok(c.edgeOverlap < 0.5, String(c.edgeOverlap));
        assert.equal(c.paper, 'both', 'their nodes are new nodes too');
    });
    it('a denied premise is no proof edge', () => {
        const c = checkRuleAnswer(
            ruleQuestion([messi]),
            verdict('No.\n1. Messi did not play for FC Barcelona.', [hop(messi, 'found')], 'no', false),
        )!;
        assert.equal(c.edgeOverlap, 0);
    });
});

describe("issue 41: a rule verdict's rationale follows its premises, not keywords anywhere", () => {
    it('a negated premise fails the rationale although its value is written', () => {
        const messi = MESSI;
        const v = verify(ruleQuestion([messi]), 'Yes.\n1. Messi never played for FC Barcelona.', createVerifyContext(spec), 'm');
        assert.equal(v.rationale, false);
        assert.equal(v.hops[0]!.status, 'contradicted');
    });
});

describe('issue 41 (Build 4): a denied premise is negated however the denial is worded', () => {
    const messi = MESSI;
    it('"It is not true that X" denies the clause after "that", not the word "it"', () => {
        const text = 'It is not true that Messi played for FC Barcelona.';
        assert.deepEqual(deniedSpans(text), [[20, 49]]);
        const c = checkRuleAnswer(ruleQuestion([messi]), verdict(`Yes.\n1. ${text}`, [hop(messi, 'found')]))!;
        assert.deepEqual(c.premises, ['negated']);
        assert.equal(c.firstWrongStep, 1);
    });
    it('a year inside the spell denied ("did not play for … in 2015") negates the spell, it is not skipped as missing', () => {
        const begin = spell('begin', '2014'),
            end = spell('end', '2022');
        const c = checkRuleAnswer(
            ruleQuestion([begin, end], { op: 'at', year: 2015, years: [2015] }),
            verdict('Yes.\n1. Lewandowski did not play for Bayern Munich in 2015.', [hop(begin, 'missing'), hop(end, 'missing')]),
        )!;
        assert.deepEqual(c.premises, ['negated', 'negated']);
        assert.equal(c.firstWrongStep, 1);
        assert.equal(c.category, 'right-answer-wrong-premises');
    });
    it('a year outside the spell denied is a true denial: the spell stays as it was read (optional, not wrong)', () => {
        const begin = spell('begin', '2014'),
            end = spell('end', '2022');
        const c = checkRuleAnswer(
            ruleQuestion([begin, end], { op: 'at', year: 2015, years: [2015] }),
            verdict(
                'Yes.\n1. Lewandowski played for Bayern Munich in 2015.\n2. Lewandowski did not play for Bayern Munich in 2012.',
                [hop(begin, 'contradicted', '2015'), hop(end, 'contradicted', '2015')],
            ),
        )!;
        assert.deepEqual(c.premises, ['supported', 'supported']);
    });
});

describe('issue 41 (Build 4): when the question asks for the bounds, a year phrased as the bound states it', () => {
    const begin = spell('begin', '2014'),
        end = spell('end', '2022');
    const until = { op: 'until', year: 2015, years: [2015] };
    const read = (point: string, temporal: Record<string, unknown> = until) =>
        checkRuleAnswer(
            ruleQuestion([begin, end], temporal),
            verdict(`Yes.\n1. ${point}`, [hop(begin, 'found'), hop(end, 'contradicted', '2019')]),
        )!;
    it('"from 2014 to 2019" under until: the begin supported, the end contradicted (2019 is inside the spell, but not its end)', () => {
        const c = read('Lewandowski played for Bayern Munich from 2014 to 2019.');
        assert.deepEqual(c.premises, ['supported', 'contradicted']);
        assert.equal(c.firstWrongStep, 2);
    });
    it('"from 2014 until 2022" under until: both bounds supported', () => {
        assert.deepEqual(read('Lewandowski played for Bayern Munich from 2014 until 2022.').premises, ['supported', 'supported']);
    });
    it('a year inside the spell, no bound phrased, under until: read as before (supported)', () => {
        assert.deepEqual(read('Lewandowski played for Bayern Munich in 2015.').premises, ['supported', 'supported']);
    });
    it('when the question does not ask for the bounds, "from 2014 to 2019" is read as years inside the spell', () => {
        const c = read('Lewandowski played for Bayern Munich from 2014 to 2019.', { op: 'at', year: 2015, years: [2015] });
        assert.deepEqual(c.premises, ['supported', 'supported']);
    });
});
