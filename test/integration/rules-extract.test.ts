// Claim extraction by a configured model (issue 14, item 4): `extract_with MODEL` on a rule probe asks the real
// local OpenAI-compatible server, in JSON mode through the openai SDK, for the triples of each rationale; the
// claims are checked against the data like the pattern-based ones, the calls are cached (a second run makes
// none), and an answer that is not JSON falls back to the patterns, which the report says.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startOpenAIServer, type TestServer } from '../support/openai-server.js';
import { repoRoot } from '../support/runner-fixtures.js';
import { cli as run } from '../support/cli-process.js';

interface Figures {
    nodeOverlap: number;
    edgeOverlap: number;
    overlapBy: Record<string, number>;
    rightAnswerWrongPremises: { k: number; n: number };
    wrongAnswerRightPremises: { k: number; n: number };
    claims: { supported: number; contradicted: number };
    extraction: { model: number; patterns: number; fallback: number; firstFallback?: string };
}
interface Report {
    groups: { probe: string; phrasing: string; mode: string; rules?: Figures }[];
}

/**
 * A faithful extractor: "The club of X is Y." → (X, club, Y), writing clubs without "FC" as a model may; the
 * rationale naming `garbled` gets prose instead of JSON.
 */
function extractor(garbled: string) {
    return (text: string) => {
        if (text.includes(garbled)) return 'Sure! The triples are: Messi plays for Barcelona.';
        const triples = [...text.matchAll(/The (.+?) of (.+?) is (.+?)\.$/gm)].map(m => ({
            subject: m[2],
            relation: m[1],
            object: m[3]!.replace(/^FC /, ''),
        }));
        return JSON.stringify({ triples });
    };
}

describe('rule claims extracted by a configured model', () => {
    let dir: string;
    let server: TestServer;
    const formats: (string | undefined)[] = [];
    const cli = (args: string[]) => run(args, { EXTRACT_TEST_KEY: 'sk-extract-test' });
    before(async () => {
        dir = mkdtempSync(path.join(os.tmpdir(), 'halluprobe-extract-'));
        cpSync(path.join(repoRoot, 'examples', 'rules'), path.join(dir, 'rules'), { recursive: true });
        cpSync(path.join(repoRoot, 'examples', 'soccer', 'data'), path.join(dir, 'soccer', 'data'), { recursive: true });
        const answer = extractor('M. ter Stegen');
        // The server requires the key: it reaches the extractor and the embedder only through their key_env binding.
        server = await startOpenAIServer({
            apiKey: 'sk-extract-test',
            answer: info => {
                formats.push(info.body.response_format?.type);
                return answer(info.question);
            },
        });
        const spec = readFileSync(path.join(dir, 'rules', 'rules.probe'), 'utf8');
        writeFileSync(path.join(dir, 'rules', 'plain.probe'), spec.replace(/probes teammates, .*/, 'probes teammates'));
        writeFileSync(
            path.join(dir, 'rules', 'extract.probe'),
            `${spec
                .replace(
                    'probe teammates rule using colleague {',
                    'probe teammates rule using colleague {\n    extract_with extractor',
                )
                .replace(
                    /probes teammates, .*/,
                    'probes teammates',
                )}\nmodel extractor openai {\n    id "extract-model"\n    endpoint "${server.url}"\n    key_env "EXTRACT_TEST_KEY"\n}\n`,
        );
        writeFileSync(
            path.join(dir, 'rules', 'embed.probe'),
            `${readFileSync(path.join(dir, 'rules', 'extract.probe'), 'utf8').replace(
                'extract_with extractor',
                'extract_with extractor\n    embeddings embedder\n    similarity 0.7',
            )}\nmodel embedder openai {\n    id "test-embedding"\n    endpoint "${server.url}"\n    key_env "EXTRACT_TEST_KEY"\n}\n`,
        );
    });
    after(async () => {
        await server.close();
        rmSync(dir, { recursive: true, force: true });
    });

    const figures = async (db: string) => {
        const json = JSON.parse((await cli(['report', '--db', db, '--format', 'json'])).stdout) as Report;
        return json.groups.find(g => g.probe === 'teammates' && g.phrasing === 'basic' && g.mode === 'all')!.rules!;
    };

    it('asks the model in JSON mode, checks its triples like the patterns, and falls back where it is not JSON', async () => {
        const db = path.join(dir, 'extract.db');
        const r = await cli(['run', path.join(dir, 'rules', 'extract.probe'), '--db', db, '--yes']);
        assert.equal(r.code === 0 || r.code === 1, true, r.stdout + r.stderr);
        assert.ok(server.completed > 0);
        assert.ok(formats.length > 0 && formats.every(f => f === 'json_object'), String(formats));
        const withModel = await figures(db);
        assert.ok(withModel.extraction.model > 0, JSON.stringify(withModel.extraction));
        assert.ok(withModel.extraction.fallback > 0, 'the garbled answers fell back');
        assert.match(withModel.extraction.firstFallback!, /extractor: the answer is not JSON/);
        // A faithful extractor finds what the patterns find: the same categories, wrong premises included.
        const plainDb = path.join(dir, 'plain.db');
        await cli(['run', path.join(dir, 'rules', 'plain.probe'), '--db', plainDb, '--yes']);
        const patterns = await figures(plainDb);
        assert.equal(
            patterns.extraction.patterns,
            patterns.extraction.model + patterns.extraction.patterns + patterns.extraction.fallback,
        );
        assert.deepEqual(
            [withModel.rightAnswerWrongPremises.k, withModel.wrongAnswerRightPremises.k],
            [patterns.rightAnswerWrongPremises.k, patterns.wrongAnswerRightPremises.k],
        );
        assert.ok(withModel.rightAnswerWrongPremises.k > 0, 'the simulator stated some premises wrongly');
        const md = (await cli(['report', '--db', db, '--format', 'md'])).stdout;
        assert.match(md, /patterns after an unreadable extraction \d+ \(extractor: the answer is not JSON/);
    });

    it('caches the extraction calls: a second run asks the server nothing', async () => {
        const db = path.join(dir, 'extract.db');
        const before = server.completed;
        const r = await cli(['run', path.join(dir, 'rules', 'extract.probe'), '--db', db, '--yes', '--new']);
        assert.equal(r.code === 0 || r.code === 1, true, r.stdout + r.stderr);
        assert.equal(server.completed, before);
        assert.ok((await figures(db)).extraction.model > 0);
    });

    it("run --no-verify, then report: the report verifies and runs the extraction too (issue 23: loadReport runs the families' model steps)", async () => {
        const db = path.join(dir, 'later.db');
        const r = await cli(['run', path.join(dir, 'rules', 'extract.probe'), '--db', db, '--yes', '--no-verify']);
        assert.equal(r.code === 0 || r.code === 1, true, r.stdout + r.stderr);
        const json = JSON.parse((await cli(['report', '--db', db, '--format', 'json', '--yes'])).stdout) as Report;
        const later = json.groups.find(g => g.probe === 'teammates' && g.phrasing === 'basic' && g.mode === 'all')!.rules!;
        const whole = await figures(path.join(dir, 'extract.db'));
        assert.ok(later.extraction.model > 0, JSON.stringify(later.extraction));
        assert.deepEqual(later.extraction, whole.extraction);
    });

    it('matches overlap elements by embeddings (cosine >= similarity) from the /v1/embeddings endpoint, cached', async () => {
        const exact = await figures(path.join(dir, 'extract.db'));
        const db = path.join(dir, 'embed.db');
        const r = await cli(['run', path.join(dir, 'rules', 'embed.probe'), '--db', db, '--yes']);
        assert.equal(r.code === 0 || r.code === 1, true, r.stdout + r.stderr);
        assert.ok(server.embedded > 0);
        const embedded = await figures(db);
        assert.deepEqual(Object.keys(embedded.overlapBy), ['embeddings embedder ≥ 0.7']);
        assert.deepEqual(Object.keys(exact.overlapBy), ['exact / alias']);
        // "Barcelona" (the extractor's) is not "FC Barcelona" exactly, but its embedding is close (cos 0.71): exact
        // matching finds two of the three nodes of a right answer about two FC Barcelona players, embeddings all three.
        assert.ok(embedded.nodeOverlap > exact.nodeOverlap + 0.05, `${embedded.nodeOverlap} vs ${exact.nodeOverlap}`);
        assert.ok(embedded.edgeOverlap > exact.edgeOverlap + 0.05, `${embedded.edgeOverlap} vs ${exact.edgeOverlap}`);
        // Our categories do not depend on the overlap (the paper's do: they are read from it).
        assert.equal(embedded.rightAnswerWrongPremises.k, exact.rightAnswerWrongPremises.k);
        const texts = server.embedded;
        const again = await cli(['run', path.join(dir, 'rules', 'embed.probe'), '--db', db, '--yes', '--new']);
        assert.equal(again.code === 0 || again.code === 1, true, again.stderr);
        assert.equal(server.embedded, texts, 'every vector came from the cache');
        assert.equal((await figures(db)).nodeOverlap, embedded.nodeOverlap);
    });

    it('rejects an extraction or embeddings model the spec does not declare, and a similarity outside (0, 1]', async () => {
        const spec = readFileSync(path.join(dir, 'rules', 'embed.probe'), 'utf8');
        for (const [from, to, message] of [
            [
                'embeddings embedder',
                'embeddings embeder',
                /embeddings names a model declared in the spec .* 'embeder' is neither/,
            ],
            [
                'extract_with extractor',
                'extract_with nobody',
                /extract_with names a model declared in the spec .* 'nobody' is neither/,
            ],
            ['similarity 0.7', 'similarity 70', /similarity is the cosine at which two embeddings match: a number in \(0, 1\]/],
        ] as const) {
            const file = path.join(dir, 'rules', 'bad-model.probe');
            writeFileSync(file, spec.replace(from, to));
            const r = await cli(['preview', file]);
            assert.match(
                r.stdout + r.stderr,
                new RegExp(`bad-model\\.probe:\\d+:\\d+ error \\[probe-setting\\] ${message.source}`),
            );
        }
    });
});
