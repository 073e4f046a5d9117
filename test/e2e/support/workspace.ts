/**
 * The e2e workspace: a copy of the movie example whose data gets one injected FD violation (James Cameron
 * with two birth years), plus a model pointing at the local OpenAI-compatible test server; and the mocha
 * suite bundled for the extension host.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as esbuild from 'esbuild';

export const REPO = path.resolve(import.meta.dirname, '../../..');
export const ARTIFACTS = path.join(REPO, 'test-artifacts', 'e2e');

/** Copies examples/movie into `dir` and breaks Director: name -> birth_year for James Cameron. */
export function prepareWorkspace(dir: string, modelEndpoint?: string): string {
    fs.cpSync(path.join(REPO, 'examples/movie'), dir, { recursive: true, filter: src => !src.includes('.halluprobe') });
    const csv = path.join(dir, 'data/movies.csv');
    const lines = fs.readFileSync(csv, 'utf8').split('\n');
    const rows = lines.map((l, i) => ({ l, i })).filter(x => x.l.includes(',James Cameron,'));
    if (rows.length < 2) throw new Error('the movie example needs two James Cameron rows for the injected FD violation');
    const last = rows.at(-1)!;
    lines[last.i] = last.l.replace(/,(\d{4})\s*$/, (_m, y: string) => `,${Number(y) + 1}`);
    fs.writeFileSync(csv, lines.join('\n'));
    if (modelEndpoint) {
        const spec = path.join(dir, 'movie.probe');
        let text = fs.readFileSync(spec, 'utf8');
        text += `\nmodel local vllm {\n    id "test-model"\n    endpoint "${modelEndpoint}"\n}\n`;
        text = text.replace(/(suite movies \{[\s\S]*?models )simulator/, '$1local');
        // A short run keeps the e2e tier within a few minutes on two cores.
        text = text.replace(/(suite movies \{[\s\S]*?)sample all/, '$1sample first 6');
        fs.writeFileSync(spec, text);
    }
    return dir;
}

/**
 * The rules example (examples/rules with the soccer data beside it, as in the repository), its suite pointed at
 * the local test server and cut to the teammates probe over the first players.
 */
export function prepareRulesWorkspace(dir: string, modelEndpoint?: string): string {
    fs.cpSync(path.join(REPO, 'examples/rules'), path.join(dir, 'rules'), {
        recursive: true,
        filter: src => !src.includes('.halluprobe'),
    });
    fs.cpSync(path.join(REPO, 'examples/soccer/data'), path.join(dir, 'soccer/data'), { recursive: true });
    if (modelEndpoint) {
        const spec = path.join(dir, 'rules/rules.probe');
        let text = fs.readFileSync(spec, 'utf8');
        text += `\nmodel local vllm {\n    id "test-model"\n    endpoint "${modelEndpoint}"\n}\n`;
        text = text.replace(/(suite rules \{[\s\S]*?)probes [^\n]*\n(\s*)models simulator/, '$1probes teammates\n$2models local');
        text = text.replace(/(suite rules \{[\s\S]*?)sample all/, '$1sample first 2');
        fs.writeFileSync(spec, text);
    }
    return dir;
}

/**
 * The movie, rules, open and facts examples side by side (as in the repository, with the soccer data the rules read),
 * for the graph panel's four kinds of question: binary and multi-hop (movie), rule (rules), open (open); and its fact
 * view (facts, which reads the movie example's data).
 */
export function prepareGraphWorkspace(dir: string): string {
    for (const name of ['movie', 'rules', 'open', 'facts'])
        fs.cpSync(path.join(REPO, 'examples', name), path.join(dir, name), {
            recursive: true,
            filter: src => !src.includes('.halluprobe'),
        });
    fs.cpSync(path.join(REPO, 'examples/soccer/data'), path.join(dir, 'soccer/data'), { recursive: true });
    return dir;
}

/** Bundles test/vscode/suite for the extension host (mocha and vscode stay external). */
export async function bundleSuite(): Promise<string> {
    const out = path.join(REPO, 'test-artifacts', 'vscode', 'suite.cjs');
    await esbuild.build({
        entryPoints: [path.join(REPO, 'test/vscode/suite/index.ts')],
        outfile: out,
        bundle: true,
        platform: 'node',
        format: 'cjs',
        target: 'node22',
        external: ['vscode', 'mocha', 'better-sqlite3'],
        sourcemap: 'inline',
        logLevel: 'warning',
    });
    return out;
}

/**
 * A real PostgreSQL for the suite's database-password test, with a database `shop` (table `store`). Its URL
 * and password reach the extension host as HALLUPROBE_TEST_PG_URL / HALLUPROBE_TEST_PG_PASSWORD — never as
 * PGPASSWORD, which would make the password command pointless. Without PostgreSQL the env stays empty and
 * that suite test fails (it never skips).
 */
export async function startSuitePostgres(): Promise<{ env: Record<string, string>; stop(): void }> {
    const { startPostgres } = await import('../../support/postgres.js');
    const pg = await startPostgres();
    if (!pg) return { env: {}, stop: () => undefined };
    pg.createDatabase('shop');
    pg.sql('shop', `create table store(id integer primary key, city text); insert into store values (1, 'Paris'), (2, 'Lyon');`);
    return { env: { HALLUPROBE_TEST_PG_URL: pg.url('shop'), HALLUPROBE_TEST_PG_PASSWORD: pg.password }, stop: () => pg.stop() };
}
