// The open family end to end through the real CLI (issue 17): preview's JSONL carries the retrieval and the
// perturbed contexts; a run with the offline simulator, and one against the local OpenAI-compatible server
// through the openai SDK, are verified claim by claim and reported, and the share of claims that followed a
// corrupted context edge grows with the perturbation level.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startOpenAIServer } from '../support/openai-server.js';
import { repoRoot } from '../support/runner-fixtures.js';
import { FACTS_INTRO, renderContext } from '../../src/core/families/open/render.js';
import type { OpenQuestion } from '../../src/core/families/open/types.js';
import { cliArgs } from '../support/cli-path.js';

interface Child {
    code: number | null;
    stdout: string;
    stderr: string;
}

function cli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Child> {
    return new Promise(resolve => {
        const child = spawn(process.execPath, cliArgs(...args), {
            cwd: repoRoot,
            env: { ...process.env, HALLUPROBE_TRUSTED_HOSTS: '', ...env },
            stdio: ['ignore', 'pipe', 'pipe'],
        });
        let stdout = '',
            stderr = '';
        child.stdout.on('data', d => {
            stdout += d;
        });
        child.stderr.on('data', d => {
            stderr += d;
        });
        child.on('close', code => resolve({ code, stdout, stderr }));
    });
}

interface OpenGroup {
    probe: string;
    phrasing: string;
    mode: string;
    open?: { claims: number; followedCorrupted: { value: number }; supported: { value: number } };
}

/** The open figures of one probe per context condition, from `report --format json`. */
async function openFigures(db: string, probe: string): Promise<Map<string, NonNullable<OpenGroup['open']>>> {
    const report = await cli(['report', '--db', db, '--format', 'json']);
    assert.equal(report.code, 0, report.stderr);
    const groups = (JSON.parse(report.stdout) as { groups: OpenGroup[] }).groups.filter(
        g => g.probe === probe && g.mode === 'all' && g.open,
    );
    return new Map(groups.map(g => [g.phrasing, g.open!]));
}

/** "(Avatar, directed by, James Cameron)" lines of the prompt, restated as sentences: a model that follows the context. */
function followContext(prompt: string): string {
    const facts = prompt.split('\n').filter(l => /^\(.*\)$/.test(l));
    return (
        facts
            .map(
                l =>
                    `${l
                        .slice(1, -1)
                        .split(', ')
                        .join(' ')
                        .replace(/[.!?]+$/, '')}.`,
            )
            .join(' ') || 'I know nothing about this.'
    );
}

function assertTracksLevel(figures: Map<string, NonNullable<OpenGroup['open']>>, kind: string): void {
    const followed = (p: string) => figures.get(p)!.followedCorrupted.value;
    assert.equal(followed('clean'), 0, 'a clean context has no corrupted edge to follow');
    assert.ok(followed(`${kind}-25`) > 0.1, `${kind}-25: ${followed(`${kind}-25`)}`);
    assert.ok(
        followed(`${kind}-25`) < followed(`${kind}-50`) && followed(`${kind}-50`) < followed(`${kind}-100`),
        [25, 50, 100].map(l => followed(`${kind}-${l}`)).join(' < '),
    );
    assert.ok(figures.get('clean')!.supported.value > figures.get(`${kind}-100`)!.supported.value);
}

describe('open probes through the CLI', () => {
    let dir: string;
    before(() => {
        dir = mkdtempSync(path.join(os.tmpdir(), 'halluprobe-open-'));
        cpSync(path.join(repoRoot, 'examples', 'movie', 'data'), path.join(dir, 'movie', 'data'), { recursive: true });
        cpSync(path.join(repoRoot, 'examples', 'open', 'open.probe'), path.join(dir, 'open', 'open.probe'));
    });
    after(() => rmSync(dir, { recursive: true, force: true }));

    it('preview --format jsonl carries the retrieved graph with PPR scores and the perturbed graphs', async () => {
        const out = await cli([
            'preview',
            path.join(dir, 'open', 'open.probe'),
            '--probe',
            'explain_pair',
            '--limit',
            '16',
            '--format',
            'jsonl',
        ]);
        assert.equal(out.code, 0, out.stderr);
        const records = out.stdout
            .trim()
            .split('\n')
            .map(
                l =>
                    JSON.parse(l) as {
                        phrasing: string;
                        question: string;
                        messages: { role: string; content: string }[];
                        open: OpenQuestion;
                        group: { relation: string };
                    },
            );
        assert.equal(records.length, 16);
        assert.deepEqual(
            records.slice(0, 8).map(r => r.phrasing),
            ['none', 'clean', 'rewire-25', 'rewire-50', 'rewire-100', 'replace-25', 'replace-50', 'replace-100'],
        );
        for (const r of records) {
            assert.equal(r.group.relation, 'levels');
            const g = r.open.retrieval.graph;
            assert.ok(g.nodes.length > 2 && g.edges.length > 1);
            assert.ok(g.nodes.every(n => typeof n.ppr === 'number' && n.ppr >= 1e-5));
            assert.ok(r.open.facts.length > 0);
            const sent = r.messages.at(-1)!.content;
            if (r.phrasing === 'none') {
                assert.equal(r.open.context, undefined);
                assert.ok(!sent.includes(FACTS_INTRO));
                continue;
            }
            // The exact context sent is the stored one.
            assert.ok(sent.includes(`${FACTS_INTRO}\n${renderContext(r.open.context!)}\nAnswer:`));
            if (r.phrasing === 'clean') continue;
            const marked = r.open.context!.edges.filter(e => e.perturbed).length;
            assert.equal(marked, Math.round(r.open.level * r.open.clean!.edges.length), r.phrasing);
            // Rewiring moves degree; replacing a relation keeps every node's degree averaged over the relations (SD2 as
            // OKGQA defines it) unless it changes the number of relations.
            if (r.open.condition === 'rewire') assert.ok(r.open.similarity!.sd2 < 1, r.phrasing);
            else {
                const relations = (g: { edges: { relation: string }[] }) => new Set(g.edges.map(e => e.relation)).size;
                if (relations(r.open.context!) === relations(r.open.clean!)) assert.equal(r.open.similarity!.sd2, 1, r.phrasing);
                else assert.ok(r.open.similarity!.sd2 < 1, r.phrasing);
            }
        }
    });

    it('runs offline, reports claims per context, and the followed-corrupted share grows with the level', async () => {
        const db = path.join(dir, 'offline.db');
        const run = await cli(['run', path.join(dir, 'open', 'open.probe'), '--db', db, '--yes']);
        assert.equal(run.code === 0 || run.code === 1, true, run.stderr);
        assert.match(run.stdout, /110 questions, 110 answers/);
        assertTracksLevel(await openFigures(db, 'explain_pair'), 'rewire');
        const md = await cli(['report', '--db', db, '--format', 'md']);
        assert.match(md.stdout, /## Open answers: atomic claims by context/);
        assert.match(md.stdout, /\| simulator \(offline simulator\) \| explain\\_pair \| rewire-50 \|/);
        // Both tables list the levels as the spec declares them (issue 25 item 7): none, clean, then each kind in the
        // spec's order (rewire before replace), never alphabetically.
        const tableOrder = (heading: RegExp) => {
            const table = md.stdout.slice(md.stdout.search(heading)).split('\n\n')[1] ?? '';
            return table
                .split('\n')
                .filter(l => l.includes('| explain\\_pair |'))
                .map(l => l.split('|')[3]!.trim());
        };
        const specOrder = ['none', 'clean', 'rewire-25', 'rewire-50', 'rewire-100', 'replace-25', 'replace-50', 'replace-100'];
        assert.deepEqual(tableOrder(/## Metrics/), specOrder);
        assert.deepEqual(tableOrder(/## Open answers/), specOrder);
        const html = await cli(['report', '--db', db, '--format', 'html']);
        // The robustness curves: per probe, one line per model and kind, clean plus three levels for explain_pair.
        const chart =
            /<svg[^>]*aria-label="explain_pair: claims that followed corrupted context by perturbation level"[\s\S]*?<\/svg>/.exec(
                html.stdout,
            )?.[0] ?? '';
        assert.equal((chart.match(/<polyline/g) ?? []).length, 2);
        assert.equal((chart.match(/<circle/g) ?? []).length, 8);
    });

    it('runs against the local OpenAI-compatible server through the SDK; a model following the context follows corrupted edges', async () => {
        const server = await startOpenAIServer({ answer: info => followContext(info.question) });
        try {
            const spec = path.join(dir, 'open', 'served.probe');
            const text = readFileSync(path.join(dir, 'open', 'open.probe'), 'utf8')
                .replace(
                    /model simulator offline \{[^}]*\}/,
                    `model local openai {\n    id "test-model"\n    endpoint "${server.url}"\n    key_env "OPEN_TEST_KEY"\n}`,
                )
                .replace('models simulator', 'models local');
            writeFileSync(spec, text);
            const db = path.join(dir, 'served.db');
            const run = await cli(['run', spec, '--db', db, '--yes'], { OPEN_TEST_KEY: 'sk-open-test' });
            assert.equal(run.code === 0 || run.code === 1, true, run.stderr);
            assert.equal(server.completed, 110);
            assert.ok(server.log.some(r => r.question.includes(FACTS_INTRO)));
            const figures = await openFigures(db, 'explain_pair');
            assertTracksLevel(figures, 'rewire');
            assertTracksLevel(figures, 'replace');
            // It states only the context, so with no context it says nothing the data supports.
            assert.equal(figures.get('none')!.claims, 10);
            assert.equal(figures.get('none')!.supported.value, 0);
        } finally {
            await server.close();
        }
    });
});
