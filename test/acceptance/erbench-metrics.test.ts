/**
 * Real data: the replay of GPT-3.5's published answers to ERBench's movie questions must reproduce the paper's
 * figures — Table 18 (all questions) and Table 2 (entities the model knows) — within ±0.02.
 * Reads ../shared (next to the repository); skipped with a reason when it is absent.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { createVerifyContext, verify } from '../../src/core/verify/verify.js';
import { computeMetrics, type GroupMetrics } from '../../src/core/verify/metrics.js';
import { movieData, movieSpec, replayKnowsLog, replayMovieLog } from '../fixtures/verify/erbench-movie.js';

const root = path.resolve(import.meta.dirname, '..', '..', '..', 'shared', 'data', 'erbench');
const present = existsSync(path.join(root, 'responses', 'gpt35_movie.log'));
const skip = present ? false : `../shared/data/erbench is absent (looked in ${root})`;

const TABLE_18 = { basic: { A: 0.83, R: 0.78, AR: 0.77, H: 0.17 }, negated: { A: 0.06, R: 0.10, AR: 0.05, H: 0.94 } };
const TABLE_2 = { basic: { A: 0.85, R: 0.81, AR: 0.80, H: 0.15 }, negated: { A: 0.06, R: 0.11, AR: 0.05, H: 0.94 } };

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

describe('ERBench movie, GPT-3.5 replay (paper Tables 18 and 2)', { skip }, () => {
    const { data, rows } = present ? movieData(readFileSync(path.join(root, 'movie.csv'), 'utf8'), path.join(root, 'movie.csv')) : { data: undefined, rows: [] };
    const binary = present ? replayMovieLog(readFileSync(path.join(root, 'responses', 'gpt35_movie.log'), 'utf8'), rows) : { questions: [], answers: [] };
    const knows = present ? replayKnowsLog(readFileSync(path.join(root, 'responses', 'gpt35_validate_movie.log'), 'utf8'), rows) : { questions: [], answers: [] };
    const ctx = createVerifyContext(movieSpec(), data);
    const byId = new Map([...binary.questions, ...knows.questions].map(q => [q.id, q]));
    const verdictsOf = (answers: typeof binary.answers) => answers.map(a => verify(byId.get(a.questionId)!, a.text, ctx, a.model, a.sample));

    it('without the knowledge filter matches Table 18', () => {
        const groups = computeMetrics(binary.questions, verdictsOf(binary.answers));
        const { basic, negated } = figures(groups, 'all');
        console.log(line('Table 18 basic (all)', basic));
        console.log(line('Table 18 negated (all)', negated));
        expectClose(basic, TABLE_18.basic, 'basic');
        expectClose(negated, TABLE_18.negated, 'negated');
    });

    it('with the knowledge filter from gpt35_validate_movie.log matches Table 2', () => {
        const verdicts = [...verdictsOf(binary.answers), ...verdictsOf(knows.answers)];
        const known = verdicts.filter(v => v.known).length;
        const groups = computeMetrics([...binary.questions, ...knows.questions], verdicts);
        const { basic, negated } = figures(groups, 'known');
        console.log(`known entities: ${known} of ${knows.answers.length}`);
        console.log(line('Table 2 basic (known)', basic));
        console.log(line('Table 2 negated (known)', negated));
        expectClose(basic, TABLE_2.basic, 'basic');
        expectClose(negated, TABLE_2.negated, 'negated');
    });
});
