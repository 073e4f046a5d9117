/**
 * Real data: the replay of GPT-3.5's published answers to ERBench's movie questions must reproduce the paper's
 * figures — Table 18 (all questions) and Table 2 (entities the model knows) — within ±0.02.
 * Reads ../shared (next to the repository): in CI a missing file fails; locally it is skipped, loudly.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { createVerifyContext, verify } from '../../src/core/verify/verify.js';
import { computeMetrics, type GroupMetrics } from '../../src/core/verify/metrics.js';
import type { Verdict } from '../../src/core/verify/types.js';
import { loadSpec } from '../../src/core/spec/load.js';
import { loadData } from '../../src/core/data/index.js';
import { generateQuestions } from '../../src/core/probes/index.js';
import { parseErbenchLog } from '../../src/core/models/erbench-log.js';
import { sharedMissing, sharedPath } from '../support/shared.js';

const repo = path.resolve(import.meta.dirname, '..', '..');
const root = sharedPath('data', 'erbench');
const PHRASING_INDEX: Record<string, number> = { basic: 0, negated: 1, is_there: 2 };
const skip = sharedMissing(path.join(root, 'responses', 'gpt35_movie.log'));

const TABLE_18 = { basic: { A: 0.83, R: 0.78, AR: 0.77, H: 0.17 }, negated: { A: 0.06, R: 0.1, AR: 0.05, H: 0.94 } };
const TABLE_2 = { basic: { A: 0.85, R: 0.81, AR: 0.8, H: 0.15 }, negated: { A: 0.06, R: 0.11, AR: 0.05, H: 0.94 } };

function figures(groups: GroupMetrics[], mode: string) {
    const pick = (phrasing: string) => groups.find(g => g.phrasing === phrasing && g.mode === mode)!;
    return { basic: pick('basic'), negated: pick('negated') };
}

function expectClose(got: GroupMetrics, want: Record<string, number>, label: string) {
    for (const [k, v] of Object.entries(want)) {
        const value = got[k as 'A'] as number;
        assert.ok(Math.abs(value - v) <= 0.02, `${label} ${k}: computed ${value.toFixed(3)}, paper ${v.toFixed(2)} (±0.02)`);
    }
}

function line(label: string, g: GroupMetrics): string {
    const f = (x: number | null) => (x === null ? 'n/a' : x.toFixed(3));
    return `${label.padEnd(28)} N=${String(g.n).padStart(4)}  A ${f(g.A)}  R ${f(g.R)}  AR ${f(g.AR)}  M ${f(g.M)}  H ${f(g.H)}  C ${f(g.C)}`;
}

/**
 * The questions come from the movie preset (examples/erbench/movie.probe: the generator, the spec's aliases);
 * the answers from the authors' logs, matched by row (line − 2) and phrasing, as the replay model does.
 */
async function load() {
    const { model: spec } = await loadSpec(path.join(repo, 'examples', 'erbench', 'movie.probe'));
    const data = await loadData(spec);
    const questions = [...generateQuestions(spec, data, { suite: 'erbench_movie' }).questions];
    const log = new Map(
        parseErbenchLog(readFileSync(path.join(root, 'responses', 'gpt35_movie.log'), 'utf8')).map(r => [
            `${r.row}-${r.phrasing}`,
            r.answer,
        ]),
    );
    const knowsLog = new Map(
        parseErbenchLog(readFileSync(path.join(root, 'responses', 'gpt35_validate_movie.log'), 'utf8')).map(r => [
            r.row,
            r.answer,
        ]),
    );
    const ctx = createVerifyContext(spec, data);
    const binary: Verdict[] = [];
    const knows: Verdict[] = [];
    for (const q of questions) {
        const row = q.source.rows[0]!.line - 2;
        const text = q.kind === 'knows' ? knowsLog.get(row) : log.get(`${row}-${PHRASING_INDEX[q.phrasing]}`);
        if (text === undefined) continue;
        (q.kind === 'knows' ? knows : binary).push(verify(q, text, ctx, 'gpt35'));
    }
    return { questions, binary, knows };
}

describe('ERBench movie, GPT-3.5 replay through the movie preset (paper Tables 18 and 2)', { skip }, () => {
    const loaded = skip ? undefined : load();

    it('without the knowledge filter matches Table 18', async () => {
        const { questions, binary } = (await loaded)!;
        assert.equal(binary.length, 4497, 'every logged answer is matched to a generated question');
        const groups = computeMetrics(questions, binary);
        const { basic, negated } = figures(groups, 'all');
        console.log(line('Table 18 basic (all)', basic));
        console.log(line('Table 18 negated (all)', negated));
        expectClose(basic, TABLE_18.basic, 'basic');
        expectClose(negated, TABLE_18.negated, 'negated');
    });

    it('with the knowledge filter from gpt35_validate_movie.log matches Table 2', async () => {
        const { questions, binary, knows } = (await loaded)!;
        const groups = computeMetrics(questions, [...binary, ...knows]);
        const { basic, negated } = figures(groups, 'known');
        console.log(`known entities: ${knows.filter(v => v.known).length} of ${knows.length}`);
        console.log(line('Table 2 basic (known)', basic));
        console.log(line('Table 2 negated (known)', negated));
        expectClose(basic, TABLE_2.basic, 'basic');
        expectClose(negated, TABLE_2.negated, 'negated');
    });
});
