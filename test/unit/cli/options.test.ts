/** Every command rejects an option it does not know (one shared rule), and typos get "did you mean". */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { runCli } from '../../support/cli.js';
import { COMMANDS } from '../../../src/cli/commands/index.js';
import { repoRoot } from '../../support/runner-fixtures.js';

const cli = runCli;

const movie = path.join(repoRoot, 'examples', 'movie', 'movie.probe');

describe('command-line options', () => {
    it('preview --limt 3 is rejected with a suggestion, nothing is printed', async () => {
        const r = await cli('preview', movie, '--limt', '3');
        assert.equal(r.code, 2);
        assert.match(r.err, /unknown option --limt; did you mean --limit\?/);
        assert.equal(r.out, '');
    });

    it('run --model simm names the closest model', async () => {
        const r = await cli('run', movie, '--model', 'simm', '--db', path.join(repoRoot, 'test-artifacts', 'never-written.db'));
        assert.equal(r.code, 2, r.err);
        assert.match(r.err, /Unknown model "simm"; did you mean "simulator"\?/);
    });

    for (const name of Object.keys(COMMANDS)) {
        it(`${name} rejects an unknown option before doing anything`, async () => {
            const r = await cli(name, movie, '--no-such-option', 'x');
            assert.equal(r.code, 2, r.err);
            assert.match(r.err, new RegExp(`halluprobe ${name}: unknown option --no-such-option`));
        });
        it(`${name} accepts every option its usage lists`, () => {
            const listed = [...COMMANDS[name]!.usage.matchAll(/--([a-z][a-z-]*)/g)].map(m => m[1]!);
            for (const o of listed) assert.ok(COMMANDS[name]!.options.includes(o) || o === 'help', `${name} --${o}`);
        });
    }

    it('an unknown command gets "did you mean"', async () => {
        const r = await cli('reprot');
        assert.equal(r.code, 2);
        assert.match(r.err, /unknown command "reprot"\. Did you mean "report"\?/);
    });
});
