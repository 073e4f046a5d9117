/**
 * ERBench through the command line, as a researcher reproduces the paper (README "Reproducing ERBench"):
 * `halluprobe run <preset> --suite S --model gpt35=replay:<answers>+<knowledge answers>` then
 * `halluprobe report --format erbench` (the table printed) and `--format json` (the figures checked here).
 * GPT-3.5's published logs must reproduce the paper within ±0.02: Table 4 (multi-hop, entities the model
 * knows, with and without chain of thought), Tables 18 and 2 (multiple choice, Movie) and Table 23 (few-shot).
 * Reads ../shared (next to the repository): in CI a missing file fails; locally it is skipped, loudly.
 */
import { describe, it, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { readFileSync } from 'node:fs';
import { runCli } from '../support/cli.js';
import { repoRoot } from '../support/runner-fixtures.js';
import { sharedMissing, sharedPath } from '../support/shared.js';
import { tempDir } from '../support/temp.js';

const logs = sharedPath('data', 'erbench', 'responses');
const log = (name: string) => path.join(logs, name);

interface Group {
    model: string;
    probe: string;
    phrasing: string;
    mode: string;
    variant: string;
    n: number;
    na?: string;
    A: number;
    R: number;
    AR: number;
    H: number;
    rExt?: { value: number };
    hops?: { AR: number }[];
}

/**
 * Runs a suite of a preset with one replayed model, then returns the report's groups and its ERBench table. The CLI
 * runs in this process (test/support/cli.ts): the same commands and files as a user's, without starting a CLI three
 * times per case.
 */
async function reproduce(spec: string, suite: string, files: string[]): Promise<{ groups: Group[]; table: string }> {
    const dir = tempDir('hp-erbench-');
    const db = path.join(dir, 'results.db');
    const model = `gpt35=replay:${files.map(log).join('+')}`;
    const specPath = path.join(repoRoot, 'examples', 'erbench', spec);
    const run = await runCli('run', specPath, '--suite', suite, '--model', model, '--db', db, '--yes');
    assert.ok(run.code === 0 || run.code === 1, `run exits normally: ${run.err.slice(-500)}`);
    const report = async (format: string) => {
        const out = path.join(dir, `report.${format}`);
        const r = await runCli('report', '--db', db, '--format', format, '--out', out);
        assert.equal(r.code, 0, r.err);
        return readFileSync(out, 'utf8');
    };
    const json = await report('json');
    const table = await report('erbench');
    return { groups: (JSON.parse(json) as { groups: Group[] }).groups, table };
}

/** `reproduce` when the logs are there; undefined (the test skipped, loudly) when they are not. */
async function replayed(
    t: TestContext,
    spec: string,
    suite: string,
    files: string[],
): Promise<{ groups: Group[]; table: string } | undefined> {
    const missing = sharedMissing(...files.map(log));
    if (missing) {
        t.skip(missing);
        return undefined;
    }
    return reproduce(spec, suite, files);
}

const pick = (groups: Group[], probe: string, phrasing: string, mode: string) => {
    const g = groups.find(x => x.probe === probe && x.phrasing === phrasing && x.mode === mode);
    assert.ok(g, `a ${probe} ${phrasing} group in mode ${mode}`);
    assert.equal(g.na, undefined, g.na);
    return g;
};

function close(label: string, got: number | undefined, paper: number): void {
    assert.ok(
        got !== undefined && Math.abs(got - paper) <= 0.02 + 1e-9,
        `${label}: ours ${got?.toFixed(3)}, paper ${paper.toFixed(2)} (±0.02)`,
    );
}

/** Table 4 cells: A, R-ext, AR-ext per hop, H. */
interface PathCells {
    A: number;
    RExt: number;
    ARExt: number[];
    H: number;
}

function checkPath(label: string, g: Group, paper: PathCells): void {
    console.log(
        `${label.padEnd(36)} N=${g.n}  A ${g.A.toFixed(3)}  R-ext ${g.rExt!.value.toFixed(3)}  AR-ext ${g.hops!.map(h => h.AR.toFixed(3)).join('/')}  H ${g.H.toFixed(3)}`,
    );
    close(`${label} A`, g.A, paper.A);
    close(`${label} R-ext`, g.rExt?.value, paper.RExt);
    assert.equal(g.hops?.length, paper.ARExt.length);
    paper.ARExt.forEach((v, i) => close(`${label} AR-ext hop ${i + 1}`, g.hops![i]!.AR, v));
    close(`${label} H`, g.H, paper.H);
}

// Paper, Table 4 (GPT-3.5, entities the model knows).
const TABLE_4 = {
    movie: { Y: { A: 0.74, RExt: 0.92, ARExt: [0.73, 0.7], H: 0.21 }, N: { A: 0.0, RExt: 0.92, ARExt: [0.0, 0.0], H: 0.96 } },
    movieCot: {
        Y: { A: 0.36, RExt: 0.95, ARExt: [0.35, 0.34], H: 0.62 },
        N: { A: 0.54, RExt: 0.79, ARExt: [0.53, 0.5], H: 0.27 },
    },
    soccer: {
        Y: { A: 0.81, RExt: 0.09, ARExt: [0.01, 0.05, 0.03], H: 0.17 },
        N: { A: 0.82, RExt: 0.15, ARExt: [0.0, 0.0, 0.0], H: 0.18 },
    },
    soccerCot: {
        Y: { A: 0.59, RExt: 0.67, ARExt: [0.47, 0.54, 0.54], H: 0.33 },
        N: { A: 0.76, RExt: 0.6, ARExt: [0.28, 0.31, 0.31], H: 0.21 },
    },
};

const CASES = [
    {
        name: 'Movie & Director',
        spec: 'movie_director.probe',
        suite: 'erbench_movie_director',
        probe: 'director_decade',
        answers: 'gpt35_movie_foreign_year.log',
        knows: 'gpt35_validate_movie_foreign_year.log',
        paper: TABLE_4.movie,
    },
    {
        name: 'Movie & Director, CoT',
        spec: 'movie_director.probe',
        suite: 'erbench_movie_director_cot',
        probe: 'director_decade',
        answers: 'gpt35_movie_foreign_year_cot.log',
        knows: 'gpt35_validate_movie_foreign_year.log',
        paper: TABLE_4.movieCot,
    },
    {
        name: 'Soccer & Olympic',
        spec: 'soccer_olympic.probe',
        suite: 'erbench_soccer_olympic',
        probe: 'club_city_olympics',
        answers: 'gpt35_soccer_olympic.log',
        knows: 'gpt35_validate_soccer_olympic.log',
        paper: TABLE_4.soccer,
    },
    {
        name: 'Soccer & Olympic, CoT',
        spec: 'soccer_olympic.probe',
        suite: 'erbench_soccer_olympic_cot',
        probe: 'club_city_olympics',
        answers: 'gpt35_soccer_olympic_cot.log',
        knows: 'gpt35_validate_soccer_olympic.log',
        paper: TABLE_4.soccerCot,
    },
];

describe('ERBench Table 4 (multi-hop, GPT-3.5, entities the model knows) from the CLI', () => {
    for (const c of CASES) {
        it(`${c.name} within ±0.02`, async t => {
            const got = await replayed(t, c.spec, c.suite, [c.answers, c.knows]);
            if (!got) return;
            const { groups, table } = got;
            checkPath(`${c.name} BN(Y)`, pick(groups, c.probe, 'basic', 'known'), c.paper.Y);
            checkPath(`${c.name} BN(N)`, pick(groups, c.probe, 'negated', 'known'), c.paper.N);
            // The printed table carries the same figures in the paper's layout.
            assert.match(table, /\| model \| BN\(Y\) A \| BN\(Y\) R-ext \| BN\(Y\) AR-ext \| BN\(Y\) H \| BN\(N\) A/);
            assert.match(table, /## entities the model knows · (zero_shot|cot)\n\n[^\n]+\n[^\n]+\n\| gpt35 \| \.\d\d \|/);
        });
    }
});

function checkPlain(label: string, g: Group, paper: { A: number; R: number; AR: number; H: number }): void {
    console.log(
        `${label.padEnd(36)} N=${g.n}  A ${g.A.toFixed(3)}  R ${g.R.toFixed(3)}  AR ${g.AR.toFixed(3)}  H ${g.H.toFixed(3)}`,
    );
    for (const k of ['A', 'R', 'AR', 'H'] as const) close(`${label} ${k}`, g[k], paper[k]);
}

type Plain = { A: number; R: number; AR: number; H: number };

/** Binary and multiple-choice tables: each check is [label, probe, phrasing, mode, the paper's cells]. */
const PLAIN_CASES: {
    name: string;
    spec: string;
    suite: string;
    files: string[];
    checks: [string, string, string, string, Plain][];
    table: RegExp;
    n?: [string, number];
}[] = [
    {
        name: 'Table 23 (few-shot binary Movie, entities the model knows)',
        spec: 'movie.probe',
        suite: 'erbench_movie_few_shot',
        files: ['gpt35_movie_demo.log', 'gpt35_validate_movie.log'],
        checks: [
            ['Few-shot Movie BN(Y)', 'movie_binary', 'basic', 'known', { A: 0.79, R: 0.87, AR: 0.75, H: 0.21 }],
            ['Few-shot Movie BN(N)', 'movie_binary', 'negated', 'known', { A: 0.7, R: 0.69, AR: 0.66, H: 0.3 }],
        ],
        table: /## entities the model knows · few_shot\(8\)\n\n\| model \| BN\(Y\) A \| BN\(Y\) R \| BN\(Y\) AR \| BN\(Y\) H \| BN\(N\) A/,
    },
    {
        name: 'Table 18 and Table 2 MC (multiple choice Movie, the published draws)',
        spec: 'mc_movie.probe',
        suite: 'erbench_mc_movie_published',
        files: ['gpt35_mc_movie_choice_3.log', 'gpt35_mc_validate_movie.log'],
        checks: [
            ['MC Movie, all (Table 18)', 'movie_choice_published', 'mean', 'all', { A: 0.94, R: 0.94, AR: 0.93, H: 0.06 }],
            ['MC Movie, known (Table 2)', 'movie_choice_published', 'mean', 'known', { A: 0.97, R: 0.96, AR: 0.96, H: 0.03 }],
        ],
        table: /\| model \| MC A \| MC R \| MC AR \| MC H \|/,
        // Every logged question is generated from its recorded draw and answered.
        n: ['MC Movie, all (Table 18)', 4455],
    },
    {
        name: 'Tables 18 and 2 (binary Movie)',
        spec: 'movie.probe',
        suite: 'erbench_movie',
        files: ['gpt35_movie.log', 'gpt35_validate_movie.log'],
        checks: [
            ['Movie BN(Y), all (Table 18)', 'movie_binary', 'basic', 'all', { A: 0.83, R: 0.78, AR: 0.77, H: 0.17 }],
            ['Movie BN(N), all (Table 18)', 'movie_binary', 'negated', 'all', { A: 0.06, R: 0.1, AR: 0.05, H: 0.94 }],
            ['Movie BN(Y), known (Table 2)', 'movie_binary', 'basic', 'known', { A: 0.85, R: 0.81, AR: 0.8, H: 0.15 }],
            ['Movie BN(N), known (Table 2)', 'movie_binary', 'negated', 'known', { A: 0.06, R: 0.11, AR: 0.05, H: 0.94 }],
        ],
        table: /## all questions · zero_shot/,
    },
];

describe('ERBench binary and multiple-choice tables (GPT-3.5) from the CLI', () => {
    for (const c of PLAIN_CASES) {
        it(`${c.name} within ±0.02`, async t => {
            const got = await replayed(t, c.spec, c.suite, c.files);
            if (!got) return;
            for (const [label, probe, phrasing, mode, paper] of c.checks) {
                const g = pick(got.groups, probe, phrasing, mode);
                if (c.n?.[0] === label) assert.equal(g.n, c.n[1]);
                checkPlain(label, g, paper);
            }
            assert.match(got.table, c.table);
        });
    }
});
