/**
 * One code per condition: conditions that shared a code get their own, and a condition the spec check and the
 * engine both find has the one code. Problems from every room are the one `Problem` shape.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { diagnose, MOVIE } from '../language/support.js';
import { movieWorld } from '../../fixtures/probes/world.js';
import { generateQuestions } from '../../../src/core/probes/index.js';
import { coreOf } from '../../../src/core/probes/registry.js';
import { HalluProbeError } from '../../../src/core/errors.js';
import { prepareRun } from '../../../src/core/run/index.js';
import type { ModelDecl } from '../../../src/core/spec/model.js';
import { tempStore } from '../../support/runner-fixtures.js';

const loc = { file: '', range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } } };
const decl = (name: string, provider: string, settings: ModelDecl['settings']): ModelDecl => ({ name, provider, settings, loc });

describe('one code per condition', () => {
    it('an unregistered kind is probe-kind wherever it is found (the spec check and the registry)', async () => {
        assert.throws(
            () => coreOf('echo'),
            (e: unknown) => e instanceof HalluProbeError && e.problems.map(p => p.code).join() === 'probe-kind',
        );
        const ds = await diagnose(`${MOVIE}\nprobe e echo about Movie { }\n`);
        assert.ok(
            ds.some(d => d.code === 'probe-kind'),
            JSON.stringify(ds.map(d => d.code)),
        );
    });

    it('sample and quota counts: a missing count, an ignored count and a bad quota each have their code', async () => {
        const codes = async (suite: string) => (await diagnose(`${MOVIE}\n${suite}\n`)).map(d => d.code);
        assert.ok((await codes('suite s1 { probes movie_binary sample first }')).includes('sample-count-missing'));
        assert.ok((await codes('suite s2 { probes movie_binary sample all 3 }')).includes('sample-count-ignored'));
        assert.ok((await codes('suite s3 { probes movie_binary quota movie_binary 0 }')).includes('quota-count'));
    });

    it("the generator's variant problems: unknown, bad arguments and not applicable are three codes", async t => {
        const w = await movieWorld(
            'suite v { probes movie_binary variant few_shot(99) variant augment from Director.name variant zero_sht }',
        );
        t.after(w.dispose);
        const g = generateQuestions(w.model, w.data, { suite: 'v' });
        assert.deepEqual(g.diagnostics.map(d => d.code).sort(), ['unknown-variant', 'variant-args', 'variant-not-applicable']);
    });

    it('a run that cannot start says why with one code per reason, as Problems', async () => {
        const store = tempStore();
        try {
            const base = {
                store,
                spec: '/x/movie.probe',
                suite: 's',
                questions: [],
                confirmHost: async () => true,
                baseDir: '/x',
                env: {},
            };
            const missing = await prepareRun({
                ...base,
                models: [decl('gpt', 'openai', { id: 'gpt-4o-mini' }), decl('r', 'replay', {})],
            });
            assert.deepEqual(
                missing.problems.map(p => p.code),
                ['missing-key', 'model-settings'],
            );
            const unknown = await prepareRun({ ...base, models: [decl('sim', 'offline', {})], resume: 'nope' });
            assert.deepEqual(
                unknown.problems.map(p => [p.severity, p.code]),
                [['error', 'unknown-run']],
            );
        } finally {
            store.close();
        }
    });
});
