// The offline simulator's rates belong to the families (issue 23): a family declares its own (`simulatorRates`),
// an `offline` model block accepts and completes them by name, the simulator fills their defaults and hands them to
// the family's hooks. The shared simulator knows only its own rates (knowledge, unsure, omit, contradict, seed).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { AstUtils } from 'langium';
import { DEFAULT_RATES, OfflineClient, offlineRates } from '../../../src/core/models/offline.js';
import { capabilityOf, familyKinds, registerFamily } from '../../../src/core/probes/registry.js';
import { settingNames } from '../../../src/core/language/validation/settings.js';
import { isModel } from '../../../src/core/language/generated/ast.js';
import { loadSpec } from '../../../src/core/spec/load.js';
import { movieQuestions } from '../../support/questions.js';
import { echoFamily } from '../../fixtures/families/echo/family.js';

const SHARED = ['knowledge', 'unsure', 'omit', 'contradict', 'seed'];

describe("simulator rates are the families'", () => {
    let unregister: () => void;
    let dir: string;
    before(() => {
        unregister = registerFamily(echoFamily);
        dir = mkdtempSync(path.join(os.tmpdir(), 'halluprobe-rates-'));
    });
    after(() => {
        unregister();
        rmSync(dir, { recursive: true, force: true });
    });

    it('every built-in rate beyond the shared ones is declared by exactly one family, with its default', () => {
        const own = Object.keys(DEFAULT_RATES).filter(k => !SHARED.includes(k));
        assert.ok(own.length > 0);
        for (const name of own) {
            const declared = familyKinds().flatMap(k => (capabilityOf(k, 'simulator')?.rates ?? []).filter(r => r.name === name));
            assert.equal(declared.length, 1, name);
            assert.equal(declared[0]!.default, DEFAULT_RATES[name], name);
        }
    });

    it("a registered family's rate is read from the model block, with its default otherwise", () => {
        assert.equal(offlineRates({}).doubts, 0);
        assert.equal(offlineRates({ doubts: 0.5 }).doubts, 0.5);
        assert.equal(offlineRates({ doubts: 0.5 }).knowledge, DEFAULT_RATES.knowledge);
    });

    it("the simulator hands the rates to the family's hook", () => {
        const questions = movieQuestions(40).map(q => ({ ...q, kind: 'echo' }));
        const sure = new OfflineClient('s', offlineRates({ knowledge: 1, doubts: 0 }));
        const doubting = new OfflineClient('d', offlineRates({ knowledge: 1, doubts: 1 }));
        assert.ok(questions.every(q => sure.answer(q).startsWith('Yes')));
        assert.ok(questions.every(q => doubting.answer(q).startsWith('No')));
    });

    it("an offline model block knows and completes every family's rates", async () => {
        const spec = path.join(dir, 'rates.probe');
        const csv = path.join(import.meta.dirname, '..', '..', '..', 'examples', 'movie', 'data', 'movies.csv');
        writeFileSync(
            spec,
            `source movies csv ${JSON.stringify(csv)}
relation Movie from movies { title: text = "common_entity"  year: int = "entity3"  director: text = "entity2"  key(title, year) }
model sim offline { doubts 0.5  wrong_premises 0.1  follows 1  trusts_memory 0.2 }
probe exists echo about Movie { }
suite s { probes exists }
`,
        );
        const { diagnostics, documents } = await loadSpec(spec);
        assert.deepEqual(
            diagnostics.filter(d => d.code === 'unknown-setting').map(d => d.message),
            [],
        );
        const model = AstUtils.streamAllContents(documents[0]!.parseResult.value).find(isModel)!;
        const names = settingNames(model);
        for (const n of [
            'doubts',
            'wrong_premises',
            'wrong_inferences',
            'flips_twins',
            'follows',
            'invents',
            'trusts_memory',
            'knowledge',
        ])
            assert.ok(names.includes(n), n);
    });
});
