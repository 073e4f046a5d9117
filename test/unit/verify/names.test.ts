/**
 * Issue 41, cause 5 (names): a full name matches a keyword written as initial + surname when the initial and the
 * surname agree ("Jesse Lingard" for "J. Lingard"); a surname inside another person's full name still never
 * counts ("LeBron James" is not James Cameron). With the ERBench Soccer preset (../shared data): its questions'
 * keywords are written initial + surname, and an answer giving the player's full name states the keyword.
 */
import { describe, it, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { createVerifyContext, verify } from '../../../src/core/verify/verify.js';
import { data, kw, question, spec } from '../../fixtures/verify/world.js';
import { loadCheckedSpec, loadRunData } from '../../../src/core/run/spec-run.js';
import { generateQuestions } from '../../../src/core/probes/index.js';
import { sharedMissing, sharedPath } from '../../support/shared.js';

const ctx = createVerifyContext(spec, data);
const status = (response: string, value: string) =>
    verify(question('Was the director of Avatar born in the 1950s?', [[kw('Director', 'name', value)]]), response, ctx, 'm')
        .hops[0]!.keywords[0]!;

describe('issue 41 cause 5: names', () => {
    it('a full name matches a keyword written as initial + surname when both agree', () => {
        const k = status('Yes. James Cameron was born in 1954.', 'J. Cameron');
        assert.equal(k.status, 'found');
        assert.equal(k.rule, 'name_parts');
    });

    it('a middle name between agrees too ("James Francis Cameron")', () => {
        assert.equal(status('Yes. James Francis Cameron was born in 1954.', 'James Cameron').status, 'found');
    });

    it("another initial, or a surname inside another person's name, does not", () => {
        assert.equal(status('Yes. Kirk Cameron was born in 1970.', 'J. Cameron').status, 'missing');
        assert.equal(status('Yes. LeBron James was born in 1984.', 'James Cameron').status, 'missing');
    });

    it("a surname alone matches as the authors' name rule does", () => {
        assert.equal(status('Yes. Cameron was born in 1954.', 'J. Cameron').status, 'found');
    });

    it('ERBench Soccer preset: an answer giving the full name states the initial + surname keyword', async (t: TestContext) => {
        const file = path.resolve(import.meta.dirname, '../../../examples/erbench/soccer.probe');
        const missing = sharedMissing(sharedPath('data', 'erbench', 'soccer.csv'));
        if (missing) {
            t.skip(missing);
            return;
        }
        const s = await loadCheckedSpec(file);
        const { data: d } = await loadRunData(s);
        const qs = [...generateQuestions(s, d, { probe: 'soccer_binary' }).questions].filter(q => q.phrasing === 'basic');
        const q = qs.find(x => /^[A-Z]\. [A-Z][a-z]{3,}$/.test(x.keywords[0]![0]!.value));
        assert.ok(q, 'a question whose keyword is initial + surname');
        const value = q.keywords[0]![0]!.value;
        const surname = value.slice(3);
        const first = `${value[0]}${'ordan'}`; // a first name with the keyword's initial
        const c = createVerifyContext(s, d);
        const v = verify(q, `Yes, ${first} ${surname} played for them in 2019.`, c, 'm');
        assert.equal(v.hops[0]!.keywords[0]!.status, 'found', `${first} ${surname} for "${value}"`);
        const other = verify(q, `Yes, ${value[0] === 'Z' ? 'Y' : 'Z'}ed ${surname} played for them in 2019.`, c, 'm');
        assert.equal(other.hops[0]!.keywords[0]!.status, 'missing', 'another initial is another player');
    });
});
