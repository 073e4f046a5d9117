// Issue 38 item 6: GraphEval's 1:1 ratio of negatives as a named preset (`negatives paper`), and the report and
// `estimate` dropping the same triples when calls fail (a triple with a statement left unanswered is no triple).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { generateQuestions } from '../../../../src/core/probes/index.js';
import { createVerifyContext, verify } from '../../../../src/core/verify/verify.js';
import { statementFigures, triplesOf } from '../../../../src/core/families/statement/metrics.js';
import { world } from '../../../fixtures/probes/world.js';

const CSV =
    'name,city,club\n' +
    Array.from(
        { length: 12 },
        (_, i) => `p${i},${['Rome', 'Oslo', 'Lima'][i % 3]},${['Ajax', 'Roma', 'Porto', 'Celtic'][i % 4]}`,
    ).join('\n') +
    '\n';
const spec = (settings: string) => `source s csv "people.csv"
relation Person from s { name: text  city: text  club: text  key(name) }
fd Person: name -> city, club as facts
probe p statement using facts { ${settings} }
`;

describe('statement negatives as the paper makes them (issue 38 item 6)', () => {
    it("`negatives paper` asks one negative per true statement (GraphEval's 1:1)", async () => {
        const w = await world(spec('negatives paper  corrupt [tail, head]'), { 'people.csv': CSV });
        try {
            assert.deepEqual(
                w.diagnostics.filter(d => d.severity === 'error'),
                [],
            );
            const g = generateQuestions(w.model, w.data, { probe: 'p' });
            const questions = [...g.questions];
            assert.deepEqual(
                g.diagnostics.filter(d => d.severity === 'error'),
                [],
            );
            const perTriple = new Map<string, number>();
            for (const q of questions) if (q.gold === 'no') perTriple.set(q.group!.id, (perTriple.get(q.group!.id) ?? 0) + 1);
            assert.ok(perTriple.size > 0);
            // One negative per true statement (a row the data cannot corrupt soundly gets none).
            assert.deepEqual([...new Set(perTriple.values())], [1]);
        } finally {
            w.dispose();
        }
    });

    it('a triple with an unanswered statement (its call failed) is dropped by the report as by estimate', async () => {
        const w = await world(spec('negatives 2  corrupt [tail, head]'), { 'people.csv': CSV });
        try {
            const questions = [...generateQuestions(w.model, w.data, { probe: 'p' }).questions];
            const ctx = createVerifyContext(w.model, w.data);
            const items = questions.map(q => ({
                q,
                v: verify(q, q.gold === 'yes' ? 'Yes, the statement is true.' : 'No, the statement is false.', ctx, 'm'),
            }));
            const whole = triplesOf(items).length;
            // One negative's call failed: it has no verdict. estimate scores a triple only when all its statements
            // were answered; the report must leave the same triple out, not score it on its other negative.
            const failed = items.findIndex(i => i.q.gold === 'no');
            const answered = items.filter((_, i) => i !== failed);
            assert.equal(triplesOf(answered).length, whole - 1);
            assert.equal(statementFigures(answered).triples, whole - 1);
        } finally {
            w.dispose();
        }
    });
});
