/**
 * Two bugs of issue 28 reproduced exactly as the issue states them, through the engine path that had them (the
 * earlier tests of these two cases handed the family a verdict already built, and passed on the old code):
 *   - rules: 'in a rule rationale, "1. FC Barcelona is based in Madrid." is accepted as the premise "based in
 *     Barcelona" (the keyword is found at the subject's own name; Madrid is only noted as alsoStated)';
 *   - open: '"FC Barcelona is based in the city of Madrid" is unverifiable, because "Barcelona" is found inside
 *     "FC Barcelona" (open/check.ts reads the unmasked text)'.
 * Both fail on 8ff828e (see the issue-28 report) and pass now.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import '../../../src/core/probes/registry.js';
import { createVerifyContext, verify } from '../../../src/core/verify/verify.js';
import { checkRuleAnswer } from '../../../src/core/families/rule/claims.js';
import { storedFacts, verifyOpenAnswer } from '../../../src/core/families/open/check.js';
import type { ContextNode, StoredRelation } from '../../../src/core/families/open/types.js';
import type { LoadedData } from '../../../src/core/data/types.js';
import type { Question } from '../../../src/core/probes/question.js';
import { kw, question, spec, table } from '../../fixtures/verify/world.js';

const clubs = table(
    'Club',
    [
        ['name', 'text'],
        ['city', 'text'],
    ],
    [
        ['FC Barcelona', 'Barcelona'],
        ['Real Madrid', 'Madrid'],
        ['RCD Espanyol', 'Barcelona'],
    ],
);
const data: LoadedData = { tables: new Map([['Club', clubs]]), diagnostics: [] };

describe('issue 28, exactly: "1. FC Barcelona is based in Madrid." in a rule rationale', () => {
    const premise = { pred: 'Club.city', relation: 'Club', attribute: 'city', subject: 'FC Barcelona', value: 'Barcelona' };
    const q = question('Is FC Barcelona a club of a city that has a football club?', [[kw('Club', 'city', 'Barcelona')]], {
        kind: 'rule',
        entity: { relation: 'Club', key: ['FC Barcelona'] },
        rule: {
            pred: 'x',
            args: [],
            fact: { pred: 'x', args: [] },
            proof: { kind: 'base', fact: { pred: 'x', args: [] } },
            role: 'fact',
            premises: [premise],
        },
    } as unknown as Partial<Question>);
    const v = verify(q, 'Yes.\n1. FC Barcelona is based in Madrid.', createVerifyContext(spec, data), 'm');

    it('the keyword "Barcelona" is not found at the subject\'s own name: Madrid contradicts it', () => {
        const k = v.hops[0]!.keywords[0]!;
        assert.notEqual(k.status, 'found');
        assert.equal(k.status, 'contradicted');
        assert.equal(k.conflict?.value, 'Madrid');
        assert.equal(v.rationale, false);
    });

    it('the premise "based in Barcelona" is contradicted, by Madrid', () => {
        const c = checkRuleAnswer(q, v)!;
        assert.equal(c.premises[0], 'contradicted');
        assert.equal(c.claims.find(x => x.status === 'contradicted')?.value, 'Madrid');
    });
});

describe('issue 28, exactly: "FC Barcelona is based in the city of Madrid" in an open answer', () => {
    const nodes = [
        { id: 'Club(FC Barcelona)', label: 'FC Barcelona', type: 'Club', entity: true, ppr: 1, prize: 1, seed: true },
        { id: 'Club.city=Barcelona', label: 'Barcelona', type: 'Club.city', entity: false, ppr: 1, prize: 1, seed: false },
    ] as ContextNode[];
    const relations: StoredRelation[] = [
        { name: 'Club.city', label: 'city', headType: 'Club', tailType: 'Club.city', words: ['city', 'based'] },
    ];
    const facts = storedFacts([{ head: 'Club(FC Barcelona)', relation: 'Club.city', tail: 'Club.city=Barcelona' }]);

    it("is contradicted by the data's city, not unverifiable", () => {
        const [claim] = verifyOpenAnswer({
            answer: 'FC Barcelona is based in the city of Madrid.',
            nodes,
            relations,
            data: facts,
        });
        assert.equal(claim!.data.label, 'contradicted');
        assert.deepEqual(claim!.data.edge, { head: 'Club(FC Barcelona)', relation: 'Club.city', tail: 'Club.city=Barcelona' });
    });
});
