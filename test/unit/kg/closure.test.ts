import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { loadSpec } from '../../../src/core/spec/load.js';
import { fdClosure, fdClosureSteps } from '../../../src/core/kg/closure.js';

const fixture = path.resolve('test/fixtures/probes/movie.probe');

describe('fdClosure', () => {
    it('closes title, year -> director over the FK to Director.birth_year', async () => {
        const { model, diagnostics } = await loadSpec(fixture);
        assert.deepEqual(
            diagnostics.filter(d => d.severity === 'error'),
            [],
        );
        const names = fdClosure(model, 'movie_director').map(r => `${r.relation}.${r.attribute}`);
        assert.ok(names.includes('Movie.director'));
        assert.ok(names.includes('Director.name'));
        assert.ok(names.includes('Director.birth_year'));
        // The key (title, year) determines every Movie attribute; the LHS itself is not repeated.
        assert.ok(names.includes('Movie.star'));
        assert.ok(!names.includes('Movie.title'));
        const birth = fdClosureSteps(model, 'movie_director').find(s => s.attribute.attribute === 'birth_year')!;
        assert.deepEqual(birth.via, { kind: 'fd', id: 'director_birth' });
    });

    it('does not follow an FK whose attributes are not determined', async () => {
        const { model } = await loadSpec(fixture);
        // director, star, year -> title: title+year is then a key, so everything follows, including the FK.
        assert.ok(fdClosure(model, 'movie_title').some(r => r.relation === 'Director'));
        // name -> birth_year stays inside Director (no FK leaves Director).
        assert.deepEqual(
            fdClosure(model, 'director_birth').map(r => r.attribute),
            ['birth_year'],
        );
        assert.deepEqual(fdClosure(model, 'no_such_fd'), []);
    });
});
