import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
    buildSpecTree,
    questionNodes,
    questionIdOf,
    walk,
    parseNodeId,
    planRuns,
    covers,
} from '../../../src/extension/testing/tree.js';
import { spec, SPEC, question } from '../../fixtures/extension/model.js';

describe('Test Explorer tree', () => {
    const tree = buildSpecTree(SPEC, spec, 'movie.probe');

    it('nests spec → suite → probe → phrasing, skipping unknown probes and collecting loose ones', () => {
        assert.equal(tree.kind, 'spec');
        assert.deepEqual(
            tree.children.map(s => s.label),
            ['movies', '(no suite)'],
        );
        const movies = tree.children[0]!;
        assert.equal(movies.range?.start.line, 60);
        assert.equal(movies.description, 'simulator');
        assert.deepEqual(
            movies.children.map(p => p.label),
            ['movie_binary', 'movie_choice'],
        );
        assert.deepEqual(
            movies.children[0]!.children.map(p => p.label),
            ['basic', 'negated'],
        );
        assert.deepEqual(
            movies.children[1]!.children.map(p => p.label),
            ['stem-1', 'stem-2', 'stem-3'],
        );
        assert.deepEqual(
            tree.children[1]!.children.map(p => p.label),
            ['know_movie'],
        );
        assert.deepEqual(
            tree.children[1]!.children[0]!.children.map(p => p.label),
            ['knows'],
        );
    });

    it('places phrasings at their declaration and marks them lazy', () => {
        const basic = tree.children[0]!.children[0]!.children[0]!;
        assert.equal(basic.lazy, true);
        assert.equal(basic.range?.start.line, 31);
        assert.deepEqual([basic.suite, basic.probe, basic.phrasing], ['movies', 'movie_binary', 'basic']);
        const stem = tree.children[0]!.children[1]!.children[0]!;
        assert.equal(stem.range?.start.line, 40, 'a generated phrasing sits at its probe');
    });

    it('gives every node a unique id that is stable across rebuilds', () => {
        const ids = [...walk(tree)].map(n => n.id);
        assert.equal(new Set(ids).size, ids.length);
        assert.deepEqual(
            [...walk(buildSpecTree(SPEC, spec, 'movie.probe'))].map(n => n.id),
            ids,
        );
        assert.deepEqual(parseNodeId(tree.children[0]!.children[0]!.id), [SPEC, 'movies', 'movie_binary']);
    });

    it('creates the question leaves of one phrasing at the probe line, up to a limit', () => {
        const basic = tree.children[0]!.children[0]!.children[0]!;
        const qs = [question('a', 'basic'), question('b', 'negated', 'no'), question('c', 'basic')];
        const leaves = questionNodes(basic, qs);
        assert.deepEqual(
            leaves.map(l => questionIdOf(l)),
            ['a', 'c'],
        );
        assert.equal(leaves[0]!.range?.start.line, 30);
        assert.equal(leaves[0]!.description, 'gold yes');
        // Labelled by the entity's key values and the phrasing, so sixty questions of one template can be told apart.
        assert.equal(leaves[0]!.label, 'Avatar (2009) · basic');
        assert.equal(questionNodes(basic, qs, 1).length, 1);
        assert.equal(questionIdOf(basic), undefined);
    });
});

describe('Test Explorer run planning', () => {
    const tree = buildSpecTree(SPEC, spec, 'movie.probe');
    const movies = tree.children[0]!;
    const loose = tree.children[1]!;

    it('runs each real suite of a selected spec with its own sampling', () => {
        const units = planRuns(tree, [tree]);
        assert.deepEqual(
            units.map(u => [u.suite, u.explicit]),
            [['movies', false]],
        );
    });

    it('runs probes, phrasings and the pseudo-suite as explicit questions in one unit', () => {
        const units = planRuns(tree, [movies.children[0]!, loose, movies]);
        assert.deepEqual(
            units.map(u => [u.suite, u.explicit, u.scopes.map(s => s.label)]),
            [
                ['movies', false, ['movies']],
                [undefined, true, ['movie_binary', '(no suite)']],
            ],
        );
    });

    it('decides which questions lie below a node', () => {
        const basic = movies.children[0]!.children[0]!;
        assert.equal(covers(basic, 'movie_binary', 'basic', 'x'), true);
        assert.equal(covers(basic, 'movie_binary', 'negated', 'x'), false);
        assert.equal(covers(movies, 'movie_choice', 'stem-1', 'x'), true);
        assert.equal(covers(movies, 'know_movie', 'knows', 'x'), false);
        const leaf = questionNodes(basic, [question('q9', 'basic')])[0]!;
        assert.equal(covers(leaf, 'movie_binary', 'basic', 'q9'), true);
        assert.equal(covers(leaf, 'movie_binary', 'basic', 'q8'), false);
    });
});
