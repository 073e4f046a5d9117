import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { generateQuestions } from '../../../src/core/probes/index.js';
import { movieWorld, MOVIES_CSV } from '../../fixtures/probes/world.js';

// One row with an empty star, and two rows that agree on (director, star, year) but not on the title.
const MESSY = `${MOVIES_CSV}
Aliens,1986,James Cameron,,1954,137,Marines meet aliens.
Heat,1995,Michael Mann,Al Pacino,1943,170,A heist.
Heat 2,1995,Michael Mann,Al Pacino,1943,170,Not a real sequel.
`;

describe('skip rules', () => {
    it('skip and count rows with nulls the templates or keywords need, and rows in FD-violating groups', async t => {
        const w = await movieWorld('', MESSY);
        t.after(w.dispose);
        const g = generateQuestions(w.model, w.data, { probe: 'movie_binary' });
        const qs = [...g.questions];
        assert.equal(g.stats.skippedNull, 1);
        assert.equal(g.stats.skippedViolating, 2);
        assert.equal(g.stats.generated, 6 * 3);
        assert.deepEqual(g.stats.byProbe.movie_binary, {
            rows: 9,
            generated: 18,
            skippedNull: 1,
            skippedViolating: 2,
            skippedDangling: 0,
            skippedCycle: 0,
            skippedInvalid: 0,
        });
        assert.ok(!qs.some(q => /Aliens|Heat/.test(q.keywords[0]![0]!.value)));
        // The path probe does not need the star: Aliens is asked there.
        const path = [...generateQuestions(w.model, w.data, { probe: 'director_decade' }).questions];
        assert.ok(path.some(q => q.entity.key[0] === 'Aliens'));
    });

    it('give each knowledge probe question one entity: a repeated key is skipped as the same entity', async t => {
        const w = await movieWorld('', `${MOVIES_CSV}\nAvatar,2009,James Cameron,Sam Worthington,1954,162,Again.\n`);
        t.after(w.dispose);
        const g = generateQuestions(w.model, w.data, { probe: 'know_movie' });
        const qs = [...g.questions];
        assert.equal(qs.length, 6);
        assert.equal(g.stats.skippedViolating, 1);
        assert.equal(
            qs[0]!.question,
            'Do you know about the movie Avatar released in 2009? If yes, is the movie directed by James Cameron?',
        );
        assert.equal(qs[0]!.gold, 'yes');
        // Binary questions of the repeated key still get distinct ids.
        const binary = [...generateQuestions(w.model, w.data, { probe: 'movie_binary' }).questions];
        assert.equal(binary.length, 21);
        assert.equal(new Set(binary.map(q => q.id)).size, 21);
    });
});
