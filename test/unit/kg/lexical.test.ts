// BM25 scores of short texts (kg/lexical.ts): scored directly for a few texts (evidence enriching scores a handful
// per row, where building an index costs more than the scoring), through MiniSearch's index for more; the direct
// path must give MiniSearch's scores exactly, on texts with repeated words, stop words, punctuation and blanks.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { lexicalScores } from '../../../src/core/kg/lexical.js';
import { prng, pick } from '../../../src/core/probes/sampling.js';

const WORDS = [
    'the',
    'director',
    'directed',
    'films',
    'film',
    'Paris',
    'won',
    'contest',
    'Eurovision',
    'of',
    'a',
    'song',
    'Turin',
    'gas',
    'prices',
    'rose',
    '2022',
    '5.9',
    'AAA',
    'said',
];
const PUNCT = [' ', ' ', ' ', ', ', '. ', ' — ', '; ', '\n', '!'];

describe('lexical scores', () => {
    it("the direct path gives MiniSearch's BM25+ scores exactly, on 300 random small collections", () => {
        const random = prng(7);
        const text = () =>
            Array.from(
                { length: 1 + pick(random, 14) },
                () => WORDS[pick(random, WORDS.length)]! + PUNCT[pick(random, PUNCT.length)]!,
            ).join('');
        for (let c = 0; c < 300; c++) {
            const texts = Array.from({ length: 1 + pick(random, 12) }, text);
            const queries = [text(), text(), 'Who directed the film?', ''];
            const direct = lexicalScores(texts, queries, 'direct');
            const index = lexicalScores(texts, queries, 'index');
            assert.deepEqual(
                direct.map(a => [...a]),
                index.map(a => [...a]),
                JSON.stringify({ texts, queries }),
            );
        }
    });

    it("ranks the passage that shares the question's words first, and scores 0 where none is shared", () => {
        const [q] = lexicalScores(
            ['Gas prices rose in June.', 'Ukraine won Eurovision.', 'The director of the film.'],
            ['How much did gas prices rise?'],
        );
        assert.ok(q![0]! > 0 && q![1] === 0 && q![2] === 0);
    });
});
