import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync, cpSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadSpec } from '../../../src/core/spec/load.js';
import { tempDir } from '../../support/temp.js';

const movie = fileURLToPath(new URL('../../../examples/movie/', import.meta.url));

test('loading a spec with imports again gives the same clean result (earlier copies are replaced together)', async () => {
    const dir = tempDir('hp-spec-');
    cpSync(path.join(movie, 'data'), path.join(dir, 'data'), { recursive: true });
    mkdirSync(path.join(dir, 'parts'));
    const text = readFileSync(path.join(movie, 'movie.probe'), 'utf8');
    const split = text.indexOf('aliases Director.name');
    writeFileSync(
        path.join(dir, 'parts', 'schema.probe'),
        text.slice(0, split).replace('"data/movies.csv"', '"../data/movies.csv"'),
    );
    writeFileSync(path.join(dir, 'main.probe'), `import "parts/schema.probe"\n${text.slice(split)}`);
    for (let i = 0; i < 3; i++) {
        const loaded = await loadSpec(path.join(dir, 'main.probe'));
        assert.deepEqual(
            loaded.diagnostics.filter(d => d.severity === 'error').map(d => d.message),
            [],
            `load ${i + 1}`,
        );
        assert.equal(loaded.model.relations.length, 2);
    }
});
