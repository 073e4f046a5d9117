import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
    isChoiceLog,
    loggedOptions,
    loggedStem,
    parseErbenchChoiceLog,
    parseErbenchLog,
} from '../../../src/core/models/erbench-log.js';

const fixture = (name: string) => readFileSync(fileURLToPath(new URL(`../../fixtures/runner/${name}`, import.meta.url)), 'utf8');

test('reads N-Kth records with multi-line answers and gold lines', () => {
    const records = parseErbenchLog(fixture('erbench-sample.log'));
    assert.equal(records.length, 3);
    assert.deepEqual(
        records.map(r => [r.row, r.phrasing, r.gold]),
        [
            [0, 0, 'yes'],
            [0, 1, 'no'],
            [12, 2, 'yes'],
        ],
    );
    assert.equal(records[1]!.answer, 'Yes, it is true.\nThere were no movies released in 2009 starring CCH Pounder.');
    assert.equal(records[2]!.goldEntity, "Pirates of the Caribbean: At World's End");
    assert.match(records[0]!.question, /^Is there a movie, released in 2009/);
});

test('reads the knowledge-probe log: answers keep blank lines until the next header, no gold', () => {
    const records = parseErbenchLog(fixture('erbench-validate-sample.log'));
    assert.equal(records.length, 2);
    assert.equal(
        records[0]!.answer,
        'Yes, CCH Pounder starred in the movie Avatar. \n\nYes, James Cameron directed the movie Avatar.',
    );
    assert.deepEqual([records[0]!.gold, records[0]!.goldEntity, records[1]!.row, records[1]!.phrasing], ['', '', 1, 0]);
});

test('CRLF line ends and damaged records do not break parsing', () => {
    const text =
        '3-0th question\r\nQ: Is there X?\r\nA:No.\r\nGold Answer: yes\r\nGold Entity: X\r\n4-0th question\r\nnothing\r\n';
    const records = parseErbenchLog(text);
    assert.equal(records.length, 1);
    assert.deepEqual(records[0], { row: 3, phrasing: 0, question: 'Is there X?', answer: 'No.', gold: 'yes', goldEntity: 'X' });
});

test('reads the multiple-choice layout: tagged fields, blocks separated by "=" lines', () => {
    const text = [
        '========================================',
        '0-2th question',
        '<Question> ',
        'Q: What is the wrong option regarding the movie Avatar released in year 2009? Provide an explanation.',
        'Option 1: The name of the Director is James Cameron.',
        'Option 2: The movie was produced in the country USA.',
        '',
        'A: ',
        '',
        '<Answer> ',
        'Option 2: The movie was produced in the country USA.',
        '',
        'Explanation: it was produced in the USA.',
        '',
        '<Gold Answer> ',
        '2',
        '',
        '<Gold Entity> ',
        'UK',
        '========================================',
        '3-1th question',
        '<Question> ',
        'Q: Is the movie Up released in year 2009 directed by Pete Docter?',
        'A:',
        '',
        '<Answer> ',
        'Yes.',
        '',
        '<Gold Answer> ',
        'None',
    ].join('\n');
    assert.equal(isChoiceLog(text), true);
    assert.equal(isChoiceLog(fixture('erbench-sample.log')), false);
    const records = parseErbenchChoiceLog(text);
    assert.deepEqual(
        records.map(r => [r.row, r.phrasing, r.gold, r.goldEntity]),
        [
            [0, 2, '2', 'UK'],
            [3, 1, 'none', ''],
        ],
    );
    assert.equal(
        records[0]!.answer,
        'Option 2: The movie was produced in the country USA.\n\nExplanation: it was produced in the USA.',
    );
    assert.deepEqual(loggedOptions(records[0]!.question), [
        'The name of the Director is James Cameron.',
        'The movie was produced in the country USA.',
    ]);
    assert.equal(loggedStem(records[0]!.question), 'What is the wrong option regarding the movie Avatar released in year 2009?');
    assert.equal(records[1]!.question, 'Q: Is the movie Up released in year 2009 directed by Pete Docter?\nA:');
});
