// A model step that cannot use its model (the model reader, a judge, claim extraction, embeddings) says so as a
// located Problem: code model-step, a warning, at the declaration of the model at fault (or of the probe that names
// it), with a remedy that ends with what the step does meanwhile — from a run and from a report that verifies.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { repoRoot } from '../support/runner-fixtures.js';
import { runSpec } from '../../src/core/run/index.js';
import { loadReport } from '../../src/core/report/index.js';
import { openStore } from '../../src/core/store/index.js';
import type { Problem } from '../../src/core/errors.js';

/** A model that needs a key nobody set (never called: the step gives up before asking). */
const keyless = (name: string) =>
    `\nmodel ${name} openai {\n    id "m"\n    endpoint "https://models.invalid/v1"\n    key_env "HP_TEST_NO_SUCH_KEY"\n}\n`;

describe('model steps report located problems', () => {
    let dir: string;
    const env = { ...process.env };
    delete env.HP_TEST_NO_SUCH_KEY;
    delete env.OPENAI_API_KEY;

    /** The example's spec with `setting` put into its probe(s) matching `probe`, and the keyless model declared. */
    const spec = (folder: string, probe: RegExp, setting: string, model: string) => {
        const source = readFileSync(path.join(dir, folder, `${folder}.probe`), 'utf8');
        const text = source.replace(probe, `$1\n    ${setting}`) + keyless(model);
        const file = path.join(dir, folder, `steps.probe`);
        writeFileSync(file, text);
        const line = text.split('\n').findIndex(l => l.startsWith(`model ${model} `));
        return { file, line };
    };
    const stepProblems = (ps: readonly Problem[]) => ps.filter(p => p.code === 'model-step');

    before(() => {
        dir = mkdtempSync(path.join(os.tmpdir(), 'halluprobe-step-problems-'));
        for (const f of ['evidence', 'rules']) cpSync(path.join(repoRoot, 'examples', f), path.join(dir, f), { recursive: true });
        for (const f of ['movie', 'soccer'])
            cpSync(path.join(repoRoot, 'examples', f, 'data'), path.join(dir, f, 'data'), { recursive: true });
    });
    after(() => rmSync(dir, { recursive: true, force: true }));

    it("a run: the evidence judge without its key is a warning at the judge's declaration, remedy and fallback said", async () => {
        const { file, line } = spec('evidence', /(probe directed_by evidence about Movie \{)/, 'judge_with judge', 'judge');
        const result = await runSpec({
            spec: file,
            db: path.join(dir, 'evidence.db'),
            limit: 4,
            env,
            origin: 'test',
            confirmHost: async () => true,
            confirmCost: async () => true,
        });
        assert.equal(result.status, 'completed');
        const found = stepProblems(result.notes);
        assert.equal(found.length, 1, JSON.stringify(result.notes));
        const p = found[0]!;
        assert.equal(p.severity, 'warning');
        assert.match(p.message, /^judge_with judge: .*no API key/);
        assert.equal(p.location?.file, file);
        assert.equal(p.location?.range?.start.line, line, 'the model declaration');
        assert.match(p.remedy ?? '', /Until then, its entailment is n\/a\.$/);
    });

    it('a report that verifies a --no-verify run: rule embeddings without a key, located at the model, in the problems', async () => {
        const { file, line } = spec('rules', /(probe \w+ rule using \w+ \{)/g, 'embeddings emb', 'emb');
        const db = path.join(dir, 'rules.db');
        const result = await runSpec({
            spec: file,
            db,
            limit: 4,
            env,
            verify: false,
            origin: 'test',
            confirmHost: async () => true,
            confirmCost: async () => true,
        });
        assert.equal(result.status, 'completed');
        const store = await openStore(db);
        try {
            const { problems } = await loadReport(store, result.run.id);
            const found = stepProblems(problems);
            assert.equal(found.length, 1, JSON.stringify(problems));
            const p = found[0]!;
            assert.equal(p.severity, 'warning');
            assert.match(p.message, /^embeddings emb: /);
            assert.equal(p.location?.file, file);
            assert.equal(p.location?.range?.start.line, line, 'the model declaration');
            assert.match(p.remedy ?? '', /Until then, the overlaps match exactly or by alias\.$/);
        } finally {
            await store.close();
        }
    });
});
