/**
 * Issue 28: "the failing-question list can name the wrong conflicting value ('Europe' contradicted by
 * 'Île-de-France' where the model wrote 'Lombardy')". A value the rationale states rightly for another hop of
 * the same question is that hop's keyword, not a conflict of this one.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import '../../../src/core/probes/registry.js';
import { createVerifyContext, verify } from '../../../src/core/verify/verify.js';
import { buildReport, failureReason } from '../../../src/core/report/index.js';
import type { LoadedData } from '../../../src/core/data/types.js';
import { kw, question, spec, table } from '../../fixtures/verify/world.js';

const places = table('Place', [['name', 'text']], [['Europe'], ['Île-de-France'], ['Lombardy'], ['Bavaria']]);
const data: LoadedData = { tables: new Map([['Place', places]]), diagnostics: [] };

describe('issue 28: the conflicting value the failing list names', () => {
    const q = question(
        'Is Paris Saint-Germain based in a region of a continent?',
        [[kw('Place', 'name', 'Île-de-France')], [kw('Place', 'name', 'Europe')]],
        { kind: 'path', probe: 'club_region' },
    );
    const text = 'Yes. Paris Saint-Germain is based in Île-de-France, and Île-de-France lies in Lombardy.';

    it("is the value the model wrote for that hop, not another hop's keyword", () => {
        const v = verify(q, text, createVerifyContext(spec, data), 'm');
        assert.equal(v.hops[0]!.status, 'found');
        const europe = v.hops[1]!.keywords[0]!;
        assert.equal(europe.status, 'contradicted');
        assert.equal(europe.conflict?.value, 'Lombardy');
        assert.equal(europe.conflict?.row?.line, 4, 'the row of Lombardy');
        assert.equal(text.slice(europe.conflict!.spans[0]!.start, europe.conflict!.spans[0]!.end), 'Lombardy');
    });

    it('and the failing list says so', () => {
        const v = verify(q, text, createVerifyContext(spec, data), 'm');
        const run = {
            id: 'r',
            spec: 'world.probe',
            suite: 's',
            started: '2026-11-27T00:00:00Z',
            finished: null,
            status: 'completed',
        };
        const d = buildReport({
            run,
            questions: [q],
            answers: [{ questionId: q.id, model: 'm', sample: 0, text }],
            verdicts: [v],
        });
        const why = failureReason(d.rows[0]!);
        assert.match(why, /"Europe" contradicted by "Lombardy"/);
        assert.doesNotMatch(why, /Île-de-France/);
    });
});
