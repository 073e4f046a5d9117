// A contributor's check (issues 23, 33): a new probe family written in one folder (test/fixtures/families/echo), a core
// and the capabilities it has (src/core/probes/contract/), and registered by one line runs end to end with its own
// setting (allowed values: validated with a did-you-mean, completed by name and value in the language server), figures
// (md / json / csv / html / JUnit, the probe's CodeLens and hover; one spanning both phrasings), per-question data (in
// the store and the JSONL record), group relation (its verdicts stored), graph view (in the panel's protocol message)
// and offline-simulator rate — with no change outside its folder: src/ never names it, and a built-in family's folder
// is named by the registry's line alone.
// In the unit tier: it runs the engine in this process (runSpec, the server's completion), not the built CLI.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { familyKinds, registerFamily } from '../../../src/core/probes/registry.js';
import { grammarWithKinds } from '../../../scripts/grammar-kinds.mjs';
import { kindsIndex, settingsTables } from '../../../scripts/generated-docs.js';
import { questionRecord } from '../../../src/core/probes/question.js';
import { questionView } from '../../../src/core/kg/question-graph.js';
import { isHostToWebview, type HostToWebview } from '../../../src/protocol/webview.js';
import { settingNames } from '../../../src/core/language/validation/settings.js';
import { AstUtils } from 'langium';
import { isProbe } from '../../../src/core/language/generated/ast.js';
import { echoFamily } from '../../fixtures/families/echo/family.js';
import { runSpec } from '../../../src/core/run/spec-run.js';
import { anchorResults, fdOfProbe, loadReport, renderReport } from '../../../src/core/report/index.js';
import { figuresLine, summaryLine } from '../../../src/extension/results/summary.js';
import { openStore } from '../../../src/core/store/index.js';
import { loadSpec } from '../../../src/core/spec/load.js';
import { buildSpecTree, walk } from '../../../src/extension/testing/tree.js';
import { schemaGraph } from '../../../src/core/kg/index.js';
import { CompletionItemKind } from 'vscode-languageserver';
import { at, open, params, serverServices } from '../../server/support.js';
import { readdirSync, statSync } from 'node:fs';

const REPO = path.join(import.meta.dirname, '..', '..', '..');

/** Every file under a folder. */
function filesUnder(dir: string): string[] {
    return readdirSync(dir).flatMap(name => {
        const p = path.join(dir, name);
        return statSync(p).isDirectory() ? filesUnder(p) : [p];
    });
}

describe('a new probe family touches its folder and the registry line only', () => {
    let dir: string;
    let unregister: () => void;
    before(() => {
        unregister = registerFamily(echoFamily);
        dir = mkdtempSync(path.join(os.tmpdir(), 'halluprobe-echo-'));
        cpSync(path.join(import.meta.dirname, '..', '..', '..', 'examples', 'movie', 'data'), path.join(dir, 'data'), {
            recursive: true,
        });
        writeFileSync(
            path.join(dir, 'echo.probe'),
            `source movies csv "data/movies.csv"
relation Movie from movies { title: text = "common_entity"  year: int = "entity3"  director: text = "entity2"  star: text = "entity1"  key(title, year) }
probe exists echo about Movie { tone loud }
suite s { probes exists }
`,
        );
    });
    after(() => {
        unregister();
        rmSync(dir, { recursive: true, force: true });
    });

    it('validates its setting against the allowed values, with a did-you-mean, and completes its name', async () => {
        const bad = path.join(dir, 'bad-tone.probe');
        writeFileSync(bad, readFileSync(path.join(dir, 'echo.probe'), 'utf8').replace('tone loud', 'tone lowd'));
        const { diagnostics } = await loadSpec(bad);
        const d = diagnostics.find(x => x.code === 'setting-value');
        assert.ok(d, JSON.stringify(diagnostics));
        assert.equal(d.severity, 'error');
        assert.equal(d.range.start.line, 2);
        assert.equal(d.message, "tone: 'lowd' is not one of plain, loud, quiet. Did you mean 'loud'?");
        const { model, documents } = await loadSpec(path.join(dir, 'echo.probe'));
        assert.deepEqual(
            model.probes.map(p => p.settings),
            [{ tone: 'loud' }],
        );
        const probeNode = AstUtils.streamAllContents(documents[0]!.parseResult.value).find(
            n => isProbe(n) && n.name === 'exists',
        )!;
        assert.deepEqual(settingNames(probeNode), ['limit', 'read_with', 'decide_by', 'tone']);
    });

    it('generates, runs offline, verifies and reports with its own hooks: figure, data, group relation, graph', async () => {
        const spec = path.join(dir, 'echo.probe');
        const { model, diagnostics } = await loadSpec(spec);
        assert.deepEqual(
            diagnostics.filter(d => d.severity === 'error'),
            [],
        );
        const result = await runSpec({ spec, origin: 'test', confirmHost: async () => true, confirmCost: async () => true });
        assert.equal(result.status, 'completed');
        assert.equal(result.results.questions.length, 120);
        assert.ok(result.results.questions.every(q => q.kind === 'echo' && q.question.startsWith('DOES ')));
        const store = await openStore(result.store);
        try {
            // Per-question data: in the store, in the JSONL / preview record.
            const stored = (await store.loadRunResults(result.run.id))!;
            const first = stored.questions[0]!;
            assert.equal(first.echo?.tone, 'loud');
            assert.ok(first.echo!.value.length > 0);
            assert.deepEqual(questionRecord(first).echo, first.echo);
            // The group relation judged every pair.
            assert.equal(stored.groupVerdicts.length, 60);
            assert.ok(stored.groupVerdicts.every(g => g.relation === 'echo-pair' && ['same', 'different'].includes(g.outcome)));
            const { data } = await loadReport(store, result.run.id);
            const group = data.metrics.find(g => g.probe === 'exists' && g.phrasing === 'echo' && g.mode === 'all')!;
            assert.equal(group.n, 60);
            const repeated = (group.figures!.echo as { repeated: { value: number } }).repeated.value;
            assert.ok(repeated > 0 && repeated <= 1, String(repeated));
            const shown = String(Math.round(repeated * 10000) / 10000);
            // The figure in every format, without a line of report code for it.
            const json = JSON.parse(renderReport(data, 'json')) as {
                groups: { phrasing: string; mode: string; echo?: { repeated: { value: number } } }[];
            };
            assert.equal(
                json.groups.find(g => g.phrasing === 'echo' && g.mode === 'all')!.echo!.repeated.value,
                Math.round(repeated * 10000) / 10000,
            );
            // The figure on the probe's line: the CodeLens and the hover (issue 33), from the engine's per-line results.
            const line = anchorResults(stored, fdOfProbe(model)).get('probe:exists')![0]!;
            assert.ok(
                line.figures.some(f => f.name === 'echo_repeated' && Number(f.value) > 0),
                JSON.stringify(line.figures),
            );
            assert.match(summaryLine('sim', line), / · echo_repeated \d/);
            assert.match(figuresLine(line), /^Figures: .*echo_repeated \d/);
            // A figure that spans phrasings (issue 33): computed once over both askings of every row, the same on each
            // phrasing's group and on the probe's line, shown by the same figure columns.
            type Agree = { echo: { agree: { k: number; n: number; value: number } } };
            const agree = (phrasing: string) =>
                (data.metrics.find(g => g.probe === 'exists' && g.phrasing === phrasing && g.mode === 'all')!.figures as Agree)
                    .echo.agree;
            assert.equal(agree('echo').n, 60, 'one pair of answers per row');
            assert.ok(agree('echo').value > 0 && agree('echo').value <= 1, JSON.stringify(agree('echo')));
            assert.deepEqual(agree('echo_again'), agree('echo'));
            assert.equal(
                line.figures.find(f => f.name === 'echo_agree')?.value,
                String(Math.round(agree('echo').value * 10000) / 10000),
            );
            assert.match(figuresLine(line), /echo_agree \d/);
            const csv = renderReport(data, 'csv').split('\n');
            const header = csv[0]!.split(',');
            assert.deepEqual(header.slice(-2), ['echo_repeated', 'echo_agree']);
            assert.equal(
                csv
                    .find(l => l.includes(',echo,') && l.includes(',all,'))!
                    .split(',')
                    .at(-2),
                shown,
            );
            assert.match(
                renderReport(data, 'md'),
                new RegExp(`## Figures: echo[\\s\\S]*echo\\\\_repeated[\\s\\S]*${shown.replace('.', '\\.')}`),
            );
            assert.match(
                renderReport(data, 'html'),
                new RegExp(`Figures: echo[\\s\\S]*echo_(?:<wbr>)?repeated[\\s\\S]*${shown.replace('.', '\\.')}`),
            );
            assert.match(
                renderReport(data, 'junit'),
                new RegExp(`<property name="echo echo_repeated" value="${shown.replace('.', '\\.')}"/>`),
            );
            assert.ok(data.questionGroups.some(g => g.relation === 'echo-pair' && g.n === 60));
            // The graph view, as the panel's protocol message carries it.
            const v = stored.verdicts.find(x => x.questionId === first.id)!;
            const message: HostToWebview = {
                type: 'init',
                panel: 'graph',
                data: questionView(first, v, stored.answers.find(a => a.questionId === first.id)?.text, schemaGraph(model, spec)),
            };
            assert.ok(isHostToWebview(message));
            assert.deepEqual(
                (message.data as { graph: { claims?: { text: string }[] } }).graph.claims!.map(c => c.text),
                ['echo in a loud tone'],
            );
        } finally {
            await store.close();
        }
        const tree = buildSpecTree(spec, model, 'echo.probe');
        assert.deepEqual(
            [...walk(tree)].filter(n => n.kind === 'phrasing').map(n => n.label),
            ['echo', 'echo_again'],
        );
    });

    it('an unregistered kind is a located error naming the known kinds, never a default', async () => {
        const spec = path.join(dir, 'nope.probe');
        writeFileSync(
            spec,
            'source movies csv "data/movies.csv"\nrelation Movie from movies { title: text = "common_entity"  year: int = "entity3"  key(title, year) }\nprobe p nope about Movie { }\n',
        );
        const { diagnostics } = await loadSpec(spec);
        const d = diagnostics.find(x => x.code === 'probe-kind');
        assert.ok(d, JSON.stringify(diagnostics));
        assert.equal(d.range.start.line, 2);
        assert.match(d.message, /Unknown probe kind 'nope': use one of binary, choice, path, knows, (?:\w+, )*echo/);
        await assert.rejects(
            runSpec({ spec, origin: 'test', confirmHost: async () => true, confirmCost: async () => true }),
            /probe-kind/,
        );
    });

    it('completes its setting by name and by value in the language server', async () => {
        const s = serverServices();
        const d = await open(
            s,
            path.join(dir, 'complete.probe'),
            readFileSync(path.join(dir, 'echo.probe'), 'utf8').replace('{ tone loud }', '{\n    tone \n}'),
        );
        const complete = async (needle: string, delta: number) =>
            (await s.probe.lsp.CompletionProvider!.getCompletion(d, { ...params(d), position: at(d, needle, delta) }))?.items ??
            [];
        const values = (await complete('tone ', 5)).filter(i => i.kind === CompletionItemKind.Value);
        assert.deepEqual(
            values.map(i => i.label),
            ['plain', 'loud', 'quiet'],
        );
        assert.match(String(values[0]!.documentation), /How the question is asked/);
        const names = (await complete('{\n    ', 6)).filter(i => i.kind === CompletionItemKind.Property).map(i => i.label);
        assert.ok(names.includes('tone') && names.includes('limit'), names.join(', '));
    });

    it('is highlighted, completed as a kind and listed in the docs from the registry alone (issue 33)', async () => {
        // Highlighting: the grammar's kind lists are written from the registry (scripts/grammar-kinds.mjs).
        const grammarText = readFileSync(path.join(REPO, 'syntaxes', 'probe.tmLanguage.json'), 'utf8');
        const regexes = (text: string) =>
            [...text.matchAll(/"match": "(\\\\b\(probe\)[^"]*)"/g)].map(m => new RegExp(JSON.parse(`"${m[1]}"`) as string));
        const line = 'probe exists echo about Movie {';
        assert.ok(
            !regexes(grammarText).some(r => r.exec(line)?.[3] === 'echo'),
            'the shipped grammar knows the built-in kinds only',
        );
        assert.ok(regexes(grammarWithKinds(grammarText, familyKinds())).some(r => r.exec(line)?.[3] === 'echo'));
        // Completion of the kind after `probe NAME `.
        const s = serverServices();
        const d = await open(
            s,
            path.join(dir, 'kind.probe'),
            readFileSync(path.join(dir, 'echo.probe'), 'utf8').replace(
                'probe exists echo about Movie { tone loud }',
                'probe exists ',
            ),
        );
        const items =
            (await s.probe.lsp.CompletionProvider!.getCompletion(d, { ...params(d), position: at(d, 'probe exists ', 13) }))
                ?.items ?? [];
        const kinds = items.filter(i => i.kind === CompletionItemKind.EnumMember).map(i => i.label);
        assert.ok(kinds.includes('echo') && kinds.includes('binary'), kinds.join(', '));
        // The docs: the kinds index and the settings tables of docs/language.md.
        assert.match(kindsIndex(), /\| `echo` \| `about <relation>` \| — \| one "does it exist\?" question per row/);
        assert.match(settingsTables(), /### `echo` probe settings\n\n[^#]*\| `tone` \| one of plain, loud, quiet \|/);
    });

    it('its offline-simulator rate is a model setting its hook reads', async () => {
        const spec = path.join(dir, 'doubting.probe');
        writeFileSync(
            spec,
            readFileSync(path.join(dir, 'echo.probe'), 'utf8').replace(
                'suite s { probes exists }',
                'model doubting offline { knowledge 1  doubts 1 }\nsuite s { probes exists  models doubting }',
            ),
        );
        const { diagnostics } = await loadSpec(spec);
        assert.deepEqual(
            diagnostics.filter(x => x.severity !== 'info').map(x => x.code),
            [],
        );
        const result = await runSpec({ spec, origin: 'test', confirmHost: async () => true, confirmCost: async () => true });
        assert.equal(result.status, 'completed');
        assert.equal(result.results.verdicts.length, 120);
        assert.ok(result.results.verdicts.every(v => v.answer === 'no'));
    });

    it("a built-in family's folder is named by the registry alone, one import line each", () => {
        const named = new Map<string, string[]>();
        for (const f of filesUnder(path.join(REPO, 'src')).filter(x => x.endsWith('.ts'))) {
            const rel = path.relative(REPO, f);
            for (const m of readFileSync(f, 'utf8').matchAll(/from '[^']*\/families\/([^/']+)\//g)) {
                if (rel.startsWith(`src/core/families/${m[1]}/`)) continue;
                named.set(m[1]!, [...(named.get(m[1]!) ?? []), rel]);
            }
        }
        const builtIn = familyKinds().filter(k => k !== 'echo');
        assert.deepEqual([...named.keys()].sort(), [...builtIn].sort());
        for (const kind of builtIn) assert.deepEqual(named.get(kind), ['src/core/probes/registry.ts'], kind);
    });

    it('lives in its folder only: src/ names neither the family nor its folder', () => {
        const named = filesUnder(path.join(REPO, 'src')).filter(
            f => /\.(ts|langium|json)$/.test(f) && /\bechoFamily\b|families\/echo\b|kind: 'echo'/.test(readFileSync(f, 'utf8')),
        );
        assert.deepEqual(named, []);
        assert.deepEqual(
            filesUnder(path.join(REPO, 'test', 'fixtures', 'families', 'echo')).map(f => path.basename(f)),
            ['family.ts'],
        );
    });
});
