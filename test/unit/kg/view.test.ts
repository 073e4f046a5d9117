import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { entityNeighbourhood, schemaGraph } from '../../../src/core/kg/view.js';
import { movieWorld } from '../../fixtures/probes/world.js';

describe('knowledge-graph views', () => {
    it('draws the schema: relations, attributes, keys, FDs between attributes, FKs between relations, row counts', async t => {
        const w = await movieWorld();
        t.after(w.dispose);
        const g = schemaGraph(w.model, 'movie.probe', w.data);
        const movie = g.relations.find(r => r.name === 'Movie')!;
        assert.equal(movie.label, 'movie');
        assert.ok(g.relations.find(r => r.name === 'Director')!.attributes.includes('birth_year'));
        assert.ok(
            g.relations
                .find(r => r.name === 'Director')!
                .fds.some(f => f.id === 'director_birth' && f.lhs.includes('name') && f.rhs.includes('birth_year')),
        );
        assert.ok(g.fks.some(fk => fk.from === 'Movie' && fk.to === 'Director' && fk.id === 'directed_by'));
        assert.deepEqual(movie.keys, [['title', 'year']]);
        assert.equal(movie.rows, w.data.tables.get('Movie')!.rowCount);
    });

    it("expands an entity's neighbourhood from the data, both FK directions", async t => {
        const w = await movieWorld();
        t.after(w.dispose);
        const director = entityNeighbourhood(w.model, w.data, 'Director', ['James Cameron'])!;
        const movies = director.edges
            .filter(e => e.label === 'directed_by')
            .map(e => e.from)
            .sort();
        assert.deepEqual(movies, ['Movie(Avatar, 2009)', 'Movie(Titanic, 1997)']);
        assert.ok(director.nodes.some(n => n.id === 'Director.birth_year=1954'));
        const movie = entityNeighbourhood(w.model, w.data, 'Movie', ['Avatar', '2009'])!;
        assert.ok(movie.edges.some(e => e.from === 'Movie(Avatar, 2009)' && e.to === 'Director(James Cameron)'));
        assert.equal(entityNeighbourhood(w.model, w.data, 'Movie', ['Nope', '1']), undefined);
    });
});
