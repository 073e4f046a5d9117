import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { AUGMENT_HINT, generateQuestions, SYSTEM_BINARY, SYSTEM_KNOWS } from '../../../src/core/probes/index.js';
import { movieWorld } from '../../fixtures/probes/world.js';

const SUITES = `
suite few { probes movie_binary  variant few_shot(4) }
suite cot { probes director_decade  variant cot }
suite aug { probes movie_binary  variant augment from Movie.plot }
suite both { probes movie_binary  variant zero_shot  variant few_shot(2) }
`;

describe('prompt variants', () => {
    it('few_shot(n): n demonstrations from other rows as prior turns, balanced yes / no', async t => {
        const w = await movieWorld(SUITES);
        t.after(w.dispose);
        const qs = [...generateQuestions(w.model, w.data, { suite: 'few' }).questions];
        assert.equal(qs.length, 18);
        for (const q of qs) {
            assert.equal(q.variant, 'few_shot');
            const m = q.messages;
            assert.equal(m.length, 1 + 4 * 2 + 1);
            assert.equal(m[0]!.content, SYSTEM_BINARY);
            assert.deepEqual(
                m.slice(1, 9).map(x => x.role),
                ['user', 'assistant', 'user', 'assistant', 'user', 'assistant', 'user', 'assistant'],
            );
            const answers = m.filter(x => x.role === 'assistant').map(x => x.content.split('.')[0]);
            assert.equal(answers.filter(a => a === 'Yes').length, 2);
            assert.equal(answers.filter(a => a === 'No').length, 2);
            // Never the question's own row: its movie's details do not appear in any demonstration.
            const star = q.question.match(/starring (.+) where/)![1]!;
            const year = q.question.match(/released in (\d+)/)![1]!;
            for (const d of m.slice(1, -1).filter(x => x.role === 'user'))
                assert.ok(!(d.content.includes(star) && d.content.includes(year)), `own row used as a demo for ${q.question}`);
            assert.deepEqual(m[m.length - 1], { role: 'user', content: q.question });
        }
        const demo = qs[0]!.messages[2]!.content;
        assert.match(demo, /^(Yes|No)\. The title is .+\.$/);
    });

    it('cot: demonstrations reason hop by hop and end with "The answer is yes/no."', async t => {
        const w = await movieWorld(SUITES);
        t.after(w.dispose);
        const q = [...generateQuestions(w.model, w.data, { suite: 'cot' }).questions][0]!;
        assert.equal(q.variant, 'cot');
        const answers = q.messages.filter(m => m.role === 'assistant').map(m => m.content);
        assert.equal(answers.length, 2);
        for (const a of answers) assert.match(a, /^The director is .+\. The birth year is \d+\. The answer is (yes|no)\.$/);
        assert.ok(answers.some(a => a.endsWith('yes.')) && answers.some(a => a.endsWith('no.')));
    });

    it('augment: the passage from the text column after the paper hint; rows without one are skipped', async t => {
        const w = await movieWorld(SUITES);
        t.after(w.dispose);
        const g = generateQuestions(w.model, w.data, { suite: 'aug' });
        const qs = [...g.questions];
        assert.equal(g.stats.skippedNull, 1, 'Dunkirk has no plot');
        assert.equal(qs.length, 15);
        assert.equal(qs[0]!.messages[1]!.content, `${AUGMENT_HINT}\n\nHumans colonise Pandora.\n\n${qs[0]!.question}`);
    });

    it('several variants give one question each, with distinct ids', async t => {
        const w = await movieWorld(SUITES);
        t.after(w.dispose);
        const qs = [...generateQuestions(w.model, w.data, { suite: 'both' }).questions];
        assert.equal(qs.length, 36);
        assert.equal(new Set(qs.map(q => q.id)).size, 36);
        const knows = [...generateQuestions(w.model, w.data, { probe: 'know_movie' }).questions];
        assert.equal(knows[0]!.messages[0]!.content, SYSTEM_KNOWS);
    });
});
