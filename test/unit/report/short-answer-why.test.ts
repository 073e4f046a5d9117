/** Issue 36 item 8: a failed short answer is explained by what it said, never "answer answer, expected …". */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { explainVerdict } from '../../../src/core/report/model.js';
import { question, verdict } from '../../fixtures/extension/model.js';

test('a wrong short answer reads "answered "…", expected …"', () => {
    const q = { ...question('a', 'basic'), gold: { answer: 'Avatar' } };
    const v = {
        ...verdict('a', false, 'found', 'answer'),
        read: { text: 'Titanic', span: [0, 7] as [number, number], why: 'the first words', stance: 'asserts' },
    };
    const why = explainVerdict(q, v, 'Titanic.');
    assert.ok(why.length > 0);
    assert.doesNotMatch(why[0]!, /^answer answer/);
    assert.match(why[0]!, /^answered "Titanic", expected /);
});
