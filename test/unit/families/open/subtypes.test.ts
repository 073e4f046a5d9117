// OKGQA's question sub-types (issue 24 item 10): ten templates in five groups (descriptive, explanatory, predictive,
// comparative, critical), each for one entity and for a pair; `preset` takes a group (its first sub-type) or a
// sub-type.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { readFileSync } from 'node:fs';
import { generateQuestions } from '../../../../src/core/probes/generate.js';
import { OPEN_GROUPS, OPEN_SUBTYPES } from '../../../../src/core/families/open/family.js';
import { world } from '../../../fixtures/probes/world.js';

const fixtureDir = path.resolve('test/fixtures/open');
const SPEC = readFileSync(path.join(fixtureDir, 'open.probe'), 'utf8')
    .split('\nprobe ')[0]!
    .replace('"../probes/movies.csv"', '"movies.csv"');
const MOVIES = readFileSync(path.resolve('test/fixtures/probes/movies.csv'), 'utf8');

describe('open question sub-types', () => {
    it('ten sub-types, two in each of the five groups, each with an entity and a pair template', () => {
        assert.deepEqual(Object.keys(OPEN_GROUPS), ['descriptive', 'explanatory', 'predictive', 'comparative', 'critical']);
        assert.equal(Object.keys(OPEN_SUBTYPES).length, 10);
        for (const [group, subtypes] of Object.entries(OPEN_GROUPS)) {
            assert.equal(subtypes.length, 2, group);
            for (const s of subtypes) {
                assert.equal(OPEN_SUBTYPES[s]!.group, group);
                assert.match(OPEN_SUBTYPES[s]!.single, /\{a\}/);
                assert.match(OPEN_SUBTYPES[s]!.pair, /\{a\}.*\{b\}|\{b\}.*\{a\}/);
            }
        }
    });

    it('preset names a sub-type or a group; the question is its template filled in', async () => {
        const w = await world(
            `${SPEC}
probe why open about Movie with Director { preset causal  perturb [] }
probe what_if open about Movie { preset hypothetical  perturb []  baseline false }
probe grouped open about Movie with Director { preset explanatory  perturb [] }
probe wrong open about Movie { preset causl }
`,
            { 'movies.csv': MOVIES },
        );
        try {
            const ask = (probe: string) =>
                [...generateQuestions(w.model, w.data, { probe }).questions]
                    .find(q => q.entity.key[0] === 'Avatar')!
                    .question.split('\n')[0];
            assert.equal(ask('why'), 'Explain how Avatar came to be connected with James Cameron.');
            assert.equal(ask('what_if'), 'What would be different if Avatar did not exist?');
            assert.equal(ask('grouped'), 'Explain the relationship between Avatar and James Cameron and its significance.');
            const bad = generateQuestions(w.model, w.data, { probe: 'wrong' })
                .diagnostics.map(d => d.message)
                .join('\n');
            assert.match(bad, /Unknown preset 'causl'.*causal/);
        } finally {
            w.dispose();
        }
    });
});
