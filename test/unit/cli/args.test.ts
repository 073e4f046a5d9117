import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseArgs } from '../../../src/cli/args.js';

test('switches never swallow the next word; flags with values take it', () => {
    assert.deepEqual(parseArgs(['--new', 'spec.probe', '--limit', '5', '--no-verify', '--yes']), {
        positional: ['spec.probe'],
        flags: { new: true, limit: '5', 'no-verify': true, yes: true },
    });
    assert.deepEqual(parseArgs(['--fail-on-failures', 'x', '--format=json']), {
        positional: ['x'],
        flags: { 'fail-on-failures': true, format: 'json' },
    });
});
