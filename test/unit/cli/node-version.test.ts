/** On a Node older than 22 the CLI says, in one line, what works: in a user's project as in this repository. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nodeVersionProblem } from '../../../bin/node-version.js';

test('Node 20: one line naming the version and both remedies (install Node 22, or node@22 in the project + npx)', () => {
    const message = nodeVersionProblem('20.20.2');
    assert.ok(message);
    assert.equal(message.split('\n').length, 1);
    assert.match(message, /needs Node\.js 22 or later \(this is v20\.20\.2\)/);
    assert.match(message, /npm install --save-dev node@22/);
    assert.match(message, /npx halluprobe/);
});

test('Node 22 and later: no problem', () => {
    assert.equal(nodeVersionProblem('22.12.0'), undefined);
    assert.equal(nodeVersionProblem('24.1.0'), undefined);
});

test('Node 20 in a checkout of the repository: the checkout\'s own Node 22, not "npx halluprobe" (which asks the public registry there)', () => {
    const message = nodeVersionProblem('20.20.2', { checkout: '/home/me/halluprobe' });
    assert.ok(message);
    assert.equal(message.split('\n').length, 1);
    assert.match(message, /"node_modules\/\.bin\/node bin\/halluprobe\.js <command>" in \/home\/me\/halluprobe/);
    assert.doesNotMatch(message, /npx halluprobe/);
});
