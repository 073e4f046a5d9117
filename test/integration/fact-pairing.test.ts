/**
 * Paired asking (docs/facts.md): a suite's `facts N` draws N facts among those two or more of its probes test (in a
 * seeded order of their ids) and every probe asks only its questions about them; `estimate --power` prices (counts)
 * the paired questions, not every row's.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { generateQuestions } from '../../src/core/probes/index.js';
import { hashSeed } from '../../src/core/probes/sampling.js';
import { loadSpec } from '../../src/core/spec/load.js';
import { loadData } from '../../src/core/data/index.js';
import { suitePower } from '../../src/core/run/index.js';
import type { Question } from '../../src/core/probes/question.js';

const SPEC = path.resolve('examples/facts/facts.probe');

async function generate(suite: string): Promise<Question[]> {
    const { model } = await loadSpec(SPEC);
    return [...generateQuestions(model, await loadData(model), { suite }).questions];
}

/** Per fact id, the probes whose questions test it. */
function probesByFact(questions: Question[]): Map<string, Set<string>> {
    const out = new Map<string, Set<string>>();
    for (const q of questions)
        for (const f of q.facts ?? []) {
            if (!out.has(f.id)) out.set(f.id, new Set());
            out.get(f.id)!.add(q.probe);
        }
    return out;
}

test('facts 20 seed 7: every probe asks about the same 20 drawn facts, and only about them', async () => {
    const all = probesByFact(await generate('facts'));
    // The draw, worked out from every row's questions: facts two or more probes test, in the seeded order of their ids.
    const drawn = new Set(
        [...all]
            .filter(([, p]) => p.size >= 2)
            .map(([id]) => id)
            .sort((a, b) => hashSeed(a, 7) - hashSeed(b, 7) || (a < b ? -1 : 1))
            .slice(0, 20),
    );
    assert.equal(drawn.size, 20);
    const paired = await generate('paired');
    for (const q of paired)
        assert.ok(
            q.facts?.some(f => drawn.has(f.id)),
            `${q.probe} ${q.id} tests a drawn fact`,
        );
    const asked = probesByFact(paired);
    for (const id of drawn) assert.deepEqual(asked.get(id), all.get(id), 'every probe that tests a drawn fact asks about it');
    assert.deepEqual(
        (await generate('paired')).map(q => q.id),
        paired.map(q => q.id),
        'the same draw every time',
    );
    assert.ok(paired.length < (await generate('facts')).length);
});

test('estimate --power counts the paired questions', async () => {
    const paired = await generate('paired');
    const power = await suitePower({ spec: SPEC, suite: 'paired' });
    assert.ok(!('blocked' in power && power.blocked));
    const binary = (
        power as { probes: { probe: string; groups: number; questions: { min: number; max: number } }[] }
    ).probes.find(p => p.probe === 'director_yes_no')!;
    const asked = paired.filter(q => q.probe === 'director_yes_no').length;
    assert.equal(binary.groups * binary.questions.max, asked);
    assert.ok(asked < 120, "fewer than every row's basic and negated question");
});
