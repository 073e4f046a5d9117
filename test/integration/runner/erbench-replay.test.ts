import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { loadSpec } from '../../../src/core/spec/load.js';
import { loadData } from '../../../src/core/data/index.js';
import { generateQuestions } from '../../../src/core/probes/index.js';
import { parseErbenchLog, ReplayClient } from '../../../src/core/models/index.js';
import { repoRoot } from '../../support/runner-fixtures.js';

const shared = path.join(repoRoot, '..', 'shared', 'data', 'erbench');
const logs = ['gpt35_movie.log', 'gpt35_validate_movie.log'].map(f => path.join(shared, 'responses', f));

test("the published GPT-3.5 movie logs replay onto the ERBench movie preset's questions", async t => {
    if (!logs.every(existsSync)) {
        t.skip(`needs ../shared/data/erbench/responses (not present at ${shared})`);
        return;
    }
    const { model: spec } = await loadSpec(path.join(repoRoot, 'examples', 'erbench', 'movie.probe'));
    const data = await loadData(spec);
    const questions = [...generateQuestions(spec, data, { suite: 'erbench_movie' }).questions];
    const client = ReplayClient.fromFiles('gpt35', logs);
    const records = logs.flatMap(f => parseErbenchLog(readFileSync(f, 'utf8')));
    assert.equal(client.size, records.length);
    const missing = questions.filter(
        q => !client.lookup({ messages: q.messages, params: { temperature: 0 }, question: q, sample: 0 }),
    );
    // The published answer log lacks 3 of the 4,500 binary records; every other question finds its answer.
    assert.ok(missing.length <= 3, `${missing.length} questions without an answer, e.g. ${missing[0]?.question}`);
    const avatar = questions.find(q => q.question === records[0]!.question)!;
    assert.equal(
        (await client.complete({ messages: avatar.messages, params: { temperature: 0 }, question: avatar, sample: 0 })).text,
        records[0]!.answer,
    );
});
