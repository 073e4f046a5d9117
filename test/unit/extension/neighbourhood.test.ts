import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { loadSpec } from '../../../src/core/spec/load.js';
import { loadData } from '../../../src/core/data/index.js';
import { neighbourhood } from '../../../src/extension/engine-core.js';

const spec = fileURLToPath(new URL('../../../examples/movie/movie.probe', import.meta.url));

test('expanding graph nodes finds the data with the same ids and labels the question paths use', async () => {
    const { model } = await loadSpec(spec);
    const data = await loadData(model);
    const director = neighbourhood(model, data, { nodeId: 'Movie.director=James Cameron', relation: 'Movie', label: 'James Cameron' }, 10);
    assert.ok(director.nodes.some(n => n.id === 'Movie(Avatar, 2009)'), JSON.stringify(director.nodes));
    const avatar = neighbourhood(model, data, { nodeId: 'Movie(Avatar, 2009)', relation: 'Movie', label: 'Avatar, 2009' }, 10);
    const values = avatar.nodes.filter(n => n.kind === 'value').map(n => n.id);
    assert.deepEqual(values, ['Movie.director=James Cameron', 'Movie.star=CCH Pounder']);
    assert.ok(avatar.nodes.some(n => n.id === 'Director(James Cameron)'));
});
