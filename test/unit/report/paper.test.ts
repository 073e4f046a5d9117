import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { computeMetrics } from '../../../src/core/verify/metrics.js';
import { paperFigure, renderPaperTables } from '../../../src/core/report/paper.js';
import type { ReportData } from '../../../src/core/report/model.js';
import type { Question } from '../../../src/core/probes/question.js';
import type { AnswerClass, Verdict } from '../../../src/core/verify/types.js';
import { kw, question } from '../../fixtures/verify/world.js';

/** A verdict whose hops are 'f' found or 'm' missing. */
function verdict(q: Question, model: string, answer: AnswerClass, correct: boolean, hops: string): Verdict {
    return {
        questionId: q.id,
        model,
        sample: 0,
        answer,
        correct,
        rationale: !hops.includes('m'),
        rationaleText: '',
        hops: [...hops].map((h, i) => ({
            hop: i + 1,
            status: h === 'f' ? 'found' : 'missing',
            keywords: [
                {
                    relation: 'R',
                    attribute: 'a',
                    value: 'v',
                    status: h === 'f' ? 'found' : 'missing',
                    spans: h === 'f' ? [{ start: 0, end: 1 }] : [],
                },
            ],
        })),
    };
}

const report = (questions: Question[], verdicts: Verdict[]): ReportData =>
    ({ run: { id: 'run-7' }, metrics: computeMetrics(questions, verdicts) }) as unknown as ReportData;

describe("report --format erbench (the paper's table layout)", () => {
    it('writes figures as the paper does', () => {
        assert.equal(paperFigure(0.7391), '.74');
        assert.equal(paperFigure(1), '1.00');
        assert.equal(paperFigure(0), '.00');
        assert.equal(paperFigure(null), 'n/a');
    });

    it('a row per model, BN(Y) and BN(N) blocks of A / R / AR / H, and path blocks of A / R-ext / AR-ext per hop / H', () => {
        const basic = Array.from({ length: 4 }, () => question('Q?', [[kw('R', 'a', 'v')]]));
        const negated = Array.from({ length: 4 }, () =>
            question('Q?', [[kw('R', 'a', 'v')]], { phrasing: 'negated', gold: 'no' }),
        );
        const path = Array.from({ length: 4 }, () =>
            question('Q?', [[kw('R', 'a', 'v')], [kw('S', 'b', 'w')]], { kind: 'path', probe: 'hops' }),
        );
        const verdicts = ['m|1', 'm|2'].flatMap(model => [
            ...basic.map((q, i) => verdict(q, model, 'yes', i < 3, i < 2 ? 'f' : 'm')),
            ...negated.map(q => verdict(q, model, 'yes', false, 'f')),
            ...path.map((q, i) => verdict(q, model, 'yes', i < 2, i === 0 ? 'ff' : 'fm')),
        ]);
        const text = renderPaperTables(report([...basic, ...negated, ...path], verdicts));
        assert.match(text, /^# ERBench tables — run run-7/);
        assert.match(text, /## all questions · zero_shot/);
        // Probes in name order, each with its blocks; several probes name theirs.
        assert.ok(
            text.includes(
                '| model | hops BN(Y) A | hops BN(Y) R-ext | hops BN(Y) AR-ext | hops BN(Y) H | p BN(Y) A | p BN(Y) R | p BN(Y) AR | p BN(Y) H | p BN(N) A | p BN(N) R | p BN(N) AR | p BN(N) H |',
            ),
            text,
        );
        // path: A .50, R-ext (1 + .5·3)/4, AR-ext .50/.25, H .50; basic: A 3/4, R 2/4, AR 2/4, H 1/4; negated: A 0, R 1, AR 0, H 1.
        assert.ok(text.includes('| m\\|1 | .50 | .63 | .50/.25 | .50 | .75 | .50 | .50 | .25 | .00 | 1.00 | .00 | 1.00 |'), text);
        assert.equal(
            text.split('\n').filter(l => l.startsWith('| m\\|')).length,
            2,
            'one row per model; a | in a name is escaped',
        );
    });

    it('n/a cells and the reason when a model knows too few entities; the modes say which models they cover', () => {
        const entities = Array.from({ length: 3 }, (_, i) => ({ relation: 'Movie', key: [`m${i}`] }));
        const knows = entities.map(e => question('Do you know?', [], { kind: 'knows', probe: 'k', entity: e }));
        const qs = entities.map(e => question('Q?', [[kw('R', 'a', 'v')]], { entity: e }));
        const verdicts = [
            ...knows.map(q => ({ ...verdict(q, 'gpt', 'yes', true, ''), known: true })),
            ...qs.map(q => verdict(q, 'gpt', 'yes', true, 'f')),
        ];
        const text = renderPaperTables(report([...knows, ...qs], verdicts));
        assert.match(
            text,
            /## entities the model knows · zero_shot[\s\S]*\| gpt \| n\/a \| n\/a \| n\/a \| n\/a \|[\s\S]*- n\/a: gpt knows 3 entities \(fewer than 20\)/,
        );
        assert.match(text, /## entities all models know \(gpt\) · zero_shot/);
    });
});
