import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadSpec } from '../../src/core/spec/load.js';
import { DataCache, loadData } from '../../src/core/data/index.js';
import { probeDiagnostics } from '../../src/core/probes/index.js';
import { cachedProbeDiagnostics } from '../../src/server/probe-diagnostics.js';
import { FIXTURES } from './support.js';

describe('per-probe memo of the generator diagnostics', () => {
    it('recomputes only changed probes and shifts the diagnostics of moved ones', async () => {
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'halluprobe-probe-diag-'));
        try {
            fs.cpSync(FIXTURES, dir, { recursive: true });
            const file = path.join(dir, 'movie.probe');
            // A choice probe over an fd with one right-hand-side attribute gets a generator diagnostic.
            const base = `${fs.readFileSync(file, 'utf8')}\nprobe pick choice using movie_director {\n    stem "What is wrong about {title}?"\n}\n`;
            const cache = new DataCache();
            let calls = 0;
            const cached = cachedProbeDiagnostics((s, d) => {
                calls++;
                return probeDiagnostics(s, d);
            });
            const run = async (text: string) => {
                fs.writeFileSync(file, text);
                const { model } = await loadSpec(file);
                const data = await loadData(model, cache);
                return { got: await cached(model, data), want: probeDiagnostics(model, data), probes: model.probes.length };
            };
            const first = await run(base);
            assert.equal(calls, first.probes);
            assert.ok(first.want.length > 0, 'the fixture yields a generator diagnostic');
            assert.deepEqual(first.got, first.want);
            const moved = await run(`// a comment line\n${base}`);
            assert.equal(calls, first.probes, 'nothing recomputed when probes only moved');
            assert.deepEqual(moved.got, moved.want, 'shifted diagnostics equal fresh ones');
            await run(`// a comment line\n${base.replace('wrong about', 'false about')}`);
            assert.equal(calls, first.probes + 1, 'only the edited probe is recomputed');
            const inside = await run(
                `// a comment line\n${base.replace('wrong about', 'false about').replace('choice using movie_director {\n', 'choice using movie_director {\n\n')}`,
            );
            assert.deepEqual(inside.got, inside.want, 'a line added inside a probe moves its member diagnostics');
        } finally {
            fs.rmSync(dir, { recursive: true, force: true });
        }
    });
});
