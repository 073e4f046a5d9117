/**
 * A binary probe's keywords are its fd's right-hand side: a question that states them gives the answer away,
 * so the rationale check means nothing. `check`, `preview` and the editor (all through probeDiagnostics) warn
 * at the phrasing, with what to write instead.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { probeDiagnostics } from '../../../src/core/probes/index.js';
import { checkSpec } from '../../../src/core/spec/check.js';
import { movieWorld } from '../../fixtures/probes/world.js';
import { repoRoot } from '../../support/runner-fixtures.js';

const CODE = 'probe-answer-in-question';
const leaks = <D extends { code: string }>(ds: D[]) => ds.filter(d => d.code === CODE);

describe('the answer in the question', () => {
    it('a {rhs} placeholder in a binary phrasing: a warning at that phrasing naming the attribute and the remedy', async t => {
        const w = await movieWorld(`probe leak binary using movie_director {
    basic "Is the movie {title} ({year}) directed by {director}?"
    phrasing fine gold yes "Is there a director of the movie {title} released in {year}?"
}`);
        t.after(w.dispose);
        const ds = leaks(probeDiagnostics(w.model, w.data));
        assert.equal(ds.length, 1, JSON.stringify(ds));
        const probe = w.model.probes.find(p => p.name === 'leak')!;
        assert.equal(ds[0]!.severity, 'warning');
        assert.equal(ds[0]!.range.start.line, probe.phrasings[0]!.loc.range.start.line);
        assert.match(ds[0]!.message, /basic.*director.*right-hand side of movie_director/);
        assert.match(ds[0]!.message, /"Is the movie Avatar \(2009\) directed by James Cameron\?"/);
        assert.match(ds[0]!.message, /mention only the left-hand side \(title, year\)/);
    });

    it('a right-hand-side value written into the text, or shown through a function, is found too', async t => {
        const w = await movieWorld(`probe literal binary using movie_director {
    phrasing cameron gold yes "Did James Cameron direct {title} ({year})?"
}
probe shouted binary using movie_director {
    phrasing upper gold yes "Was {title} ({year}) directed by {upper(director)}?"
}`);
        t.after(w.dispose);
        const ds = leaks(probeDiagnostics(w.model, w.data));
        assert.deepEqual(ds.map(d => d.message.match(/^Phrasing (\w+)/)?.[1]).sort(), ['cameron', 'upper']);
    });

    it('questions that state only the left-hand side, and statement probes (which must state the fact), are not flagged', async t => {
        const w = await movieWorld(`fd Movie: title, year -> director, star as movie_people
probe says statement using movie_people {
    statement "{director} directed the movie {title} ({year})."
}`);
        t.after(w.dispose);
        assert.deepEqual(leaks(probeDiagnostics(w.model, w.data)), []);
    });

    for (const example of [
        'movie/movie.probe',
        'soccer/soccer.probe',
        'statements/statements.probe',
        'evidence/evidence.probe',
        'open/open.probe',
        'reeval/reeval.probe',
    ]) {
        it(`examples/${example} checks clean (no error, no warning)`, async () => {
            const checked = await checkSpec(path.join(repoRoot, 'examples', example));
            const all = [...checked.diagnostics, ...probeDiagnostics(checked.model, checked.data)];
            assert.deepEqual(
                all.map(d => `${d.range.start.line + 1} [${d.code}] ${d.message}`),
                [],
            );
        });
    }
});
