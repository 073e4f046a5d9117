// Issue 27 item 13: figures that do not apply are reported as such by the engine (R / AR / contradicted are null
// for probes without keywords, e.g. statements) and shown "n/a" in md, csv and html, null in JSON (named in the group's
// `notApplicable`, issue 36 item 12); the ERBench table's
// contradiction share is not called "C", which statements use for correctness.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { generateQuestions } from '../../../src/core/probes/index.js';
import { createVerifyContext, verify } from '../../../src/core/verify/verify.js';
import { computeMetrics } from '../../../src/core/verify/metrics.js';
import { buildReport, renderReport } from '../../../src/core/report/index.js';
import { loadSpec } from '../../../src/core/spec/load.js';
import { loadData } from '../../../src/core/data/index.js';

describe('figures that do not apply', () => {
    it('are null in the engine and in JSON, "n/a" in md, csv and html for statement probes', async () => {
        const { model } = await loadSpec(path.resolve('examples/statements/statements.probe'));
        const data = await loadData(model);
        const questions = [...generateQuestions(model, data, { probe: 'director_born' }).questions];
        const ctx = createVerifyContext(model, data);
        const answers = questions.map(q => ({
            questionId: q.id,
            model: 'm',
            sample: 0,
            text: q.gold === 'yes' ? 'Yes, the statement is true.' : 'No, the statement is false.',
        }));
        const verdicts = questions.map(q => verify(q, answers.find(a => a.questionId === q.id)!.text, ctx, 'm'));
        const g = computeMetrics(questions, verdicts).find(x => x.kind === 'statement' && x.mode === 'all')!;
        assert.equal(g.A, 1);
        assert.deepEqual([g.R, g.AR, g.C], [null, null, null], 'no keywords: R, AR and contradicted do not apply');
        const d = buildReport({
            run: { id: 'r', spec: 's', suite: 'x', started: '', finished: null, status: 'completed' },
            questions,
            answers,
            verdicts,
        });
        const md = renderReport(d, 'md');
        assert.match(md, /\| A \| R \| AR \| M \| H \| contradicted \|/);
        assert.match(md, /\| 1\.00 \[[^\]]*\] \| n\/a \| n\/a \| 0\.00 \[[^\]]*\] \| 0\.00 \[[^\]]*\] \| n\/a \|/);
        const json = JSON.parse(renderReport(d, 'json')) as { groups: Record<string, unknown>[] };
        const jg = json.groups.find(x => x.kind === 'statement' && x.mode === 'all')!;
        // JSON writes a figure that does not apply as null — one way in every group (issue 36 item 12), numbers or null —
        // and names those figures in `notApplicable`, so a reader tells "does not apply" from "no data".
        assert.equal(jg.R, null);
        assert.equal(jg.AR, null);
        assert.equal(jg.contradicted, null);
        assert.deepEqual(jg.notApplicable, ['R', 'AR', 'contradicted']);
        assert.doesNotMatch(renderReport(d, 'json'), /"n\/a"/, 'no figure is the string "n/a" in JSON');
        assert.equal(jg.C, undefined, "no bare C beside the statements' correctness");
        const csv = renderReport(d, 'csv').split('\n');
        const cols = csv[0]!.split(',');
        assert.ok(cols.includes('contradicted') && !cols.includes('C'));
        const row = csv.find(l => l.includes(',statement,') && l.includes(',all,'))!.split(',');
        assert.equal(row[cols.indexOf('R')], 'n/a');
        assert.equal(row[cols.indexOf('AR')], 'n/a');
        assert.equal(row[cols.indexOf('contradicted')], 'n/a');
        assert.match(renderReport(d, 'html'), /<th>contradicted<\/th>/);
    });
});
