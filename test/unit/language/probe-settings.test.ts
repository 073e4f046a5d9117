// Issue 24 item 11 / issue 23 item 2: a probe's settings are its family's (ProbeFamily.settings, through the
// registry). Every value is checked against the declaration: a located error on the value with a "did you mean",
// never a silent fall-back; a name the family does not read is a warning naming the family's closest setting.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { covered, diagnose, MOVIE, parseSpec } from './support.js';
import { BUILTIN_FAMILIES, probeSettings } from '../../../src/core/probes/registry.js';

async function settingDiagnostics(probe: string) {
    const doc = await parseSpec(`${MOVIE}\n${probe}\n`);
    return (doc.diagnostics ?? [])
        .filter(d => d.code === 'setting-value' || d.code === 'unknown-setting')
        .map(d => ({
            code: d.code,
            message: String(d.message),
            covers: covered(doc, d),
            data: d.data as { suggestion?: string } | undefined,
        }));
}

describe('probe setting values (each family declares its settings)', () => {
    const cases: { name: string; probe: string; covers: string; message: RegExp; suggestion?: string }[] = [
        {
            name: 'open form "subgraphs"',
            probe: 'probe o open about Movie { form "subgraphs" }',
            covers: '"subgraphs"',
            message: /^form: 'subgraphs' is not one of triplets, paths, subgraph\. Did you mean 'subgraph'\?$/,
            suggestion: 'subgraph',
        },
        {
            name: 'open perturb ["rewiring"]',
            probe: 'probe o open about Movie { perturb ["rewiring"] }',
            covers: '["rewiring"]',
            message: /'rewiring' is not one of swap, replace, rewire, delete\. Did you mean 'rewire'\?/,
            suggestion: 'rewire',
        },
        {
            name: 'open levels [25, 50]',
            probe: 'probe o open about Movie { levels [25, 50] }',
            covers: '[25, 50]',
            message: /^levels: is a number in \(0, 1\], not 25\.$/,
        },
        {
            name: 'evidence swap_with sameshape',
            probe: 'probe e evidence about Movie { question "Who directed {title}?" answer director passage "{title} by {director}." swap_with sameshape }',
            covers: 'sameshape',
            message: /'sameshape' is not one of same_column, same_type, same_shape\. Did you mean 'same_shape'\?/,
            suggestion: 'same_shape',
        },
        {
            name: 'knows known_if',
            probe: 'probe k knows about Movie { known_if only_yess ask "Do you know {title}?" }',
            covers: 'only_yess',
            message: /Did you mean 'only_yes'\?/,
            suggestion: 'only_yes',
        },
        {
            name: 'path ar_ext',
            probe: 'probe p path along Movie.director -> Director.birth_year { ar_ext completed }',
            covers: 'completed',
            message: /Did you mean 'complete'\?/,
            suggestion: 'complete',
        },
        {
            name: 'statement negatives out of range',
            probe: 'probe s statement using movie_facts { negatives 40 }',
            covers: '40',
            message: /^negatives: is a whole number in \[1, 20\], not 40\.$/,
        },
        {
            name: 'choice none_of_above a text',
            probe: 'probe c choice using movie_title { none_of_above "some" }',
            covers: '"some"',
            message: /^none_of_above: is a number in \[0, 1\], not 'some'\.$/,
        },
        {
            name: 'a single value where one is wanted, not a list',
            probe: 'probe o open about Movie { form ["paths"] }',
            covers: '["paths"]',
            message: /takes one value/,
        },
        {
            name: "limit is every family's and a whole number",
            probe: 'probe b binary using movie_title { limit 2.5 }',
            covers: '2.5',
            message: /^limit: is a whole number of at least 1, not 2\.5\.$/,
        },
    ];
    for (const c of cases) {
        it(`${c.name}: a located error with the closest allowed value`, async () => {
            const ds = (await settingDiagnostics(c.probe)).filter(d => d.code === 'setting-value');
            assert.equal(ds.length, 1, JSON.stringify(ds));
            assert.equal(ds[0]!.covers, c.covers);
            assert.match(ds[0]!.message, c.message);
            assert.equal(ds[0]!.data?.suggestion, c.suggestion);
        });
    }

    it('values that fit pass without a word', async () => {
        const ds =
            await settingDiagnostics(`probe o open about Movie { form "paths" perturb [rewire, delete] levels [0.5, 1] baseline false k 2 limit 3 }
probe e evidence about Movie { question "Who directed {title}?" answer director passage "{title} by {director}." swap_with same_shape perturb [swap, closed] }
probe s statement using movie_facts { negatives 3 corrupt [head, relation] }`);
        assert.deepEqual(ds, []);
    });

    it("a setting another family reads is unknown here, with the closest of this family's", async () => {
        const ds = await settingDiagnostics('probe b binary using movie_title { ar_ext complete  explian "x" }');
        assert.deepEqual(
            ds.map(d => [d.code, d.covers]),
            [
                ['unknown-setting', 'ar_ext'],
                ['unknown-setting', 'explian'],
            ],
        );
        assert.match(ds[0]!.message, /^Unknown binary probe setting 'ar_ext'; it is ignored\./);
        assert.match(ds[1]!.message, /Did you mean 'explain'\?/);
    });

    it('the movie spec stays clean', async () => {
        assert.deepEqual(
            (await diagnose(MOVIE)).map(d => d.message),
            [],
        );
    });

    it('every built-in family declares the settings it reads, each with a doc line, no name twice', () => {
        for (const kind of Object.keys(BUILTIN_FAMILIES)) {
            const settings = probeSettings(kind)!;
            assert.ok(
                settings.some(s => s.name === 'limit'),
                kind,
            );
            assert.equal(new Set(settings.map(s => s.name)).size, settings.length, kind);
            for (const s of settings) assert.ok(s.doc.length > 10, `${kind}.${s.name}`);
        }
    });
});
