import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { tempDir } from '../../support/temp.js';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ReplayClient, readTranscript } from '../../../src/core/models/replay.js';
import { ModelError } from '../../../src/core/models/types.js';
import { movieQuestions } from '../../support/questions.js';

const [q0, q1, q2] = movieQuestions(3);
const request = (q: typeof q0, sample = 0) => ({ messages: q!.messages, params: { temperature: 0 }, question: q!, sample });
const dir = tempDir('hp-replay-');

test('JSONL keyed by question id or by question text (any whitespace and case)', async () => {
    const file = path.join(dir, 'a.jsonl');
    writeFileSync(
        file,
        [
            JSON.stringify({ id: q0!.id, answer: 'Yes, by id.' }),
            JSON.stringify({ question: `  ${q1!.question.toUpperCase()} `, response: 'No, by text.' }),
            'not json',
        ].join('\n'),
    );
    const client = ReplayClient.fromFile('r', file);
    assert.equal((await client.complete(request(q0))).text, 'Yes, by id.');
    assert.equal((await client.complete(request(q1))).text, 'No, by text.');
    assert.deepEqual(
        client.problems.map(p => `${path.basename(p.location!.file)} ${p.message} [${p.lines!.join()}]`),
        ['a.jsonl line 3: not JSON [3]'],
    );
    await assert.rejects(
        client.complete(request(q2)),
        (e: unknown) => e instanceof ModelError && e.kind === 'no_answer' && !e.retryable,
    );
});

test('CSV with a question column and samples', async () => {
    const file = path.join(dir, 'b.csv');
    writeFileSync(file, `question,answer,sample\n"${q0!.question}","first, with comma",0\n"${q0!.question}",second,1\n`);
    const client = ReplayClient.fromFile('r', file);
    assert.equal((await client.complete(request(q0, 0))).text, 'first, with comma');
    assert.equal((await client.complete(request(q0, 1))).text, 'second');
});

test('an ERBench log replays by question text', async () => {
    const log = fileURLToPath(new URL('../../fixtures/runner/erbench-sample.log', import.meta.url));
    const client = ReplayClient.fromFile('gpt35', log);
    const q = {
        ...q0!,
        question: 'Is there a movie, released in 2009, starring CCH Pounder where James Cameron is the director?',
    };
    assert.equal((await client.complete(request(q))).text, 'Yes. The movie is "Avatar".');
    assert.equal(client.size, 3);
});

test('a missing file is an error with a remedy, not a crash', () => {
    assert.throws(() => ReplayClient.fromFile('r', path.join(dir, 'nope.jsonl')), /cannot be read.*file setting/);
});

test('rows without an answer are reported', () => {
    const { records, problems } = readTranscript('{"id":"x"}\n{"id":"y","text":"ok"}\n', 'jsonl');
    assert.equal(records.length, 1);
    assert.deepEqual(
        problems.map(p => [p.code, p.message, p.lines]),
        [['replay-record', 'line 1: no answer field (answer, response, text, output, completion)', [1]]],
    );
});

test('an ERBench multiple-choice log replays its framed prompts, and its knowledge questions without the "Q:" / "A:" frame', async () => {
    const file = path.join(dir, 'mc.log');
    writeFileSync(
        file,
        [
            '0-0th question',
            '<Question> ',
            'Q: Is the movie Avatar released in year 2009 directed by James Cameron?',
            'A:',
            '',
            '<Answer> ',
            'Yes.',
            '',
            '<Gold Answer> ',
            'None',
            '',
            '<Gold Entity> ',
            'None',
            '',
            '0-1th question',
            '<Question> ',
            'Q: What is the false option? Provide an explanation.',
            'Option 1: A.',
            'Option 2: B.',
            '',
            'A: ',
            '',
            '<Answer> ',
            'Option 2.',
            '',
            '<Gold Answer> ',
            '2',
        ].join('\n'),
    );
    const client = ReplayClient.fromFile('gpt35', file);
    const knows = { ...q0!, question: 'Is the movie Avatar released in year 2009 directed by James Cameron?' };
    assert.equal((await client.complete(request(knows))).text, 'Yes.');
    const choice = { ...q0!, question: 'Q: What is the false option? Provide an explanation.\nOption 1: A.\nOption 2: B.\nA: ' };
    assert.equal((await client.complete(request(choice))).text, 'Option 2.');
});

test('an ERBench record whose answer is "RESPONSE ERROR" (a failed call) is no answer: replaying it is a recorded error (issue 41)', async () => {
    const text = [
        '0-0th question',
        'Q: Is there X?',
        'A:RESPONSE ERROR',
        'Gold Answer: yes',
        'Gold Entity: X',
        '',
        '0-1th question',
        'Q: Is there Y?',
        'A:No.',
        'Gold Answer: no',
        'Gold Entity: Y',
    ].join('\n');
    const read = readTranscript(text, 'erbench');
    assert.deepEqual(read.records, [
        { question: 'Is there X?', answer: '', error: 'RESPONSE ERROR', position: 0, graded: true },
        { question: 'Is there Y?', answer: 'No.', position: 1, graded: true },
    ]);
    assert.deepEqual(
        read.problems.map(p => p.message),
        ['record 0-0: "RESPONSE ERROR" is a failed call, not an answer'],
    );
    const client = new ReplayClient('m', read.records);
    await assert.rejects(
        client.complete(request({ ...q0!, id: 'x', question: 'Is there X?' })),
        (e: unknown) =>
            e instanceof ModelError &&
            e.kind === 'recorded_error' &&
            /RESPONSE ERROR/.test(e.message) &&
            !/no recorded answer/.test(e.message),
    );
});

test('a knowledge question asked in other words takes the logged knowledge answer about the same entity, at its position', async () => {
    const log = [
        '0th question',
        'Q: Do you know the movie Up in the Air released in 2009?',
        'A:No.',
        '',
        '1th question',
        'Q: Do you know the movie Up released in 2009?',
        'A:Yes.',
        '',
        '2th question',
        'Q: Is there a movie Up released in 2009?',
        'A:Yes, graded.',
        'Gold Answer: yes',
        'Gold Entity: Up',
    ].join('\n');
    const client = new ReplayClient('m', readTranscript(log, 'erbench').records);
    const knows = {
        ...q0!,
        kind: 'knows' as const,
        question: 'Have you seen Up (2009)?',
        entity: { relation: 'Movie', key: ['Up', '2009'] },
        replayByEntity: 0,
    };
    assert.equal(
        (await client.complete(request(knows))).text,
        'Yes.',
        'the shortest logged question naming both key values; never a graded one',
    );
    await assert.rejects(
        client.complete(request({ ...knows, replayByEntity: 1 })),
        (e: unknown) => e instanceof ModelError && e.kind === 'no_answer',
        'no knowledge question at position 1',
    );
    await assert.rejects(
        client.complete(request({ ...knows, replayByEntity: undefined })),
        (e: unknown) => e instanceof ModelError,
        'only questions that allow it match by entity',
    );
    await assert.rejects(
        client.complete(request({ ...knows, entity: { relation: 'Movie', key: ['Upside', '2009'] } })),
        (e: unknown) => e instanceof ModelError,
        'whole words only',
    );
});
