/**
 * Issue 41, cause 3: a denied value counts as stated. One rule (reader/denial.ts) decides what a denial covers;
 * each family's entry point is tested here (each failed before the rule).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import '../../../src/core/probes/registry.js';
import { deniedSpans } from '../../../src/core/reader/index.js';
import { evidenceFamily } from '../../../src/core/families/evidence/family.js';
import { swapOutcome } from '../../../src/core/families/evidence/metrics.js';
import { checkRuleAnswer } from '../../../src/core/families/rule/claims.js';
import { storedFacts, verifyOpenAnswer } from '../../../src/core/families/open/check.js';
import type { ContextGraph, ContextNode, StoredRelation } from '../../../src/core/families/open/types.js';
import type { Question } from '../../../src/core/probes/question.js';
import type { KeywordVerdict, Verdict } from '../../../src/core/verify/types.js';
import { createVerifyContext, verify } from '../../../src/core/verify/verify.js';
import { data as world, kw as key, question, spec } from '../../fixtures/verify/world.js';

const denied = (text: string) => deniedSpans(text).map(([a, b]) => text.slice(a, b));

describe('issue 41: what a denial covers (the rule)', () => {
    it('reads each denial form and nothing else', () => {
        assert.deepEqual(denied('No — it was discovered by Marie Curie, not by Albert Einstein.'), ['by Albert Einstein']);
        assert.deepEqual(denied('The answer is James Cameron (not Steven Spielberg, as the passage claims).'), [
            'Steven Spielberg',
        ]);
        assert.deepEqual(denied('Avatar came out in 2009, not 2012.'), ['2012']);
        assert.deepEqual(denied('It was not directed by Spielberg but by Cameron.'), ['directed by Spielberg']);
        assert.deepEqual(denied('The facts say 2012, which is wrong; it was 2009.'), ['The facts say 2012']);
        assert.deepEqual(denied('Neither Spielberg nor Lucas directed it.'), ['Spielberg nor Lucas directed it']);
        assert.deepEqual(denied('Although the passage says 2012, the film came out in 2009.'), ['2012']);
        assert.deepEqual(denied('The claim that it came out in 2012 is incorrect.'), ['it came out in 2012']);
        assert.deepEqual(denied('He was coached by J. Lingard, not J. Smith.'), ['J. Smith']);
    });
    it('a hedge or a plain negated verb is no denial span', () => {
        assert.deepEqual(denied("I'm not sure, but I think it was Cameron."), []);
        assert.deepEqual(denied('He played not only for Barcelona but also for PSG.'), []);
        assert.deepEqual(denied('Messi does not play for Barcelona.'), []);
        assert.deepEqual(denied('According to the passage, it was released in 2009.'), []);
    });
});

describe('issue 41: a denied value is never found (keyword check)', () => {
    it('"No — it was directed by Sam Mendes, not by James Cameron" does not find James Cameron', () => {
        const q = question('Is there a movie released in 2009 directed by James Cameron?', [
            [key('Movie', 'director', 'James Cameron')],
        ]);
        const v = verify(q, 'No — it was directed by Sam Mendes, not by James Cameron.', createVerifyContext(spec, world), 'm');
        assert.notEqual(v.hops[0]!.status, 'found');
        assert.equal(v.rationale, false);
    });
    it('a denied other value is no conflict ("Avatar, not Titanic")', () => {
        const q = question('Is there a movie directed by James Cameron released in 2009?', [[key('Movie', 'title', 'Avatar')]]);
        const v = verify(q, 'Yes, the movie is "Avatar", not "Titanic".', createVerifyContext(spec, world), 'm');
        assert.equal(v.hops[0]!.status, 'found');
        assert.equal(v.hops[0]!.keywords[0]!.alsoStated, undefined);
    });
});

const swap = {
    gold: { answer: 'Sam Mendes' },
    evidence: { kind: 'swap', original: 'James Cameron', aliases: ['James Cameron'] },
} as unknown as Question;

describe('issue 41: a denied value is never followed (evidence)', () => {
    it('"The answer is Z (not W, as the passage claims)" is stale, not followed', () => {
        assert.equal(swapOutcome(swap, 'The answer is James Cameron (not Sam Mendes, as the passage claims).'), 'stale');
    });
    it('"the passage says W, but it was Z" is stale; "W, not Z" is followed', () => {
        assert.equal(swapOutcome(swap, 'The passage says Sam Mendes, but it was really James Cameron.'), 'stale');
        assert.equal(swapOutcome(swap, 'Sam Mendes, not James Cameron.'), 'followed');
    });
    it("the swapped case is scored right only when the passage's value is given, not denied", () => {
        const r = (text: string) => evidenceFamily.core.score(swap, evidenceFamily.core.parse(text, swap), text).correct;
        assert.equal(r('James Cameron, not Sam Mendes as the passage claims.'), false);
        assert.equal(r('Sam Mendes.'), true);
    });
});

// ---------------------------------------------------------------- open answers

const nodes = [
    { id: 'Movie(Avatar)', label: 'Avatar', type: 'Movie', entity: true, ppr: 1, prize: 1 },
    { id: 'Movie.year=2009', label: '2009', type: 'Movie.year', entity: false, ppr: 1, prize: 1 },
    { id: 'Movie.year=2012', label: '2012', type: 'Movie.year', entity: false, ppr: 1, prize: 1 },
] as ContextNode[];
const relations: StoredRelation[] = [
    {
        name: 'Movie.year',
        label: 'release year',
        headType: 'Movie',
        tailType: 'Movie.year',
        words: ['year', 'release year', 'released'],
    },
];
const facts = storedFacts([{ head: 'Movie(Avatar)', relation: 'Movie.year', tail: 'Movie.year=2009' }]);
const corrupted: ContextGraph = {
    form: 'triplets',
    nodes,
    edges: [
        {
            head: 'Movie(Avatar)',
            relation: 'Movie.year',
            label: 'release year',
            tail: 'Movie.year=2012',
            prize: 1,
            cost: 1,
            perturbed: { kind: 'rewire', tail: 'Movie.year=2009' },
        },
    ],
};

describe('issue 41: a denied value is never a positive claim (open)', () => {
    it('"Avatar came out in 2009, not 2012" is a correct correction, not a contradicted claim', () => {
        const v = verifyOpenAnswer({
            answer: 'Avatar came out in 2009, not 2012.',
            nodes,
            relations,
            data: facts,
            context: corrupted,
        });
        assert.ok(v.length > 0);
        assert.ok(
            v.every(c => c.data.label === 'supported'),
            JSON.stringify(v.map(c => [c.text, c.data.label])),
        );
        assert.ok(v.every(c => c.cause !== 'followed-corrupted'));
    });
    it('the denied part is a negated claim, supported when the data agrees the value is wrong', () => {
        const v = verifyOpenAnswer({ answer: 'Avatar came out in 2009, not 2012.', nodes, relations, data: facts });
        const neg = v.find(c => c.mentions.includes('Movie.year=2012'));
        assert.ok(neg, 'the denied value is read as a claim of its own');
        assert.equal(neg.data.label, 'supported');
        assert.equal(neg.negated, true);
    });
    it('a denied value the data has is a contradicted negated claim', () => {
        const v = verifyOpenAnswer({ answer: 'Avatar came out in 2012, not 2009.', nodes, relations, data: facts });
        assert.deepEqual(v.map(c => c.data.label).sort(), ['contradicted', 'contradicted']);
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
        path: { nodes: [], edges: [] },
    } as unknown as Question;
}
const ruleVerdict = (rationale: string, hops: KeywordVerdict[]): Verdict => ({
    questionId: 'q',
    model: 'm',
    sample: 0,
    answer: 'yes',
    correct: true,
    rationale: true,
    rationaleText: rationale,
    hops: hops.map((k, i) => ({ hop: i + 1, status: k.status, keywords: [k] })),
});
const messi = {
    pred: 'Player.club',
    relation: 'Player',
    attribute: 'club',
    subject: 'Lionel Messi',
    value: 'FC Barcelona',
    forms: { subject: ['Messi'], value: ['Barcelona'] },
};
const found: KeywordVerdict = { relation: 'Player', attribute: 'club', value: 'FC Barcelona', status: 'found', spans: [] };

describe('issue 41: a denied premise value is no support (rules)', () => {
    it('"The claim that Messi played for FC Barcelona is incorrect" negates the premise', () => {
        const c = checkRuleAnswer(
            ruleQuestion([messi]),
            ruleVerdict('1. The claim that Messi played for FC Barcelona is incorrect.', [found]),
        )!;
        assert.equal(c.premises[0], 'negated');
    });
    it('"Messi played for FC Barcelona, not PSG" still supports it', () => {
        const c = checkRuleAnswer(ruleQuestion([messi]), ruleVerdict('1. Messi played for FC Barcelona, not PSG.', [found]))!;
        assert.equal(c.premises[0], 'supported');
    });
});

describe("issue 41: the claim reader (every family reading claims by the spec's phrasings)", () => {
    it('a value called wrong is a negated claim, supported when the data has another value', async () => {
        const { ClaimReader, Linker } = await import('../../../src/core/reader/index.js');
        const linker = new Linker([
            { id: 'messi', type: 'Player', names: ['Lionel Messi'], person: true },
            { id: 'fcb', type: 'Club', names: ['FC Barcelona'] },
            { id: 'psg', type: 'Club', names: ['Paris Saint-Germain'] },
        ]);
        const reader = new ClaimReader(linker, [
            { name: 'club', phrases: ['played for'], head: 'Player', tail: 'Club', functional: true },
        ]);
        const facts = { objects: (s: string, r: string) => (s === 'messi' && r === 'club' ? [{ id: 'fcb' }] : []) };
        const [c] = reader.read('The claim that Lionel Messi played for Paris Saint-Germain is incorrect.', facts);
        assert.equal(c!.negated, true);
        assert.equal(c!.status, 'supported');
    });
});
