// One rule question about colleague(Lionel Messi, Xavi) with its proof (two premises: both play for Barcelona),
// and verdicts on it: the fixture the rule-answer tests share (claims, the paper's categories).
import type { Question } from '../../src/core/probes/question.js';
import type { Verdict, KeywordVerdict } from '../../src/core/verify/types.js';
import type { Proof } from '../../src/core/rules/ir.js';

export const colleagueProof: Proof = {
    kind: 'rule',
    rule: 'colleague',
    clause: 0,
    bindings: {},
    fact: { pred: 'colleague', args: ['Lionel Messi', 'Xavi'] },
    premises: [
        { kind: 'base', fact: { pred: 'Player.club', args: ['Lionel Messi', 'Barcelona'] } },
        { kind: 'base', fact: { pred: 'Player.club', args: ['Xavi', 'Barcelona'] } },
    ],
};

export function colleagueQuestion(role: string, gold: 'yes' | 'no', id = `q-${role}`, lowOverlap?: number): Question {
    const proof = colleagueProof;
    return {
        id,
        probe: 'colleagues',
        kind: 'rule',
        phrasing: role === 'fact' ? 'basic' : 'negated',
        variant: 'zero_shot',
        question: '?',
        messages: [],
        gold,
        keywords: [
            [{ relation: 'Player', attribute: 'club', value: 'Barcelona' }],
            [{ relation: 'Player', attribute: 'club', value: 'Barcelona' }],
        ],
        group: { id: 'g1', relation: 'metamorphic', role },
        rule: {
            pred: 'colleague',
            args: ['Lionel Messi', 'Xavi'],
            fact: proof.fact,
            proof,
            role,
            premises: [
                {
                    pred: 'Player.club',
                    relation: 'Player',
                    attribute: 'club',
                    subject: 'Lionel Messi',
                    value: 'Barcelona',
                    forms: { subject: ['Messi'], value: ['FC Barcelona'] },
                },
                { pred: 'Player.club', relation: 'Player', attribute: 'club', subject: 'Xavi', value: 'Barcelona' },
            ],
            ...(lowOverlap !== undefined ? { lowOverlap } : {}),
        },
        entity: { relation: 'Player', key: ['Lionel Messi'] },
        source: {
            spec: 's',
            probe: { file: 's', range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } } },
            constraints: [],
            rows: [],
        },
        path: { nodes: [], edges: [] },
    };
}

/** A keyword verdict on Barcelona; `other` is another value the rationale stated (with its data row). */
export function clubKeyword(status: KeywordVerdict['status'], other?: string): KeywordVerdict {
    const k: KeywordVerdict = { relation: 'Player', attribute: 'club', value: 'Barcelona', status, spans: [] };
    if (other && status === 'found') k.alsoStated = { value: other, spans: [], row: { file: 'players.csv', line: 7 } };
    if (other && status === 'contradicted') k.conflict = { value: other, spans: [], row: { file: 'players.csv', line: 7 } };
    return k;
}

export function ruleVerdict(q: Question, answer: 'yes' | 'no' | 'unsure', rationale: string, hops: KeywordVerdict[]): Verdict {
    return {
        questionId: q.id,
        model: 'm',
        sample: 0,
        answer,
        correct: answer === q.gold,
        rationale: hops.every(h => h.status === 'found'),
        rationaleText: rationale,
        hops: hops.map((k, i) => ({ hop: i + 1, status: k.status, keywords: [k] })),
    };
}
