import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { diffGenerations, generateQuestions, questionFingerprint } from '../../../src/core/probes/index.js';
import { movieWorld, MOVIES_CSV } from '../../fixtures/probes/world.js';

describe('continuous evaluation', () => {
    it('reports new, removed and changed questions after a data edit', async t => {
        const before = await movieWorld();
        // Spectre's director changes (its questions change), Dunkirk is removed, Tenet is added.
        const edited =
            MOVIES_CSV.replace('Spectre,2015,Sam Mendes', 'Spectre,2015,Someone Else').replace(/\nDunkirk.*\n?/, '\n') +
            'Tenet,2020,Christopher Nolan,John David Washington,1970,150,Time runs backwards.\n';
        const after = await movieWorld('', edited);
        t.after(() => {
            before.dispose();
            after.dispose();
        });
        const earlier = [...generateQuestions(before.model, before.data, { probe: 'director_decade' }).questions].map(q => ({
            id: q.id,
            fingerprint: questionFingerprint(q),
        }));
        const diff = diffGenerations(earlier, generateQuestions(after.model, after.data, { probe: 'director_decade' }).questions);
        assert.equal(diff.new.length, 2, 'Tenet: basic and negated');
        assert.equal(diff.removed.length, 2, 'Dunkirk');
        assert.equal(diff.changed.length, 2, 'Spectre: hop-1 keyword changed (and the decade with it)');
        assert.equal(diff.unchanged, 8);
    });

    it('finds nothing to re-run when nothing changed', async t => {
        const w = await movieWorld();
        t.after(w.dispose);
        const earlier = [...generateQuestions(w.model, w.data).questions].map(q => ({
            id: q.id,
            fingerprint: questionFingerprint(q),
        }));
        const diff = diffGenerations(earlier, generateQuestions(w.model, w.data).questions);
        assert.deepEqual({ ...diff, unchanged: 0 }, { new: [], removed: [], changed: [], unchanged: 0 });
        assert.equal(diff.unchanged, earlier.length);
    });
});
