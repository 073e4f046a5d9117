import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { loadSpec } from '../../../src/core/spec/load.js';
import { loadData } from '../../../src/core/data/index.js';
import { nodeNeighbourhood } from '../../../src/core/kg/view.js';
import { world } from '../../fixtures/probes/world.js';

const spec = fileURLToPath(new URL('../../../examples/movie/movie.probe', import.meta.url));

describe('graph expansion (the graph panel asks kg/view)', () => {
    it('expanding graph nodes finds the data with the same ids and labels the question paths use', async () => {
        const { model } = await loadSpec(spec);
        const data = await loadData(model);
        const director = nodeNeighbourhood(
            model,
            data,
            { nodeId: 'Movie.director=James Cameron', relation: 'Movie', label: 'James Cameron' },
            10,
        );
        assert.ok(
            director.nodes.some(n => n.id === 'Movie(Avatar, 2009)'),
            JSON.stringify(director.nodes),
        );
        const avatar = nodeNeighbourhood(
            model,
            data,
            { nodeId: 'Movie(Avatar, 2009)', relation: 'Movie', label: 'Avatar, 2009' },
            10,
        );
        const values = avatar.nodes.filter(n => n.kind === 'value').map(n => n.id);
        assert.deepEqual(values, ['Movie.director=James Cameron', 'Movie.star=CCH Pounder']);
        assert.ok(avatar.nodes.some(n => n.id === 'Director(James Cameron)'));
    });

    it('follows every attribute of a composite FK (two films share a title, not a year)', async t => {
        const w = await world(
            `source m csv "movies.csv"
source a csv "awards.csv"
relation Movie from m { title: text  year: int  director: text  key(title, year) }
relation Award from a { award: text  title: text  year: int  key(award) }
fk Award(title, year) -> Movie(title, year) as for_movie
`,
            {
                'movies.csv': 'title,year,director\nKing Kong,1933,Merian C. Cooper\nKing Kong,2005,Peter Jackson\n',
                'awards.csv': 'award,title,year\nBest Visual Effects 2006,King Kong,2005\n',
            },
        );
        t.after(w.dispose);
        assert.deepEqual(
            w.diagnostics.filter(d => d.severity === 'error'),
            [],
        );
        const award = nodeNeighbourhood(w.model, w.data, {
            nodeId: 'Award(Best Visual Effects 2006)',
            relation: 'Award',
            label: 'Best Visual Effects 2006',
        });
        const movies = award.edges.filter(e => e.label === 'for_movie').map(e => e.to);
        assert.deepEqual(movies, ['Movie(King Kong, 2005)']);
        const kong = nodeNeighbourhood(w.model, w.data, {
            nodeId: 'Movie(King Kong, 1933)',
            relation: 'Movie',
            label: 'King Kong, 1933',
        });
        assert.deepEqual(
            kong.edges.filter(e => e.label === 'for_movie'),
            [],
            'the 1933 film won nothing',
        );
    });
});
