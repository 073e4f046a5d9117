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
        assert.deepEqual(
            diagnostics.filter(d => d.severity === 'error'),
            [],
        );
        const data = await loadData(model);
        const questions = [...generateQuestions(model, data).questions];
        const tree = buildSpecTree(file, model, 'movie.probe');
        const phrasings = [...walk(tree)].filter(n => n.kind === 'phrasing');
        assert.ok(
            phrasings.some(n => n.probe === 'know_movie'),
            'the knowledge probe has a node',
        );
        for (const node of phrasings) {
            assert.ok(questionNodes(node, questions).length > 0, `${node.probe} · ${node.phrasing} has no questions`);
        }
        // Every generated question sits below exactly one phrasing node.
        for (const q of questions) {
            assert.equal(
                phrasings.filter(n => n.probe === q.probe && n.phrasing === q.phrasing).length > 0,
                true,
                `${q.probe} · ${q.phrasing} has no node`,
            );
        }
    });

    it('lists each rule probe of the rules example with its phrasings and their questions', async () => {
        const file = path.resolve('examples/rules/rules.probe');
        const { model } = await loadSpec(file);
        const data = await loadData(model);
        const questions = [...generateQuestions(model, data, { suite: 'rules' }).questions];
        const tree = buildSpecTree(file, model, 'rules.probe');
        const probes = [...walk(tree)].filter(n => n.kind === 'probe');
        assert.deepEqual(
            probes.map(p => `${p.label} (${p.description})`),
            [
                'teammates (rule · colleague)',
                'derbies (rule · derby)',
                'regions (rule · inside)',
                'player_regions (rule · plays_in)',
                'other_club (rule · not_at)',
            ],
        );
        for (const node of [...walk(tree)].filter(n => n.kind === 'phrasing')) {
            // other_club's rule is neither symmetric nor inverted: its "reading" node is empty; every other has questions.
            const n = questionNodes(node, questions).length;
            assert.equal(
                n > 0,
                !(node.probe === 'other_club' && node.phrasing === 'reading') &&
                    !(node.probe === 'regions' && node.phrasing === 'reading'),
                `${node.probe} · ${node.phrasing}: ${n}`,
            );
        }
    });
});
