// The model reader for every family (issue 28, item 4): `read_with MODEL` has MODEL read multiple-choice options
// (the chosen option, several, none of the above), evidence short answers (the answer's words) and open answers
// (claims as subject, relation phrase, object, polarity — then checked against the data like the pattern reader's
// claims), in JSON mode, through the openai SDK from a real local OpenAI-compatible server. Each call is stored and
// cached (a second run asks nothing) and priced into the run's cost; the report shows the agreement per family;
// `decide_by reader` makes the model's reading decide (verdicts, the family's figures, the failing list).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startOpenAIServer, type TestServer } from '../support/openai-server.js';
import { repoRoot } from '../support/runner-fixtures.js';
import { readerModel } from '../support/reader-model.js';
import { runSpec } from '../../src/core/run/index.js';
import { loadReport, renderReport } from '../../src/core/report/index.js';
import { openStore } from '../../src/core/store/index.js';
import { explainVerdict, type ReportData } from '../../src/core/report/model.js';

const CHOICE = `source movies csv "data/movies.csv"

relation Movie from movies label "movie" {
    title: text = "common_entity" label "title"
    year: int = "entity3" label "release year"
    director: text = "entity2" label "director"
    star: text = "entity1" label "star"
    key (title, year)
}

fd Movie: title, year -> director, star as movie_facts

probe movie_choice choice using movie_facts {
    none_of_above 0.2
    stem "What is the false option about the movie {title} released in year {year}?"
    option director "Directed by {director}."
    option star "It stars {star}."
}

model simulator offline { knowledge 0.7  seed 3 }

suite choice {
    probes movie_choice
    models simulator
    sample all
}
`;

describe('the model reader for options, short answers and claims', () => {
    let dir: string;
    let server: TestServer;
    let contrary = false;
    const formats: (string | undefined)[] = [];
    const env = { ...process.env, READER_TEST_KEY: 'sk-reader-test' };
    const readerDecl = () =>
        `\nmodel reader openai {\n    id "reader-model"\n    endpoint "${server.url}"\n    key_env "READER_TEST_KEY"\n    price_input 1000\n    price_output 2000\n}\n`;
    /** The spec of a family with `settings` added to its probe(s). */
    const spec = (family: 'choice' | 'evidence' | 'open', name: string, settings: string) => {
        const folder = family === 'choice' ? 'movie' : family;
        const source = family === 'choice' ? CHOICE : readFileSync(path.join(dir, folder, `${family}.probe`), 'utf8');
        const text = source.replace(/(probe \w+ (?:choice|evidence|open) [^{]*\{)/g, `$1\n    ${settings}`);
        const file = path.join(dir, folder, `${name}.probe`);
        writeFileSync(file, text + readerDecl());
        return file;
    };
    const run = (file: string, db: string, resume = 'auto') =>
        runSpec({
            spec: file,
            db: path.join(dir, db),
            resume,
            limit: 30,
            env,
            origin: 'test',
            confirmHost: async () => true,
            confirmCost: async () => true,
        });
    const report = async (db: string): Promise<{ data: ReportData; counts: { cost: number } }> => {
        const store = await openStore(path.join(dir, db));
        try {
            const latest = (await store.latestRun())!.id;
            const { data } = await loadReport(store, latest);
            return { data, counts: await store.counts(latest) };
        } finally {
            await store.close();
        }
    };
    const json = (data: ReportData) =>
        JSON.parse(renderReport(data, 'json')) as {
            modelReader?: {
                kind: string;
                probe: string;
                reader: string;
                decides: string;
                n: number;
                agree: number;
                sameVerdict: number;
            }[];
        };

    before(async () => {
        dir = mkdtempSync(path.join(os.tmpdir(), 'halluprobe-reader-families-'));
        for (const f of ['evidence', 'open']) cpSync(path.join(repoRoot, 'examples', f), path.join(dir, f), { recursive: true });
        cpSync(path.join(repoRoot, 'examples', 'movie', 'data'), path.join(dir, 'movie', 'data'), { recursive: true });
        writeFileSync(path.join(dir, 'movie', 'choice.probe'), CHOICE);
        const read = readerModel(() => contrary);
        server = await startOpenAIServer({
            apiKey: 'sk-reader-test',
            answer: info => {
                formats.push(info.body.response_format?.type);
                return read(info);
            },
        });
    });
    after(async () => {
        await server.close();
        rmSync(dir, { recursive: true, force: true });
    });

    it('choice: reads the option chosen (one, several, none of the above) beside the patterns, in JSON mode, priced', async () => {
        const before = server.completed;
        const result = await run(spec('choice', 'choice-compare', 'read_with reader'), 'choice.db');
        assert.equal(result.status, 'completed');
        assert.deepEqual(
            result.notes.filter(n => n.code === 'model-step').map(n => n.message),
            [],
            'no family is left to the patterns',
        );
        assert.ok(server.completed > before && formats.every(f => f === 'json_object'), String(formats));
        const { data, counts } = await report('choice.db');
        const read = data.rows.filter(r => r.verdict.modelRead);
        assert.equal(read.length, data.rows.length, 'every answer read by the model too');
        for (const r of read) {
            const m = r.verdict.modelRead!;
            assert.equal(m.patterns, undefined, 'the patterns decide by default');
            assert.ok(['option', 'none', 'multiple', 'unsure', 'binding'].includes(m.answer!), JSON.stringify(m));
            if (m.answer === 'option')
                assert.equal(m.option, r.verdict.option, `the reader read the option the patterns read: ${r.response}`);
        }
        assert.ok(
            read.some(r => r.verdict.modelRead!.answer === 'none'),
            'none of the above read',
        );
        const rows = json(data).modelReader!;
        assert.deepEqual(
            rows.map(a => [a.kind, a.probe, a.reader, a.decides, a.n]),
            [['choice', 'movie_choice', 'reader', 'patterns', read.length]],
        );
        assert.equal(rows[0]!.agree, read.length, 'the simulator names its option plainly: both readers read it alike');
        assert.equal(rows[0]!.sameVerdict, read.length);
        assert.match(
            renderReport(data, 'md'),
            /\| choice \| movie\\_choice \| simulator[^|]*\| reader \| patterns \| \d+ \| \d+ \|/,
        );
        assert.ok(counts.cost > 0, 'the reading calls are priced into the run');
    });

    // Issue 40, item 7 changed the decide_by reader tests deliberately: a reading that disagrees with the patterns is
    // held for review (the patterns decide), so the contrary reader's readings decide nothing.
    it('choice, decide_by reader: an option the model read otherwise is held for review; a second run asks nothing', async () => {
        contrary = true;
        try {
            const file = spec('choice', 'choice-decide', 'read_with reader\n    decide_by reader');
            await run(file, 'choice-decide.db');
            const { data } = await report('choice-decide.db');
            const held = data.rows.filter(
                r => r.verdict.modelRead?.held !== undefined && r.verdict.modelRead.answer === 'option',
            );
            assert.ok(held.length > 0);
            for (const r of held) {
                const m = r.verdict.modelRead!;
                // The contrary reader reads the next option: held, the verdict's option is the patterns', scored on it.
                assert.notEqual(r.verdict.option, m.option);
                assert.equal(r.verdict.correct, m.correct!.patterns);
                assert.match(m.held!, /^read as option \d+, the pattern reader read option \d+$/);
            }
            assert.ok(
                held.some(
                    r =>
                        !r.verdict.correct &&
                        explainVerdict(r.question, r.verdict, r.response).some(l =>
                            /held for review: reader read as option \d+, the pattern reader read option \d+/.test(l),
                        ),
                ),
                data.rows.map(r => explainVerdict(r.question, r.verdict, r.response).join('; ')).join('\n'),
            );
            const before = server.completed;
            await run(file, 'choice-decide.db', 'new');
            assert.equal(server.completed, before, 'the readings come from the cache');
        } finally {
            contrary = false;
        }
    });

    it("evidence: reads the short answer's words; decide_by reader scores them (exact match follows the model)", async () => {
        await run(spec('evidence', 'evidence-compare', 'read_with reader'), 'evidence.db');
        const compare = await report('evidence.db');
        const read = compare.data.rows.filter(r => r.verdict.modelRead);
        assert.equal(read.length, compare.data.rows.length);
        for (const r of read) {
            const m = r.verdict.modelRead!;
            assert.equal(m.answer, r.verdict.answer, `both read ${r.verdict.answer}: ${r.response}`);
            if (m.answer === 'answer')
                assert.equal(m.span && r.response.slice(m.span[0], m.span[1]), m.text, 'the span read is the words read');
        }
        const [agreement] = json(compare.data).modelReader!;
        assert.deepEqual([agreement!.kind, agreement!.n, agreement!.agree], ['evidence', read.length, read.length]);

        contrary = true;
        try {
            await run(spec('evidence', 'evidence-decide', 'read_with reader\n    decide_by reader'), 'evidence-decide.db');
        } finally {
            contrary = false;
        }
        const decided = await report('evidence-decide.db');
        // The contrary reader reads "Nobody" as every answer, words no answer has: every reading is rejected and the
        // patterns decide (issue 40, item 7 — before, every verdict was wrong on the model's word).
        assert.ok(
            decided.data.rows.length > 0 &&
                decided.data.rows.every(
                    r =>
                        /the reading's quote "Nobody" is not in the answer/.test(r.verdict.modelRead?.error ?? '') &&
                        r.verdict.modelRead!.patterns === undefined,
                ),
        );
        const exact = (d: ReportData) =>
            (
                d.metrics.find(g => g.phrasing === 'seed' && g.mode === 'all')!.figures!.evidence as {
                    byKind: Record<string, { exact: { value: number | null } }>;
                }
            ).byKind.seed!.exact.value;
        assert.equal(exact(decided.data), exact(compare.data), 'exact match scores the words the patterns read');
    });

    it('open: reads claims as (subject, relation, object, polarity), checks them against the data, and decides with decide_by reader', async () => {
        await run(spec('open', 'open-compare', 'read_with reader'), 'open.db');
        const compare = await report('open.db');
        const read = compare.data.rows.filter(r => r.verdict.modelRead);
        assert.equal(read.length, compare.data.rows.length);
        const claims = read.flatMap(r => r.verdict.modelRead!.claims ?? []);
        assert.ok(claims.length > 0);
        assert.ok(
            claims.every(
                c =>
                    typeof c.subject === 'string' &&
                    typeof c.relation === 'string' &&
                    typeof c.object === 'string' &&
                    typeof c.negated === 'boolean',
            ),
        );
        assert.ok(
            claims.some(c => c.status === 'supported') && claims.some(c => c.status === 'contradicted'),
            'checked against the data',
        );
        const [agreement] = json(compare.data).modelReader!.filter(a => a.probe === 'explain_pair');
        assert.equal(agreement!.kind, 'open');
        assert.ok(agreement!.agree > 0 && agreement!.sameVerdict > 0, JSON.stringify(agreement));

        contrary = true;
        try {
            await run(spec('open', 'open-decide', 'read_with reader\n    decide_by reader'), 'open-decide.db');
        } finally {
            contrary = false;
        }
        const decided = await report('open-decide.db');
        // The contrary reader denies every fact the answer states: a fact the data has, denied, is contradicted (a wrong
        // one denied is a true denial); those readings disagree with the patterns' and are held for review, the
        // patterns deciding (issue 40, item 7 — before, the denials decided and fewer answers passed).
        const rows = decided.data.rows.filter(r => (r.verdict.modelRead?.claims?.length ?? 0) > 0);
        assert.ok(rows.length > 0 && rows.every(r => r.verdict.modelRead!.claims!.every(c => c.negated)));
        const held = rows.filter(r => r.verdict.modelRead!.held !== undefined);
        assert.ok(held.length > 0 && held.every(r => r.verdict.correct === r.verdict.modelRead!.correct!.patterns));
        const statuses = (d: ReportData) =>
            new Map(
                d.rows.flatMap(r =>
                    (r.verdict.modelRead?.claims ?? []).map(c => [`${r.question.id} ${r.verdict.sample} ${c.quote}`, c.status]),
                ),
            );
        const [before, after] = [statuses(compare.data), statuses(decided.data)];
        const flipped = [...before].filter(([k, s]) => s === 'supported' && after.has(k));
        assert.ok(
            flipped.length > 0 && flipped.every(([k]) => after.get(k) === 'contradicted'),
            'every supported fact, denied, is contradicted',
        );
        // The answers from a clean context state only the data's facts: they pass on the patterns, and still do.
        const cleanPassed = (d: ReportData) =>
            new Set(
                d.rows
                    .filter(r => r.question.phrasing === 'clean' && r.verdict.correct)
                    .map(r => `${r.question.id} ${r.verdict.sample}`),
            );
        assert.ok(cleanPassed(compare.data).size > 0);
        assert.deepEqual(cleanPassed(decided.data), cleanPassed(compare.data));
    });

    it('rejects read_with naming a model the spec does not declare, before asking anything', async () => {
        const file = spec('open', 'open-unknown', 'read_with nobody');
        const result = await run(file, 'unknown.db').catch((e: Error) => e);
        assert.ok(
            result instanceof Error
                ? /nobody/.test(result.message)
                : result.notes.some(n => /read_with: unknown model "nobody"/.test(n.message)),
        );
    });
});
