/**
 * Every misreading listed in issue 28, each through the family entry point that had it (these failed before
 * the reader: see the closing note).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import '../../../src/core/probes/registry.js';
import { parseChoiceAnswer } from '../../../src/core/families/choice/family.js';
import { parseStatement } from '../../../src/core/verify/answer.js';
import { evidenceFamily } from '../../../src/core/families/evidence/family.js';
import { states } from '../../../src/core/families/evidence/text.js';
import { checkRuleAnswer } from '../../../src/core/families/rule/claims.js';
import { storedFacts, verifyOpenAnswer } from '../../../src/core/families/open/check.js';
import type { ContextNode, StoredRelation } from '../../../src/core/families/open/types.js';
import type { Question } from '../../../src/core/probes/question.js';
import type { KeywordVerdict, Verdict } from '../../../src/core/verify/types.js';

const options = ['It was released in the year 2009.', 'Produced in the country USA.', 'It is an animation.'];

describe('issue 28: multiple choice styles of other models', () => {
    it('a restated stem before "Option N"', () => {
        const p = parseChoiceAnswer(
            'The inaccurate option about the movie Avatar released in 2009 is:\n\nOption 3: It is an animation.',
            { options },
        );
        assert.equal(p.answer, 'option');
        assert.equal(p.option, 3);
    });
    it('a bare number naming the option', () => {
        const p = parseChoiceAnswer(' 2. Produced in the country USA.', { options });
        assert.equal(p.answer, 'option');
        assert.equal(p.option, 2);
    });
});

describe('issue 28: abstentions and hedges', () => {
    it('"I am not sure" is no evidence answer (M, not H)', () => {
        assert.equal(evidenceFamily.core.parse('I am not sure.', {} as Question).answer, 'unsure');
    });
    it('a statement verdict with a caveat is an answer', () => {
        assert.equal(parseStatement('Yes, the statement is true, although I cannot verify the exact year.').answer, 'true');
        assert.equal(
            parseStatement('No information suggests that Avatar was directed by Sam Mendes, so the statement is false.').answer,
            'false',
        );
    });
});

describe('issue 28: short names and names inside names (evidence)', () => {
    it('a first name inside another full name is not the answer ("LeBron James" is not stale for James Harden)', () => {
        assert.equal(states('LeBron James.', ['James Harden', 'Harden', 'James']), false);
        assert.equal(states('James Harden.', ['James Harden', 'Harden', 'James']), true);
        assert.equal(states('It was Harden.', ['James Harden', 'Harden', 'James']), true);
    });
});

// ---------------------------------------------------------------- rules

function ruleQuestion(premises: NonNullable<Question['rule']>['premises']): Question {
    return {
        id: 'q',
        probe: 'p',
        kind: 'rule',
        phrasing: 'basic',
        variant: 'zero_shot',
        question: '?',
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
        },
        entity: { relation: 'Player', key: ['Lionel Messi'] },
        source: {
            spec: 's',
            probe: { file: 's', range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } } },
            constraints: [],
            rows: [],
        },
        path: { nodes: [], edges: [] },
    } as unknown as Question;
}

function ruleVerdict(rationale: string, hops: KeywordVerdict[]): Verdict {
    return {
        questionId: 'q',
        model: 'm',
        sample: 0,
        answer: 'yes',
        correct: true,
        rationale: true,
        rationaleText: rationale,
        hops: hops.map((k, i) => ({ hop: i + 1, status: k.status, keywords: [k] })),
    };
}

const kw = (
    relation: string,
    attribute: string,
    value: string,
    status: KeywordVerdict['status'],
    other?: string,
): KeywordVerdict => {
    const k: KeywordVerdict = { relation, attribute, value, status, spans: [] };
    if (other)
        k[status === 'found' ? 'alsoStated' : 'conflict'] = { value: other, spans: [], row: { file: 'clubs.csv', line: 4 } };
    return k;
};

const messi = {
    pred: 'Player.club',
    relation: 'Player',
    attribute: 'club',
    subject: 'Lionel Messi',
    value: 'FC Barcelona',
    forms: { subject: ['L. Messi', 'Messi'], value: ['Barcelona'] },
};
const club = { pred: 'Club.city', relation: 'Club', attribute: 'city', subject: 'FC Barcelona', value: 'Barcelona' };

describe('issue 28: negation in rule rationales', () => {
    it('"L. Messi does not play for FC Barcelona" denies the premise', () => {
        const c = checkRuleAnswer(
            ruleQuestion([messi]),
            ruleVerdict('1. L. Messi does not play for FC Barcelona.', [kw('Player', 'club', 'FC Barcelona', 'found')]),
        )!;
        // issue 41: a denied premise is 'negated' (its own status beside 'contradicted', another value stated)
        assert.equal(c.premises[0], 'negated');
    });
    it('"… plays for Inter Miami, but not FC Barcelona" does not support the premise', () => {
        const c = checkRuleAnswer(
            ruleQuestion([messi]),
            ruleVerdict('No. Messi plays for Inter Miami now, but not FC Barcelona.', [
                kw('Player', 'club', 'FC Barcelona', 'found'),
            ]),
        )!;
        assert.notEqual(c.premises[0], 'supported');
    });
});

describe('issue 28: a value inside a longer name (rules)', () => {
    it('"FC Barcelona is based in Madrid" is not the premise "based in Barcelona"', () => {
        const c = checkRuleAnswer(
            ruleQuestion([club]),
            ruleVerdict('1. FC Barcelona is based in Madrid.', [kw('Club', 'city', 'Barcelona', 'found', 'Madrid')]),
        )!;
        assert.equal(c.premises[0], 'contradicted');
        assert.equal(c.claims.find(x => x.status === 'contradicted')?.value, 'Madrid');
    });
});

describe('issue 28: the rules oracle as precision and recall', () => {
    it('three irrelevant facts lower precision', () => {
        const c = checkRuleAnswer(
            ruleQuestion([messi]),
            ruleVerdict(
                '1. Messi played for FC Barcelona.\n2. The sky is blue.\n3. Paris is in France.\n4. Water boils at 100 degrees.',
                [kw('Player', 'club', 'FC Barcelona', 'found')],
            ),
        )!;
        assert.equal(c.recall, 1);
        assert.equal(c.precision, 0.25);
    });
});

// ---------------------------------------------------------------- open answers

const nodes: ContextNode[] = [
    { id: 'Player(Lionel Messi)', label: 'Lionel Messi', type: 'Player', entity: true, ppr: 1, prize: 1 },
    { id: 'Club(FC Barcelona)', label: 'FC Barcelona', type: 'Club', entity: true, ppr: 1, prize: 1 },
    { id: 'Club(RCD Espanyol)', label: 'RCD Espanyol', type: 'Club', entity: true, ppr: 1, prize: 1 },
    { id: 'Club.city=Barcelona', label: 'Barcelona', type: 'Club.city', entity: false, ppr: 1, prize: 1 },
    { id: 'Club.city=Madrid', label: 'Madrid', type: 'Club.city', entity: false, ppr: 1, prize: 1 },
] as ContextNode[];
const relations: StoredRelation[] = [
    { name: 'club', label: 'plays for', headType: 'Player', tailType: 'Club', words: ['plays', 'club'] },
    { name: 'city', label: 'based in', headType: 'Club', tailType: 'Club.city', words: ['based', 'city'] },
];
const data = storedFacts([
    { head: 'Player(Lionel Messi)', relation: 'club', tail: 'Club(FC Barcelona)' },
    { head: 'Club(FC Barcelona)', relation: 'city', tail: 'Club.city=Barcelona' },
    { head: 'Club(RCD Espanyol)', relation: 'city', tail: 'Club.city=Barcelona' },
]);
const open = (answer: string) => verifyOpenAnswer({ answer, nodes, relations, data }).map(v => v.data.label);

describe('issue 28: open-answer claims', () => {
    it('a negated claim of a fact the data lacks is not invented ("does not play for RCD Espanyol")', () => {
        assert.deepEqual(open('Lionel Messi does not play for RCD Espanyol.'), ['supported']);
    });
    it('a negated claim of a fact the data has is contradicted', () => {
        assert.deepEqual(open('Lionel Messi does not play for FC Barcelona.'), ['contradicted']);
    });
    it('"FC Barcelona is based in the city of Madrid" is contradicted, not hidden by "Barcelona" inside the name', () => {
        assert.deepEqual(open('FC Barcelona is based in the city of Madrid.'), ['contradicted']);
    });
    it('a surname links to its entity ("Messi plays for FC Barcelona")', () => {
        assert.deepEqual(open('Messi plays for FC Barcelona.'), ['supported']);
    });
});

describe('issue 28: explained verdicts', () => {
    it('the failing list names the span read as the answer and why', async () => {
        const { buildReport, failureReason } = await import('../../../src/core/report/index.js');
        const { createVerifyContext, verify } = await import('../../../src/core/verify/verify.js');
        const { data, kw: key, question, spec } = await import('../../fixtures/verify/world.js');
        const q = question('Did H. Lloris play for Tottenham Hotspur?', [[key('Club', 'name', 'Tottenham Hotspur')]], {
            kind: 'path',
            probe: 'club_city_olympics',
        });
        const text = "I'm not sure. I believe he played for Tottenham Hotspur.";
        const v = verify(q, text, createVerifyContext(spec, data), 'gpt', 0);
        assert.deepEqual(v.read?.span, [0, 12]);
        const run = {
            id: 'r',
            spec: 'world.probe',
            suite: 's',
            started: '2026-11-21T00:00:00Z',
            finished: null,
            status: 'completed',
        };
        const d = buildReport({
            run,
            questions: [q],
            answers: [{ questionId: q.id, model: 'gpt', sample: 0, text }],
            verdicts: [v],
        });
        assert.match(
            failureReason(d.rows[0]!),
            /answer unsure, expected yes \(read "I'm not sure" at 0–12: says it does not know in its first sentence\)/,
        );
    });
});

describe('issue 28: keyword checks (every family)', () => {
    it('a first name is not the person when it opens another full name ("James Franco" for James Cameron)', async () => {
        const { createVerifyContext, verify } = await import('../../../src/core/verify/verify.js');
        const { data, kw: key, question, spec } = await import('../../fixtures/verify/world.js');
        const q = question('Is there a movie released in 2009 directed by James Cameron?', [
            [key('Director', 'name', 'James Cameron')],
        ]);
        const ctx = createVerifyContext(spec, data);
        assert.equal(verify(q, 'Yes. It was directed by James Franco.', ctx, 'm').hops[0]!.keywords[0]!.spans.length, 0);
        assert.equal(verify(q, 'Yes. Cameron directed it.', ctx, 'm').hops[0]!.status, 'found');
    });
    it('a value inside a longer name of the question is not written ("The Dark Knight" in "The Dark Knight Rises")', async () => {
        const { createVerifyContext, verify } = await import('../../../src/core/verify/verify.js');
        const { data, kw: key, question, spec } = await import('../../fixtures/verify/world.js');
        const q = question(
            'Is there a movie by Christopher Nolan released in 2012?',
            [[key('Movie', 'title', 'The Dark Knight')]],
            { entity: { relation: 'Movie', key: ['The Dark Knight Rises', '2012'] } },
        );
        const v = verify(q, 'Yes. Nolan directed The Dark Knight Rises in 2012.', createVerifyContext(spec, data), 'm');
        assert.equal(v.hops[0]!.keywords[0]!.spans.length, 0);
    });
});

describe('issue 28: a label inside a longer name (open), the other city outside the neighbourhood', () => {
    it('"FC Barcelona is based in the city of Madrid" is contradicted, not unverifiable', () => {
        const without = nodes.filter(n => n.id !== 'Club.city=Madrid');
        assert.deepEqual(
            verifyOpenAnswer({ answer: 'FC Barcelona is based in the city of Madrid.', nodes: without, relations, data }).map(
                v => v.data.label,
            ),
            ['contradicted'],
        );
    });
});

describe('issue 28: a model as reader (rules extract_with)', () => {
    it('keeps how often the pattern reader agrees with the model reader', () => {
        const v = {
            ...ruleVerdict('1. L. Messi does not play for FC Barcelona.', [kw('Player', 'club', 'FC Barcelona', 'found')]),
            extracted: { model: 'x', triples: [{ subject: 'Lionel Messi', relation: 'club', object: 'FC Barcelona' }] },
        };
        const c = checkRuleAnswer(ruleQuestion([messi]), v)!;
        assert.equal(c.extraction.by, 'model');
        assert.deepEqual(c.agreement, { premises: 1, agree: c.premises[0] === 'contradicted' ? 1 : 0 });
        assert.equal(c.premises[0], 'supported', 'the model read no negation: the readers disagree');
        assert.deepEqual(c.agreement, { premises: 1, agree: 0 });
    });
});
