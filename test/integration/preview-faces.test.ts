// `halluprobe preview` (a real process) and the extension's Preview Questions (its engine door, as the command
// calls it) take the same engine step: the same gate on data that cannot be read, the same questions, the same
// skip reasons in the same words.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import * as engine from '../../src/extension/engine.js';
import { HalluProbeError } from '../../src/core/errors.js';
import { world, MOVIE_SPEC, MOVIES_CSV } from '../fixtures/probes/world.js';
import { cliArgs } from '../support/cli-path.js';

const preview = (args: string[]) => spawnSync(process.execPath, cliArgs('preview', ...args), { encoding: 'utf8' });

describe('preview: the CLI and the extension agree', () => {
    it('both stop on data that cannot be read (a missing file), with the same problem and no question', async t => {
        const w = await world(MOVIE_SPEC, {});
        t.after(w.dispose);
        const spec = path.join(w.dir, 'spec.probe');
        const r = preview([spec, '--format', 'jsonl']);
        assert.equal(r.status, 1, r.stderr);
        assert.equal(r.stdout, '');
        assert.match(r.stderr, /error \[missing-file\]/);
        assert.match(r.stderr, /the data cannot be read/);
        assert.doesNotMatch(r.stderr, /\d+ questions?\b/);
        await assert.rejects(engine.generate(spec, {}), (e: unknown) => {
            assert.ok(e instanceof HalluProbeError, String(e));
            assert.deepEqual([...new Set(e.problems.map(p => p.code))], ['missing-file']);
            return true;
        });
    });

    it('both give the same questions and word the skipped rows the same way', async t => {
        // Dunkirk's plot is empty; a second Avatar director breaks movie_director.
        const csv = `${MOVIES_CSV.trimEnd()}\nAvatar,2009,Someone Else,Sam Worthington,1980,162,Again.\n`;
        const w = await world(MOVIE_SPEC, { 'movies.csv': csv });
        t.after(w.dispose);
        const spec = path.join(w.dir, 'spec.probe');
        const r = preview([spec, '--format', 'jsonl']);
        // The data has errors (a violated FD): the questions that could be generated are printed, exit 1.
        assert.equal(r.status, 1, r.stderr);
        const cliIds = r.stdout
            .trim()
            .split('\n')
            .map(l => (JSON.parse(l) as { id: string }).id);
        const gen = await engine.generate(spec, {});
        assert.deepEqual(
            gen.questions.map(q => q.id),
            cliIds,
        );
        const reasons = (text: string) =>
            [
                ...text.matchAll(
                    /\d+ (with empty values|in FD-violating groups or repeating a key|with a dangling fk|on a cyclic path|where a condition failed|with no derived fact of the rule)/g,
                ),
            ]
                .map(m => m[1])
                .sort();
        const cliReasons = reasons(/rows skipped: (.*)\./.exec(r.stderr)?.[1] ?? '');
        assert.ok(cliReasons.length > 0, r.stderr);
        const extReasons = new Set(gen.notes.filter(n => / rows skipped: /.test(n)).flatMap(reasons));
        assert.deepEqual([...extReasons].sort(), [...new Set(cliReasons)].sort(), gen.notes.join('\n'));
    });
});
