import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { parseArgs, specFileArgs } from '../../../src/cli/args.js';
import { repoRoot } from '../../support/runner-fixtures.js';

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

test('check and run read one spec file the same way: a second file or a folder is a usage error', () => {
    const spec = path.join(repoRoot, 'examples', 'movie', 'movie.probe');
    const read = (...argv: string[]) => specFileArgs(parseArgs(argv), ['format']);
    assert.deepEqual(read(spec, '--format', 'json'), { file: spec, format: 'json' });
    assert.deepEqual(read(spec, spec), { problem: 'one spec file expected, got 2' });
    const folder = path.dirname(spec);
    assert.deepEqual(read(folder), { problem: `${folder} is a directory; give a .probe file` });
    assert.deepEqual(read(), { problem: 'no spec file given' });
});
