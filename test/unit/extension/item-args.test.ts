/** A test item handed to Open Graph (its context menu, a failed question's gutter mark) names its spec and question. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { graphArgOfTestItem } from '../../../src/extension/testing/item-args.js';
import { nodeId } from '../../../src/extension/testing/tree.js';

test('a question item gives its spec and question id; another item its spec; anything else nothing', () => {
    const spec = '/w/movie.probe';
    assert.deepEqual(graphArgOfTestItem({ id: nodeId(spec, 'movies', 'movie_binary', 'basic', '0123456789abcdef') }), {
        file: spec,
        questionId: '0123456789abcdef',
    });
    assert.deepEqual(graphArgOfTestItem({ id: nodeId(spec, 'movies', 'movie_binary') }), { file: spec });
    assert.deepEqual(graphArgOfTestItem({ id: spec }), { file: spec });
    assert.equal(graphArgOfTestItem({ id: 'something else' }), undefined);
    assert.equal(graphArgOfTestItem('movie.probe'), undefined);
});
