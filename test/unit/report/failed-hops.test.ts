/**
 * A failed multi-hop question says why at every hop, in every format that gives a reason (md, html, JUnit):
 * each failed hop with all its failed keywords, grouped per hop so that three missing years of one hop do not
 * push a later hop (or the end of the line) out of the markdown report's reason.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildReport, failureReason, renderReport } from '../../../src/core/report/index.js';
import { createVerifyContext, verify } from '../../../src/core/verify/verify.js';
import { data, kw, question, spec } from '../../fixtures/verify/world.js';

const q = question(
    'Did the city where the club of H. Lloris is located host the Summer Olympics?',
    [
        [kw('Club', 'name', 'Tottenham Hotspur')],
        [kw('City', 'name', 'London')],
        [kw('City', 'host_years', '2012'), kw('City', 'host_years', '1948'), kw('City', 'host_years', '1908')],
    ],
    { kind: 'path', probe: 'club_city_olympics' },
);
const answer = { questionId: q.id, model: 'gpt', sample: 0, text: 'Yes. I believe the name is Liverpool.' };
const run = {
    id: 'run-1',
    spec: 'world.probe',
    suite: 's',
    started: '2026-11-21T00:00:00Z',
    finished: null,
    status: 'completed',
};
const d = buildReport({
    run,
    questions: [q],
    answers: [answer],
    verdicts: [verify(q, answer.text, createVerifyContext(spec, data), 'gpt', 0)],
});

describe('the reason of a failed multi-hop question', () => {
    it('names every failed hop once, with all of its failed keywords', () => {
        const why = failureReason(d.rows[0]!);
        assert.equal(why, 'hop 1: "Tottenham Hotspur" missing; hop 2: "London" missing; hop 3: "2012", "1948", "1908" missing');
    });

    it('the markdown report shows the whole reason, not cut', () => {
        const md = renderReport(d, 'md');
        assert.ok(
            md.includes(
                '  - hop 1: "Tottenham Hotspur" missing; hop 2: "London" missing; hop 3: "2012", "1948", "1908" missing\n',
            ),
            md,
        );
    });
});
