// Issue 36 item 11: the rules example's players are `as of 2019`; a rule question resting on them is asked in that time
// ("In 2019, is it true that …"), carries the date for verification, and one resting on undated data only is not dated.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { generateQuestions } from '../../../../src/core/probes/index.js';
import { loadSpec } from '../../../../src/core/spec/load.js';
import { loadData } from '../../../../src/core/data/index.js';

describe('rule questions over dated data', () => {
    it("are asked as of the data's date; questions over undated data are not", async () => {
        const { model } = await loadSpec(path.resolve('examples/rules/rules.probe'));
        const data = await loadData(model);
        const teammates = [...generateQuestions(model, data, { probe: 'teammates' }).questions];
        assert.ok(teammates.length > 0);
        for (const q of teammates) {
            assert.match(q.question, /^In 2019, /, q.question);
            assert.equal(q.asOf?.year, 2019);
        }
        const regions = [...generateQuestions(model, data, { probe: 'regions' }).questions];
        assert.ok(regions.length > 0);
        for (const q of regions) {
            assert.doesNotMatch(q.question, /2019/, q.question);
            assert.equal(q.asOf, undefined);
        }
    });
});
