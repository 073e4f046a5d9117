// The Test Explorer tree is built from the spec, its question leaves from the engine's generator: every
// phrasing node must find the questions the engine gives it (a knowledge probe's node was empty when the tree
// named its phrasing 'ask' and the engine 'knows').
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { loadSpec } from '../../../src/core/spec/load.js';
import { loadData } from '../../../src/core/data/index.js';
import { generateQuestions } from '../../../src/core/probes/index.js';
import { buildSpecTree, questionNodes, walk } from '../../../src/extension/testing/tree.js';

describe('Test Explorer tree on the movie example', () => {
    it('gives every phrasing node of every probe the questions the engine generates for it', async () => {
        const file = path.resolve('examples/movie/movie.probe');
        const { model, diagnostics } = await loadSpec(file);
        assert.deepEqual(diagnostics.filter(d => d.severity === 'error'), []);
        const data = await loadData(model);
        const questions = [...generateQuestions(model, data).questions];
        const tree = buildSpecTree(file, model, 'movie.probe');
        const phrasings = [...walk(tree)].filter(n => n.kind === 'phrasing');
        assert.ok(phrasings.some(n => n.probe === 'know_movie'), 'the knowledge probe has a node');
        for (const node of phrasings) {
            assert.ok(questionNodes(node, questions).length > 0, `${node.probe} · ${node.phrasing} has no questions`);
        }
        // Every generated question sits below exactly one phrasing node.
        for (const q of questions) {
            assert.equal(phrasings.filter(n => n.probe === q.probe && n.phrasing === q.phrasing).length > 0, true, `${q.probe} · ${q.phrasing} has no node`);
        }
    });
});
