// The graph panel's view of a rule question: the proof tree, each premise coloured as the rationale states it.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { proofPath } from '../../../../src/core/families/rule/graph.js';
import { premisesOf } from '../../../../src/core/families/rule/questions.js';
import { questionGraph } from '../../../../src/core/kg/question-graph.js';
import { questionElements } from '../../../../src/core/kg/drawing.js';
import type { Proof } from '../../../../src/core/rules/ir.js';
import type { Question } from '../../../../src/core/probes/question.js';
import type { Verdict } from '../../../../src/core/verify/types.js';

// inside(Barcelona, Europe) by transitivity over a chain of three part_of facts.
const base = (a: string, b: string): Proof => ({ kind: 'base', fact: { pred: 'Place.part_of', args: [a, b] } });
const step = (a: string, b: string, premises: Proof[]): Proof => ({
    kind: 'rule',
    rule: 'inside',
    clause: 0,
    bindings: {},
    fact: { pred: 'inside', args: [a, b] },
    premises,
});
const proof = step('Barcelona', 'Europe', [
    step('Barcelona', 'Spain', [
        step('Barcelona', 'Catalonia', [base('Barcelona', 'Catalonia')]),
        step('Catalonia', 'Spain', [base('Catalonia', 'Spain')]),
    ]),
    step('Spain', 'Europe', [base('Spain', 'Europe')]),
]);
const premises = premisesOf(proof, pred => ({ relation: pred.split('.')[0]!, attribute: pred.split('.')[1]! }));

const question: Question = {
    id: 'q',
    probe: 'regions',
    kind: 'rule',
    phrasing: 'basic',
    variant: 'zero_shot',
    question: 'Is it true that Barcelona lies in Europe?',
    messages: [],
    gold: 'yes',
    keywords: premises.map(p => [{ relation: p.relation, attribute: p.attribute, value: p.value }]),
    group: { id: 'g', relation: 'metamorphic', role: 'fact' },
    rule: { pred: 'inside', args: ['Barcelona', 'Europe'], fact: proof.fact, proof, premises, role: 'fact' },
    entity: { relation: 'Place', key: ['Barcelona'] },
    source: {
        spec: 's',
        probe: { file: 's', range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } } },
        constraints: [],
        rows: [],
    },
    path: proofPath(proof),
};

describe('a rule question in the graph panel', () => {
    it("the proof is one chain: the premises in derivation order, each value the next premise's subject", () => {
        assert.deepEqual(
            premises.map(p => `${p.subject}→${p.value}`),
            ['Barcelona→Catalonia', 'Catalonia→Spain', 'Spain→Europe'],
        );
        const ids = question.path.nodes.map(n => n.id);
        for (const place of ['Barcelona', 'Catalonia', 'Spain', 'Europe'])
            assert.equal(ids.filter(i => i === `node:${place}`).length, 1, place);
        assert.ok(question.path.nodes.some(n => n.id === 'fact:inside(Barcelona,Europe)' && n.given));
    });

    it('colours the premises the rationale states right, wrongly and not at all', () => {
        const response = 'Yes.\n1. Barcelona is part of Catalonia.\n2. Catalonia is part of France.';
        const v: Verdict = {
            questionId: 'q',
            model: 'm',
            sample: 0,
            answer: 'yes',
            correct: true,
            rationale: false,
            rationaleText: response.slice(5),
            hops: [
                {
                    hop: 1,
                    status: 'found',
                    keywords: [{ relation: 'Place', attribute: 'part_of', value: 'Catalonia', status: 'found', spans: [] }],
                },
                {
                    hop: 2,
                    status: 'contradicted',
                    keywords: [
                        {
                            relation: 'Place',
                            attribute: 'part_of',
                            value: 'Spain',
                            status: 'contradicted',
                            spans: [],
                            conflict: { value: 'France', spans: [], row: { file: 'places.csv', line: 15 } },
                        },
                    ],
                },
                {
                    hop: 3,
                    status: 'missing',
                    keywords: [{ relation: 'Place', attribute: 'part_of', value: 'Europe', status: 'missing', spans: [] }],
                },
            ],
            failedHop: 2,
        };
        const g = questionGraph(question, v, response);
        assert.deepEqual(
            g.claims!.map(c => c.data),
            ['supported', 'contradicted', 'unverifiable'],
        );
        assert.match(g.claims![1]!.text, /Catalonia part_of France \(data: Spain\)/);
        const status = new Map(
            questionElements(g)
                .filter(e => e.group === 'nodes')
                .map(e => [e.data.id, e.data.status]),
        );
        assert.equal(status.get('node:Barcelona'), 'found');
        // Catalonia is the value of a supported premise and the subject of a contradicted one: the worse wins.
        assert.equal(status.get('node:Catalonia'), 'contradicted');
        assert.equal(status.get('node:Europe'), 'missing');
        // The model's wrong value is drawn beside the premise it contradicts.
        assert.ok(questionElements(g).some(e => e.group === 'nodes' && e.data.kind === 'conflict' && e.data.label === 'France'));
    });

    it("a value the verifier saw said of one subject colours only that subject's premise", () => {
        const b = (p: string): Proof => ({ kind: 'base', fact: { pred: 'Player.club', args: [p, 'FC Barcelona'] } });
        const pr: Proof = {
            kind: 'rule',
            rule: 'colleague',
            clause: 0,
            bindings: {},
            fact: { pred: 'colleague', args: ['L. Messi', 'Piqué'] },
            premises: [b('L. Messi'), b('Piqué')],
        };
        const ps = premisesOf(pr, pred => ({ relation: 'Player', attribute: pred.split('.')[1]! }));
        const q: Question = {
            ...question,
            id: 'c',
            rule: { pred: 'colleague', args: ['L. Messi', 'Piqué'], fact: pr.fact, proof: pr, premises: ps, role: 'fact' },
            keywords: ps.map(p => [{ relation: 'Player', attribute: 'club', value: p.value }]),
            path: proofPath(pr),
        };
        const response = 'No.\n1. The club of L. Messi is Juventus.';
        // The verifier: both hops' keyword (the same club) is missing and Juventus, another club, is stated.
        const kw = {
            relation: 'Player',
            attribute: 'club',
            value: 'FC Barcelona',
            status: 'contradicted' as const,
            spans: [],
            conflict: { value: 'Juventus', spans: [] },
        };
        const v: Verdict = {
            questionId: 'c',
            model: 'm',
            sample: 0,
            answer: 'no',
            correct: false,
            rationale: false,
            rationaleText: response.slice(4),
            hops: [1, 2].map(hop => ({ hop, status: 'contradicted' as const, keywords: [kw] })),
            failedHop: 1,
        };
        const g = questionGraph(q, v, response);
        assert.deepEqual(
            g.hops.map(h => h.status),
            ['contradicted', 'missing'],
        );
        const els = questionElements(g);
        const status = new Map(els.filter(e => e.group === 'nodes').map(e => [e.data.id, e.data.status]));
        assert.equal(status.get('node:L. Messi'), 'contradicted');
        assert.equal(status.get('node:Piqué'), 'missing');
        // One "model said" node: Juventus beside Messi's premise only.
        assert.equal(els.filter(e => e.group === 'nodes' && e.data.kind === 'conflict').length, 1);
    });
});
