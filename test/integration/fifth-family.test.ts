// A probe family defined here, in the test, runs end to end — spec validation, generation, the offline
// simulator, verification, metrics, reports, the Test Explorer tree — with no change outside the registry.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ProbeFamily } from '../../src/core/probes/family.js';
import { registerFamily } from '../../src/core/probes/families.js';
import { compilePhrasings, phrasedItems, starPath } from '../../src/core/probes/plan.js';
import { keyAttributes, Scope, slotFor } from '../../src/core/probes/scope.js';
import { parseYesNo, scoreYesNo, yesNoGuess, yesNoText } from '../../src/core/probes/answers.js';
import { runSpec } from '../../src/core/run/spec-run.js';
import { loadReport, renderReport } from '../../src/core/report/index.js';
import { openStore } from '../../src/core/store/index.js';
import { loadSpec } from '../../src/core/spec/load.js';
import { buildSpecTree, walk } from '../../src/extension/testing/tree.js';

/** "Does <key> exist?": one yes question per row; the rationale must name the row's first non-key value. */
const echo: ProbeFamily = {
    kind: 'echo',
    title: 'one "does it exist?" question per row',
    target: 'relation',
    example: "write 'about <relation>'",
    members: [],
    settings: [],
    compile({ spec, data, probe, problems }) {
        const slot = slotFor(spec, data.tables, probe.relation ?? '');
        if (typeof slot === 'string') { problems.push({ loc: probe.loc, severity: 'error', code: 'probe-data', message: slot }); return undefined; }
        const scope = new Scope([slot], [{ slot: 0 }]);
        const key = keyAttributes(slot.relation);
        const other = slot.relation.attributes.find(a => !key.includes(a.name))!.name;
        for (const a of [...key, other]) scope.need(0, a);
        const phrasings = compilePhrasings(scope, [{ name: 'echo', gold: { kind: 'yes' }, text: `Does {${key[0]}} exist?`, loc: probe.loc }]);
        return {
            probe, scope, system: 'Answer yes or no, then explain.', constraints: [slot.relation.loc],
            bind(row, rows) { rows[0] = row; return scope.hasNull(rows) ? 'null' : undefined; },
            items: rows => phrasedItems(scope, phrasings, rows, [scope.keywords(rows, 0, other, { relation: slot.relation.name, attribute: other })], ''),
            path: rows => starPath(scope, rows, key, [other]),
        };
    },
    phrasings: () => ['echo'],
    pathPerItem: false,
    parse: parseYesNo,
    score: scoreYesNo,
    measured: true,
    decidesKnowledge: false,
    metricExtras: items => ({ C: items.length }),
    meanOverPhrasings: false,
    reportSections: groups => [{ title: 'Echo section', columns: ['model', 'n'], rows: groups.map(g => [g.model, String(g.n)]) }],
    answerText: yesNoText,
    guess: yesNoGuess,
};

describe('a fifth probe family registered by a test', () => {
    let dir: string;
    let unregister: () => void;
    before(() => {
        unregister = registerFamily(echo);
        dir = mkdtempSync(path.join(os.tmpdir(), 'halluprobe-echo-'));
        cpSync(path.join(import.meta.dirname, '..', '..', 'examples', 'movie', 'data'), path.join(dir, 'data'), { recursive: true });
        writeFileSync(path.join(dir, 'echo.probe'), `source movies csv "data/movies.csv"
relation Movie from movies { title: text = "common_entity"  year: int = "entity3"  director: text = "entity2"  star: text = "entity1"  key(title, year) }
probe exists echo about Movie { }
suite s { probes exists }
`);
    });
    after(() => { unregister(); rmSync(dir, { recursive: true, force: true }); });

    it('validates, generates, runs offline, verifies and reports with its own hooks', async () => {
        const spec = path.join(dir, 'echo.probe');
        const { model, diagnostics } = await loadSpec(spec);
        assert.deepEqual(diagnostics.filter(d => d.severity === 'error'), []);
        const result = await runSpec({ spec, origin: 'test', confirmHost: async () => true, confirmCost: async () => true });
        assert.equal(result.status, 'completed');
        assert.equal(result.results.questions.length, 60);
        assert.ok(result.results.questions.every(q => q.kind === 'echo' && q.question.startsWith('Does ')));
        assert.equal(result.results.verdicts.length, 60);
        const store = openStore(result.store);
        try {
            const { data } = await loadReport(store, result.run.id);
            const group = data.metrics.find(g => g.probe === 'exists' && g.mode === 'all')!;
            assert.equal(group.n, 60);
            assert.equal(group.C, 60, 'the family\'s own metric extras are applied');
            assert.ok(group.A! > 0.5, `A ${group.A}`);
            assert.match(renderReport(data, 'md'), /## Echo section/);
            assert.match(renderReport(data, 'html'), /<h2>Echo section<\/h2>/);
        } finally {
            store.close();
        }
        const tree = buildSpecTree(spec, model, 'echo.probe');
        assert.deepEqual([...walk(tree)].filter(n => n.kind === 'phrasing').map(n => n.label), ['echo']);
    });

    it('an unregistered kind is a located error naming the known kinds, never a default', async () => {
        const spec = path.join(dir, 'nope.probe');
        writeFileSync(spec, 'source movies csv "data/movies.csv"\nrelation Movie from movies { title: text = "common_entity"  year: int = "entity3"  key(title, year) }\nprobe p nope about Movie { }\n');
        const { diagnostics } = await loadSpec(spec);
        const d = diagnostics.find(x => x.code === 'probe-kind');
        assert.ok(d, JSON.stringify(diagnostics));
        assert.equal(d.range.start.line, 2);
        assert.match(d.message, /Unknown probe kind 'nope': use one of binary, choice, path, knows, (?:\w+, )*echo/);
        await assert.rejects(runSpec({ spec, origin: 'test', confirmHost: async () => true, confirmCost: async () => true }), /probe-kind/);
    });
});
