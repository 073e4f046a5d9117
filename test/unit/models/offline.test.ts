import { test } from 'node:test';
import assert from 'node:assert/strict';
import { OfflineClient, offlineRates, DEFAULT_RATES } from '../../../src/core/models/offline.js';
import { movieQuestions } from '../../support/questions.js';

const questions = movieQuestions(200);
const rates = (over: Partial<typeof DEFAULT_RATES>) => ({ ...DEFAULT_RATES, ...over });

test('the display name says offline simulator', () => {
    assert.match(new OfflineClient('sim', DEFAULT_RATES).displayName, /offline simulator/);
});

test('same seed, same answers; another seed, other answers', () => {
    const a = new OfflineClient('a', rates({ seed: 1 }));
    const b = new OfflineClient('b', rates({ seed: 1 }));
    const c = new OfflineClient('c', rates({ seed: 2 }));
    assert.deepEqual(
        questions.map(q => a.answer(q)),
        questions.map(q => b.answer(q)),
    );
    assert.notDeepEqual(
        questions.map(q => a.answer(q)),
        questions.map(q => c.answer(q)),
    );
});

test('knowing everything, never omitting or contradicting: gold answer word and every keyword', () => {
    const sim = new OfflineClient('s', rates({ knowledge: 1, unsure: 0, omit: 0, contradict: 0 }));
    for (const q of questions) {
        const text = sim.answer(q);
        assert.ok(text.startsWith(q.gold === 'yes' ? 'Yes.' : 'No.'), text);
        for (const k of q.keywords.flat()) assert.ok(text.includes(k.value), `${text} lacks ${k.value}`);
    }
});

test('knowing nothing and always unsure: every answer says not sure', () => {
    const sim = new OfflineClient('s', rates({ knowledge: 0, unsure: 1 }));
    assert.ok(questions.every(q => /not sure/i.test(sim.answer(q))));
});

test('contradiction states another value of the attribute from the domain, not the keyword', () => {
    const domain = ['Movie 1', 'Other Film', 'Third Film'];
    const sim = new OfflineClient('s', rates({ knowledge: 1, unsure: 0, omit: 0, contradict: 1 }), () => domain);
    for (const q of questions.slice(0, 50)) {
        const text = sim.answer(q);
        const keyword = q.keywords[0]![0]!.value;
        assert.ok(!text.includes(`is ${keyword}.`), text);
        assert.ok(
            domain.some(d => d !== keyword && text.includes(d)),
            text,
        );
    }
});

test('rates are read from settings, with defaults for the rest', () => {
    assert.deepEqual(offlineRates({ knowledge: 0.5, seed: 9 }), { ...DEFAULT_RATES, knowledge: 0.5, seed: 9 });
});

test('the knowledge rate is honoured over many entities', () => {
    const sim = new OfflineClient('s', rates({ knowledge: 0.3, unsure: 1, omit: 0, contradict: 0 }));
    const many = movieQuestions(2000);
    const known = many.filter(q => !/not sure/.test(sim.answer(q))).length / many.length;
    assert.ok(Math.abs(known - 0.3) < 0.05, `known share ${known}`);
});
