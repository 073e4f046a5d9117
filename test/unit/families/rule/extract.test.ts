// Reading a model's extraction answer (extract.ts): JSON triples, fenced or bare list, and the reasons an answer
// is refused; triples matched to premises by subject and value (aliases too), a wrong value contradicting.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseTriples, tripleClaims } from '../../../../src/core/families/rule/extract.js';
import type { Premise } from '../../../../src/core/families/rule/questions.js';

const premise = (subject: string, attribute: string, value: string, forms?: Premise['forms']): Premise => ({
    pred: `Player.${attribute}`,
    relation: 'Player',
    attribute,
    label: attribute,
    subject,
    value,
    ...(forms ? { forms } : {}),
});

describe('claim extraction answers', () => {
    it('reads triples from an object, a fenced object or a bare list', () => {
        const t = [{ subject: 'L. Messi', relation: 'club', object: 'FC Barcelona' }];
        assert.deepEqual(parseTriples(JSON.stringify({ triples: t })), t);
        assert.deepEqual(parseTriples('```json\n' + JSON.stringify({ triples: t }) + '\n```'), t);
        assert.deepEqual(parseTriples(JSON.stringify(t)), t);
    });
    it('says why an answer is not usable', () => {
        assert.match(parseTriples('Sure! Messi plays for Barcelona.') as string, /not JSON/);
        assert.match(parseTriples('{"facts": []}') as string, /no "triples" list/);
        assert.match(parseTriples('{"triples": [{"subject": "a"}]}') as string, /lacks a subject, relation or object/);
    });
    it('supports, contradicts or leaves unknown each triple against the premises', () => {
        const premises = [
            premise('L. Messi', 'club', 'FC Barcelona', { subject: [], value: ['Barcelona'] }),
            premise('M. ter Stegen', 'club', 'FC Barcelona'),
        ];
        const claims = tripleClaims(
            [
                { subject: 'Messi', relation: 'plays for', object: 'Barcelona' },
                { subject: 'M. ter Stegen', relation: 'club', object: 'Real Madrid CF' },
                { subject: 'Spain', relation: 'capital', object: 'Madrid' },
            ],
            premises,
            [],
        );
        assert.deepEqual(
            claims.map(c => [c.status, c.premise]),
            [
                ['unknown', undefined],
                ['contradicted', 1],
                ['unknown', undefined],
            ],
        );
        const full = tripleClaims([{ subject: 'L. Messi', relation: 'plays for', object: 'Barcelona' }], premises, []);
        assert.deepEqual(
            full.map(c => [c.status, c.premise]),
            [['supported', 0]],
        );
    });
});
