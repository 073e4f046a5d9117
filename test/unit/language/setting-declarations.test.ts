// Issue 33: every block's settings are declared once (suite, model, source, every probe's, each family's) and the
// language checks, completes and hovers from the declarations. A setting a suite cannot read (a model's or a probe's,
// or one removed) is a located error saying where it belongs (`setting-place`), not a warning that it is ignored.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CompletionItemKind } from 'vscode-languageserver';
import { covered, MOVIE, parseSpec } from './support.js';
import { at, open, params, serverServices } from '../../server/support.js';

async function settingProblems(text: string) {
    const doc = await parseSpec(`${MOVIE}\n${text}\n`);
    return (doc.diagnostics ?? [])
        .filter(d => ['setting-place', 'setting-value', 'unknown-setting'].includes(String(d.code)))
        .map(d => ({ code: d.code, severity: d.severity, message: String(d.message), covers: covered(doc, d) }));
}

describe('settings from their declarations', () => {
    const misplaced: { block: string; covers: string; message: RegExp }[] = [
        {
            block: 'suite s { probes b  knowledge_probe k }',
            covers: 'knowledge_probe',
            message: /^'knowledge_probe' is not a suite setting any more: name a knows probe in the suite's `probes`/,
        },
        {
            block: 'suite s { probes b  id "gpt-4o" }',
            covers: 'id',
            message: /^'id' is not a suite setting: it is a model setting; write it in the model block\.$/,
        },
        {
            block: 'suite s { probes b  explain "x" }',
            covers: 'explain',
            message: /^'explain' is not a suite setting: it is a binary \/ path probe setting; write it in the probe\.$/,
        },
        {
            block: 'model m openai { id "x"  api_version "2024-06-01" }',
            covers: 'api_version',
            message: /^'api_version' is not a model setting any more: .*v1 URL/,
        },
        {
            block: 'probe p path along Movie.director -> Director.birth_year { max_hops 2 }',
            covers: 'max_hops',
            message: /^'max_hops' is not a path probe setting any more: a path probe asks every hop/,
        },
    ];
    for (const c of misplaced) {
        it(`${c.covers} where it cannot work: a located error saying where it belongs`, async () => {
            const ds = await settingProblems(`probe b binary using movie_title { }\n${c.block}`);
            assert.equal(ds.length, 1, JSON.stringify(ds));
            assert.deepEqual([ds[0]!.code, ds[0]!.severity, ds[0]!.covers], ['setting-place', 1, c.covers]);
            assert.match(ds[0]!.message, c.message);
        });
    }

    it('checks the values of suite, model and source settings too, with the closest allowed value', async () => {
        const ds = await settingProblems(`probe b binary using movie_title { }
suite s { probes b  concurrency 0  timeout_ms 2.5 }
model m openai { id "x"  pacing fixd  stream "yes" }`);
        assert.deepEqual(
            ds.map(d => [d.code, d.covers, d.message]),
            [
                ['setting-value', '0', 'concurrency: is a whole number of at least 1, not 0.'],
                ['setting-value', '2.5', 'timeout_ms: is a whole number of at least 1, not 2.5.'],
                ['setting-value', 'fixd', "pacing: 'fixd' is not one of endpoint, fixed. Did you mean 'fixed'?"],
                ['setting-value', '"yes"', "stream: is true or false, not 'yes'."],
            ],
        );
        assert.deepEqual(
            await settingProblems(
                'probe b binary using movie_title { }\nsuite s { probes b  concurrency 4  rpm 60  limit 20  seed 7  batch false }\nmodel m openai { id "x"  concurrency 2  pacing fixed }',
            ),
            [],
        );
    });

    it("completes a suite's settings and a model setting's values, and hovers with the declaration", async () => {
        const s = serverServices();
        const d = await open(
            s,
            '/mem/complete-settings.probe',
            `${MOVIE}\nprobe b binary using movie_title { }\nmodel m openai {\n    id "x"\n    concurrency 2\n    pacing \n}\nsuite s {\n    probes b\n    \n}\n`,
        );
        const complete = async (needle: string, delta: number) =>
            (await s.probe.lsp.CompletionProvider!.getCompletion(d, { ...params(d), position: at(d, needle, delta) }))?.items ??
            [];
        const suiteNames = (await complete('probes b\n    ', 13))
            .filter(i => i.kind === CompletionItemKind.Property)
            .map(i => i.label);
        for (const name of ['concurrency', 'rpm', 'timeout_ms', 'limit', 'seed', 'batch'])
            assert.ok(suiteNames.includes(name), `${name} in ${suiteNames.join(', ')}`);
        assert.ok(!suiteNames.includes('knowledge_probe') && !suiteNames.includes('id'));
        const values = (await complete('pacing ', 7)).filter(i => i.kind === CompletionItemKind.Value).map(i => i.label);
        assert.deepEqual(values, ['endpoint', 'fixed']);
        const hover = await s.probe.lsp.HoverProvider!.getHoverContent(d, { ...params(d), position: at(d, 'concurrency 2', 2) });
        const text = hover && typeof hover.contents === 'object' && 'value' in hover.contents ? hover.contents.value : '';
        assert.match(text, /\*\*setting\*\* `concurrency` — Requests in flight at once/);
        assert.match(text, /Takes a whole number of at least 1\./);
        assert.match(text, /A suite may set it for its models; the model's own value wins\./);
    });
});
