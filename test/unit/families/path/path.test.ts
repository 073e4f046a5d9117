import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { generateQuestions } from '../../../../src/core/probes/index.js';
import { movieWorld, world } from '../../../fixtures/probes/world.js';
import { OLYMPICS_FILES, OLYMPICS_SPEC } from '../../../fixtures/probes/olympics.js';

describe('path probes', () => {
    it('hide the FK value and give one keyword set per hop (2 hops)', async t => {
        const w = await movieWorld();
        t.after(w.dispose);
        const qs = [...generateQuestions(w.model, w.data, { probe: 'director_decade' }).questions];
        assert.equal(qs.length, 12);
        const [basic, negated] = qs;
        assert.equal(
            basic!.question,
            'Was the director who directed the movie titled Avatar that was released in 2009 born in the 1950s?',
        );
        assert.equal(negated!.gold, 'no');
        assert.ok(!basic!.question.includes('Cameron'), 'the hidden hop is not stated');
        assert.deepEqual(basic!.keywords, [
            [{ relation: 'Director', attribute: 'name', value: 'James Cameron' }],
            [{ relation: 'Director', attribute: 'birth_year', value: '1954' }],
        ]);
        assert.equal(basic!.kind, 'path');
        assert.deepEqual(
            basic!.source.rows.map(r => r.relation),
            ['Movie', 'Director'],
        );
        // Graph: Movie(Avatar, 2009) -director-> Director(James Cameron) -birth_year-> 1954.
        const hopEdges = basic!.path.edges.filter(e => e.hop > 0);
        assert.deepEqual(
            hopEdges.map(e => [e.label, e.hop]),
            [
                ['director', 1],
                ['birth_year', 2],
            ],
        );
        assert.deepEqual(
            basic!.path.nodes.filter(n => !n.given).map(n => n.label),
            ['James Cameron', '1954'],
        );
    });

    it('take gold from the data and keep every list value as a keyword (3 hops); dangling FKs are skipped and counted', async t => {
        const w = await world(OLYMPICS_SPEC, OLYMPICS_FILES);
        t.after(w.dispose);
        const g = generateQuestions(w.model, w.data, { probe: 'olympics' });
        const qs = [...g.questions];
        assert.equal(g.stats.skippedDangling, 1, 'Ghost FC is not a club');
        assert.equal(qs.length, 8);
        const messi = qs.filter(q => q.entity.key[0] === 'L. Messi');
        assert.deepEqual(
            messi.map(q => q.gold),
            ['yes', 'no'],
        );
        assert.deepEqual(
            messi[0]!.keywords.map(h => h.map(k => k.value)),
            [['FC Barcelona'], ['barcelona'], ['1992']],
        );
        const ronaldo = qs.filter(q => q.entity.key[0] === 'Cristiano Ronaldo');
        assert.deepEqual(
            ronaldo.map(q => q.gold),
            ['no', 'yes'],
            'Turin never hosted',
        );
        // Turin has no host years: its path has two hops (club, city), no empty third keyword set.
        assert.equal(ronaldo[0]!.keywords.length, 2);
        const neymar = qs.find(q => q.entity.key[0] === 'Neymar Jr')!;
        assert.deepEqual(
            neymar.keywords[2]!.map(k => k.value),
            ['1924', '1900'],
        );
        assert.equal(neymar.source.rows.length, 3);
        assert.equal(neymar.path.edges.filter(e => e.hop > 0).length, 3);
    });

    it('skips rows whose join is ambiguous (the target key repeats) as violating', async t => {
        const files = { ...OLYMPICS_FILES, 'clubs.csv': `${OLYMPICS_FILES['clubs.csv']}\nJuventus,milan` };
        const w = await world(OLYMPICS_SPEC, files);
        t.after(w.dispose);
        const g = generateQuestions(w.model, w.data, { probe: 'olympics' });
        const qs = [...g.questions];
        assert.equal(g.stats.skippedViolating, 1);
        assert.ok(!qs.some(q => q.entity.key[0] === 'Cristiano Ronaldo'));
    });
});
