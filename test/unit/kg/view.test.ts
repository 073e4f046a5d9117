import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { entityNeighbourhood, schemaGraph } from '../../../src/core/kg/view.js';
import { movieWorld } from '../../fixtures/probes/world.js';

describe('knowledge-graph views', () => {
    it('draws the schema: relations, attributes, FD edges between attributes, FK edges between relations', async t => {
        const w = await movieWorld();
        t.after(w.dispose);
        const g = schemaGraph(w.model);
        assert.ok(g.nodes.some(n => n.id === 'Movie' && n.kind === 'entity' && n.label === 'movie'));
        assert.ok(g.nodes.some(n => n.id === 'Director.birth_year' && n.kind === 'value'));
        assert.ok(g.edges.some(e => e.from === 'Director.name' && e.to === 'Director.birth_year' && e.label === 'director_birth'));
        assert.ok(g.edges.some(e => e.from === 'Movie' && e.to === 'Director' && e.label === 'directed_by'));
        assert.deepEqual(g.edges.filter(e => e.from === 'Movie' && e.label === 'key').map(e => e.to), ['Movie.title', 'Movie.year']);
    });

    it("expands an entity's neighbourhood from the data, both FK directions", async t => {
        const w = await movieWorld();
        t.after(w.dispose);
        const director = entityNeighbourhood(w.model, w.data, 'Director', ['James Cameron'])!;
        const movies = director.edges.filter(e => e.label === 'directed_by').map(e => e.from).sort();
        assert.deepEqual(movies, ['Movie(Avatar, 2009)', 'Movie(Titanic, 1997)']);
        assert.ok(director.nodes.some(n => n.id === 'Director.birth_year=1954'));
        const movie = entityNeighbourhood(w.model, w.data, 'Movie', ['Avatar', '2009'])!;
        assert.ok(movie.edges.some(e => e.from === 'Movie(Avatar, 2009)' && e.to === 'Director(James Cameron)'));
        assert.equal(entityNeighbourhood(w.model, w.data, 'Movie', ['Nope', '1']), undefined);
    });
});
