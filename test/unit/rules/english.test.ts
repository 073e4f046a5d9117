// Issue 27 item 15: rule questions in plain English — "have totally different clubs" (agreement), and the
// polarity twin of a negative phrase states the positive fact instead of "It is not true that … does not …".
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ruleTemplates } from '../../../src/core/families/rule/questions.js';
import type { ProbeDecl } from '../../../src/core/spec/model.js';
import type { PredicateInfo } from '../../../src/core/rules/translate.js';

const probe = (settings: Record<string, string>): ProbeDecl => ({ name: 'p', kind: 'rule', phrasings: [], stems: [], options: [], asks: [], settings, loc: { file: 'x', range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } } } } as unknown as ProbeDecl);
const info = (phrase?: string): PredicateInfo => ({ name: 'r', kind: 'rule', params: [{ name: 'p', type: 'Player' }, { name: 'k', type: 'Club' }], ...(phrase ? { phrase } : {}) });

describe('rule questions in plain English', () => {
    it('a shared noun agrees in number: "share the same club" but "have totally different clubs"', () => {
        const t = ruleTemplates(probe({ noun: 'club' }), info()) as { text: string; gold: string }[];
        assert.equal(t[1]!.text, '{p} and {k} have totally different clubs. Please judge the truth of this statement.');
        const city = ruleTemplates(probe({ noun: 'city' }), info()) as { text: string }[];
        assert.match(city[1]!.text, /totally different cities\./);
    });

    it('the twin of a negative phrase states the positive fact, with no double negation', () => {
        const t = ruleTemplates(probe({}), info('{p} does not play for {k}')) as { text: string; gold: string }[];
        assert.equal(t[0]!.text, 'Is it true that {fact}?');
        assert.equal(t[1]!.gold, 'no');
        assert.doesNotMatch(t[1]!.text, /not true that .*not/);
        assert.equal(t[1]!.text, '{p} plays for {k}. Please judge the truth of this statement.');
        const is = ruleTemplates(probe({}), info('{p} is not based in {k}')) as { text: string }[];
        assert.equal(is[1]!.text, '{p} is based in {k}. Please judge the truth of this statement.');
    });
});
