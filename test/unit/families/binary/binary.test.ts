import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { generateQuestions, SYSTEM_BINARY } from '../../../../src/core/probes/index.js';
import { movieWorld } from '../../../fixtures/probes/world.js';

describe('binary probes', () => {
    it('ask basic (yes), negated (no) and user phrasings with the FD right-hand side as keyword', async t => {
        const w = await movieWorld();
        t.after(w.dispose);
        const qs = [...generateQuestions(w.model, w.data, { probe: 'movie_binary' }).questions];
        assert.equal(qs.length, 6 * 3);
        const [basic, negated, isThere] = qs;
        assert.equal(
            basic!.question,
            'Is there a movie, released in 2009, starring CCH Pounder where James Cameron is the director?',
        );
        assert.equal(basic!.gold, 'yes');
        assert.equal(
            negated!.question,
            'Is it true that there are no movies, released in 2009, starring CCH Pounder where James Cameron is the director?',
        );
        assert.equal(negated!.gold, 'no');
        assert.equal(isThere!.phrasing, 'is_there');
        assert.equal(isThere!.gold, 'yes');
        // Negating the phrasing keeps the keyword: the rationale must still name the movie.
        for (const q of [basic!, negated!, isThere!])
            assert.deepEqual(q.keywords, [[{ relation: 'Movie', attribute: 'title', value: 'Avatar' }]]);
        assert.deepEqual(basic!.messages, [
            { role: 'system', content: SYSTEM_BINARY },
            { role: 'user', content: basic!.question },
        ]);
        assert.deepEqual(basic!.entity, { relation: 'Movie', key: ['Avatar', '2009'] });
        assert.equal(basic!.source.rows[0]!.line, 2);
        assert.equal(qs[3]!.source.rows[0]!.line, 3);
        assert.match(basic!.source.rows[0]!.file, /movies\.csv$/);
        assert.equal(basic!.source.constraints.length, 1);
        assert.equal(
            basic!.source.constraints[0]!.range.start.line,
            w.model.fds.find(f => f.id === 'movie_title')!.loc.range.start.line,
        );
        // The graph: the entity, its given LHS values and the asked RHS value.
        const asked = basic!.path.nodes.filter(n => !n.given);
        assert.deepEqual(
            asked.map(n => n.label),
            ['Avatar'],
        );
        assert.equal(basic!.path.edges.length, 4);
    });

    it('evaluates `when` predicates on the row (thresholds, buckets)', async t => {
        const w = await movieWorld(`
probe long binary using movie_title {
    phrasing longer when "length > 150" "Is {title} longer than 150 minutes?"
    phrasing shorter_by when "length - 20 < 140" "Is {title} shorter than {length - 20 + 20} minutes minus 20?"
    phrasing decade when "decade(year) == 2010" "Was {title} released in the 2010s?"
}`);
        t.after(w.dispose);
        const qs = [...generateQuestions(w.model, w.data, { probe: 'long' }).questions];
        const gold = (phrasing: string, title: string) =>
            qs.find(q => q.phrasing === phrasing && q.question.includes(title))!.gold;
        assert.equal(gold('longer', 'Avatar'), 'yes'); // 162 min
        assert.equal(gold('longer', 'Spectre'), 'no'); // 148 min
        assert.equal(gold('shorter_by', 'Dunkirk'), 'yes'); // 106 - 20 < 140
        assert.equal(gold('decade', 'Skyfall'), 'yes');
        assert.equal(gold('decade', 'Titanic'), 'no');
        assert.ok(qs.some(q => q.question === 'Is Avatar shorter than 162 minutes minus 20?'));
    });

    it('writes ERBench-style phrasings from the labels when the probe has none', async t => {
        const w = await movieWorld('probe plain binary using director_birth {}');
        t.after(w.dispose);
        const qs = [...generateQuestions(w.model, w.data, { probe: 'plain' }).questions];
        assert.equal(qs[0]!.question, 'Is there a director whose name is James Cameron?');
        assert.equal(qs[1]!.question, 'Is it true that there is no director whose name is James Cameron?');
        assert.deepEqual(qs[0]!.keywords, [[{ relation: 'Director', attribute: 'birth_year', value: '1954' }]]);
    });
});
