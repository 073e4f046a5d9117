import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { generateQuestions, hashSeed, prng, questionId, rowOrder } from '../../../src/core/probes/index.js';
import { movieWorld } from '../../fixtures/probes/world.js';

describe('sampling and stable ids', () => {
    it('draws the same numbers on every machine for a seed', () => {
        const r = prng(42);
        // Pinned: a change of the generator changes every sample, so it must show here.
        assert.deepEqual(
            [r(), r(), r()].map(x => x.toFixed(8)),
            ['0.60110375', '0.44829056', '0.85246579'],
        );
        assert.equal(hashSeed('movie_binary'), hashSeed('movie_binary'));
        assert.notEqual(hashSeed('a', 1), hashSeed('a', 2));
        const order = [...rowOrder(10, { mode: 'random', seed: 3 })];
        assert.deepEqual(
            [...order].sort((a, b) => a - b),
            [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
            'a permutation',
        );
        assert.deepEqual([...rowOrder(4, { mode: 'first' })], [0, 1, 2, 3]);
    });

    it('pins question ids: a hash of probe, kind, template, key, variant and phrasing', async t => {
        assert.equal(
            questionId({ probe: 'p', kind: 'binary', template: 'Is {x}?', key: ['1'], variant: 'zero_shot', phrasing: 'basic' }),
            '9504c9775ba4280c',
        );
        const w = await movieWorld();
        t.after(w.dispose);
        const ids = [...generateQuestions(w.model, w.data, { probe: 'movie_binary', limit: 3 }).questions].map(q => q.id);
        assert.deepEqual(ids, ['a67f81fe594bfde2', '67e50410cc877a6d', '517f0c995c90b9e8']);
    });

    it('keeps ids when the spec file moves things around (ids do not hash positions)', async t => {
        const a = await movieWorld();
        const b = await movieWorld('\n\n// a comment that shifts nothing but lines\n');
        t.after(() => {
            a.dispose();
            b.dispose();
        });
        const ids = (w: typeof a) => [...generateQuestions(w.model, w.data, { probe: 'movie_binary' }).questions].map(q => q.id);
        assert.deepEqual(ids(a), ids(b));
    });

    it('same seed → same questions; first N, random N and quotas take eligible rows', async t => {
        const w = await movieWorld(`
suite first2 { probes movie_binary, director_decade  sample first 2 }
suite random3 { probes movie_binary  sample random 3 seed 11 }
suite quota { probes movie_binary, director_decade  sample all  quota director_decade 1 }`);
        t.after(w.dispose);
        const run = (o: Parameters<typeof generateQuestions>[2]) => [...generateQuestions(w.model, w.data, o).questions];
        const first = run({ suite: 'first2' });
        assert.equal(first.length, 2 * 3 + 2 * 2);
        assert.deepEqual([...new Set(first.map(q => q.entity.key[0]))], ['Avatar', 'Spectre']);
        const r1 = run({ suite: 'random3' }).map(q => q.id);
        assert.deepEqual(
            r1,
            run({ suite: 'random3' }).map(q => q.id),
        );
        assert.equal(r1.length, 9);
        assert.notDeepEqual(
            run({ suite: 'random3', seed: 12 }).map(q => q.id),
            r1,
        );
        const quota = run({ suite: 'quota' });
        assert.equal(quota.filter(q => q.probe === 'director_decade').length, 2);
        assert.equal(quota.filter(q => q.probe === 'movie_binary').length, 18);
        assert.equal(run({ probe: 'movie_binary', limit: 4 }).length, 4);
        const capped = await movieWorld('probe capped binary using movie_title {\n    limit 2\n}');
        t.after(capped.dispose);
        assert.equal(
            [...generateQuestions(capped.model, capped.data, { probe: 'capped' }).questions].length,
            2 * 2,
            'a probe setting limit caps its rows',
        );
    });
});
