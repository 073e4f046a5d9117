import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import {
    buildReport,
    compareRuns,
    renderComparison,
    renderReport,
    differenceInterval,
    csvField,
    type ReportInput,
} from '../../../src/core/report/index.js';
import { createVerifyContext, verify } from '../../../src/core/verify/verify.js';
import { verifyRun } from '../../../src/core/verify/run.js';
import { openStore } from '../../../src/core/store/index.js';
import { limitFor, parseMaxH, report, type HLimit } from '../../../src/cli/commands/report.js';
import { compare } from '../../../src/cli/commands/compare.js';
import { parseArgs } from '../../../src/cli/args.js';
import { data, kw, question, spec } from '../../fixtures/verify/world.js';

const EVIL = '<script>alert("x")</script> & <img src=x onerror=alert(1)> ]]> \u0000\u0007 "quotes" \'single\'';
const qs = [
    question('Is there a movie, released in 2009, starring CCH Pounder where James Cameron is the director?', [
        [kw('Movie', 'title', 'Avatar')],
    ]),
    question(
        'Is it true that there are no movies, released in 2009, starring CCH Pounder where James Cameron is the director?',
        [[kw('Movie', 'title', 'Avatar')]],
        { phrasing: 'negated', gold: 'no' },
    ),
    question('Is there a movie <b>with</b> tags?', [[kw('Movie', 'title', 'Titanic')]]),
];
const answers = [
    { questionId: qs[0]!.id, model: 'gpt', sample: 0, text: 'Yes. The movie is "Avatar".' },
    { questionId: qs[1]!.id, model: 'gpt', sample: 0, text: 'Yes, it is true. ' + EVIL },
    { questionId: qs[2]!.id, model: 'gpt', sample: 0, text: 'Yes. The movie is "Inception". ' + EVIL },
];
const ctx = createVerifyContext(spec, data);
const run = {
    id: 'run-1',
    spec: 'world.probe',
    suite: 's',
    started: '2026-11-21T00:00:00Z',
    finished: null,
    status: 'completed',
};
const input: ReportInput = {
    run,
    questions: qs,
    answers,
    verdicts: answers.map(a =>
        verify(
            qs.find(q => q.id === a.questionId)!,
            a.text,
            ctx,
            a.model,
            a.sample,
        ),
    ),
};
const overrides = [
    {
        run: 'run-1',
        questionId: qs[2]!.id,
        model: 'gpt',
        sample: 0,
        rationale: false,
        by: '<b>ann</b>',
        at: '2026-11-21T01:00:00Z',
        why: 'because <script>',
    },
];
const d = buildReport(input, overrides);

describe('report formats', () => {
    it('labels a model that is the offline simulator in every format, and leaves real models alone', () => {
        const simulated = buildReport(
            { ...input, run: { ...run, settings: { models: [{ name: 'gpt', provider: 'offline' }] } } },
            overrides,
        );
        for (const format of ['md', 'html', 'json', 'csv', 'jsonl', 'junit'] as const) {
            assert.ok(renderReport(simulated, format).includes('gpt (offline simulator)'), format);
            assert.ok(!renderReport(d, format).includes('offline simulator'), `${format} without a simulator`);
        }
        // The override recorded under the model's own name still applies.
        assert.equal(simulated.rows.find(r => r.question.id === qs[2]!.id)!.verdict.override?.by, '<b>ann</b>');
    });

    it('html is one self-contained file and every model text stays inert', () => {
        const html = renderReport(d, 'html');
        assert.ok(html.startsWith('<!DOCTYPE html>'));
        assert.equal((html.match(/<script/gi) ?? []).length, 0, 'no script element at all');
        assert.ok(!/<img/i.test(html));
        assert.ok(html.includes('&#60;script&#62;alert(&#34;x&#34;)&#60;/script&#62;'));
        assert.ok(!/(src|href)=["']?https?:/i.test(html), 'no external resources');
        assert.ok(html.includes('<svg'), 'inline charts');
        assert.ok(html.includes('&#60;b&#62;ann&#60;/b&#62;'), 'overrides escaped too');
    });

    it('json has per group {model, probe, phrasing, mode, n, A, R, AR, M, H, ci}', () => {
        const j = JSON.parse(renderReport(d, 'json')) as { groups: Record<string, unknown>[]; overrides: unknown[] };
        const g = j.groups.find(x => x.phrasing === 'basic')!;
        for (const k of ['model', 'probe', 'phrasing', 'mode', 'n', 'A', 'R', 'AR', 'M', 'H', 'ci']) assert.ok(k in g, k);
        assert.equal(g.n, 2);
        assert.equal(j.overrides.length, 1);
    });

    it('jsonl has one line per question with verdict and evidence', () => {
        const lines = renderReport(d, 'jsonl')
            .trim()
            .split('\n')
            .map(
                l =>
                    JSON.parse(l) as {
                        passed: boolean;
                        verdict: { hops: { keywords: { spans: unknown[] }[] }[] };
                        response: string;
                    },
            );
        assert.equal(lines.length, 3);
        assert.equal(lines[0]!.passed, true);
        assert.equal(lines[0]!.verdict.hops[0]!.keywords[0]!.spans.length, 1);
        assert.ok(lines[1]!.response.includes('<script>'), 'raw text kept in data formats');
    });

    it('junit: one test case per question, failures with reasons, XML-escaped', () => {
        const x = renderReport(d, 'junit');
        assert.equal((x.match(/<testcase /g) ?? []).length, 3);
        assert.equal((x.match(/<failure /g) ?? []).length, 2);
        assert.ok(!x.includes('<script'));
        assert.ok(!x.includes('\u0000'));
        assert.match(x, /contradicted by &quot;Inception&quot;/);
    });

    it('csv neutralises formulas and quotes fields', () => {
        assert.equal(csvField('=HYPERLINK("x")'), '"\'=HYPERLINK(""x"")"');
        assert.equal(csvField('-0.5'), '-0.5');
        const lines = renderReport(d, 'csv').trim().split('\n');
        assert.ok(lines[0]!.startsWith('model,probe,kind,phrasing'));
        assert.equal(lines.length, 1 + d.metrics.length);
    });

    it('markdown lists metrics, overrides and failing questions without raw HTML', () => {
        const md = renderReport(d, 'md');
        assert.match(md, /## Overrides/);
        assert.match(md, /\| gpt \| p \| basic \| zero\\_shot \| all questions \| 2 \|/);
        assert.ok(!md.includes('<script>'));
    });
});

describe('compare', () => {
    it('lists changed verdicts and deltas with a Newcombe interval', () => {
        const later = buildReport({
            ...input,
            run: { ...run, id: 'run-2' },
            verdicts: input.verdicts.map((v, i) => (i === 1 ? { ...v, correct: true, answer: 'no' as const } : v)),
        });
        const c = compareRuns(d, later);
        assert.equal(c.changed.length, 1);
        assert.equal(c.changed[0]!.before.correct, false);
        const negA = c.deltas.find(x => x.phrasing === 'negated' && x.metric === 'A')!;
        assert.equal(negA.delta, 1);
        assert.match(renderComparison(c), /run-1 → run-2/);
        // Newcombe (1998) example 10 (56/70 vs 48/80): difference 0.2, interval 0.0524–0.3339.
        const [lo, hi] = differenceInterval(48 / 80, [0.4904, 0.698], 56 / 70, [0.692, 0.8777]);
        assert.ok(Math.abs(lo - 0.0524) < 0.002 && Math.abs(hi - 0.3339) < 0.002, `${lo} ${hi}`);
    });
});

describe('CLI report and compare over a real SQLite store', () => {
    let dir = '';
    let db = '';
    const capture = async (fn: () => Promise<number>) => {
        const write = process.stdout.write.bind(process.stdout);
        const err = console.error;
        let out = '';
        // The test runner sends its own (binary) messages through stdout: let those through.
        process.stdout.write = ((s: string | Uint8Array, ...rest: never[]) => {
            if (typeof s !== 'string') return write(s, ...rest);
            out += s;
            return true;
        }) as typeof process.stdout.write;
        console.error = () => {};
        try {
            return { code: await fn(), out };
        } finally {
            process.stdout.write = write;
            console.error = err;
        }
    };
    before(async () => {
        dir = mkdtempSync(path.join(tmpdir(), 'halluprobe-report-'));
        db = path.join(dir, 'results.db');
        const store = await openStore(db);
        for (const id of ['a', 'b']) {
            const r = await store.createRun(path.join(dir, 'gone.probe'), 's', {});
            await store.saveQuestions(r.id, qs);
            for (const [i, a] of answers.entries())
                await store.recordAnswer({
                    run: r.id,
                    question: a.questionId,
                    model: a.model,
                    sample: 0,
                    hash: `${id}${i}`,
                    params: {},
                    text: id === 'b' && i === 1 ? 'No. Avatar exists.' : a.text,
                    tokensIn: 0,
                    tokensOut: 0,
                    latencyMs: 0,
                    cost: 0,
                    attempts: 1,
                    finishReason: 'stop',
                    cached: false,
                    cacheable: false,
                });
            await verifyRun(store, r.id, spec, data);
        }
        await store.close();
    });
    after(() => rmSync(dir, { recursive: true, force: true }));

    it('writes every format, records overrides, gates CI with exit codes', async () => {
        for (const format of ['md', 'html', 'json', 'csv', 'jsonl', 'junit']) {
            const r = await capture(() => report.run(parseArgs(['--db', db, '--format', format])));
            assert.equal(r.code, 0, format);
            assert.ok(r.out.length > 0, format);
        }
        const out = path.join(dir, 'r.xml');
        assert.equal((await capture(() => report.run(parseArgs(['--db', db, '--format', 'junit', '--out', out])))).code, 0);
        assert.match(readFileSync(out, 'utf8'), /<testsuites/);
        assert.equal((await capture(() => report.run(parseArgs(['--db', db, '--fail-on-failures'])))).code, 1);
        assert.equal((await capture(() => report.run(parseArgs(['--db', db, '--max-h', '1'])))).code, 0);
        // Scoped gates: a limit per probe / phrasing / probe/phrasing, the most specific one applying.
        const limits = parseMaxH('0.2, open=0.5, rewire-50=0.9, open/rewire-50=1') as HLimit[];
        assert.equal(limitFor(limits, { probe: 'open', phrasing: 'rewire-50' }), 1);
        assert.equal(limitFor(limits, { probe: 'other', phrasing: 'rewire-50' }), 0.9);
        assert.equal(limitFor(limits, { probe: 'open', phrasing: 'clean' }), 0.5);
        assert.equal(limitFor(limits, { probe: 'binary', phrasing: 'basic' }), 0.2);
        assert.equal(
            limitFor(parseMaxH('open=0.5') as HLimit[], { probe: 'binary', phrasing: 'basic' }),
            undefined,
            'a group no scope names is not gated',
        );
        assert.match(parseMaxH('open=') as string, /between 0 and 1/);
        assert.equal((await capture(() => report.run(parseArgs(['--db', db, '--max-h', 'no_such_probe=0'])))).code, 0);
        assert.equal((await capture(() => report.run(parseArgs(['--db', db, '--max-h', 'basic=2'])))).code, 2);
        assert.equal((await capture(() => report.run(parseArgs(['--db', db, '--format', 'pdf'])))).code, 2);

        const store = await openStore(db);
        const latest = (await store.latestRun())!.id;
        await store.close();
        const o = await capture(() =>
            report.run(
                parseArgs([
                    '--db',
                    db,
                    '--override',
                    qs[2]!.id,
                    '--rationale',
                    'yes',
                    '--correct',
                    'yes',
                    '--why',
                    'alias',
                    '--by',
                    'ann',
                    '--format',
                    'json',
                ]),
            ),
        );
        assert.equal(o.code, 0);
        const j = JSON.parse(o.out) as { overrides: { by: string }[]; passed: number };
        assert.equal(j.overrides[0]!.by, 'ann');
        const s2 = await openStore(db);
        assert.equal((await s2.overrides(latest)).length, 1);
        await s2.recordOverride({
            run: latest,
            questionId: qs[2]!.id,
            model: 'gpt',
            sample: 0,
            correct: false,
            by: 'bob',
            why: 'no',
        });
        assert.equal((await s2.overrides(latest))[0]!.by, 'bob', 'replaced, not duplicated');
        await s2.close();
    });

    it('compare shows the changed verdict', async () => {
        const store = await openStore(db);
        const [b, a] = (await store.listRuns()).map(r => r.id);
        await store.close();
        const r = await capture(() => compare.run(parseArgs([a!, b!, '--db', db, '--format', 'json'])));
        assert.equal(r.code, 0);
        const c = JSON.parse(r.out) as { changed: { questionId: string }[] };
        // The answer changed for the second question; the third changed through the override recorded above.
        assert.deepEqual(
            c.changed.map(x => x.questionId),
            [qs[1]!.id, qs[2]!.id],
        );
        // One run is a matrix of its own models × variants now; no run at all is still bad usage.
        assert.equal((await capture(() => compare.run(parseArgs([a!, '--db', db])))).code, 0);
        assert.equal((await capture(() => compare.run(parseArgs(['--db', db])))).code, 2);
    });
});

describe('verifyRun on a stored run', () => {
    it('with onlyUnverified, leaves existing verdicts alone and verifies only the answers without one', async () => {
        const dir = mkdtempSync(path.join(tmpdir(), 'halluprobe-verify-'));
        try {
            const store = await openStore(path.join(dir, 'results.db'));
            const r = await store.createRun(path.join(dir, 'x.probe'), 's', {});
            await store.saveQuestions(r.id, qs);
            for (const [i, a] of answers.entries())
                await store.recordAnswer({
                    run: r.id,
                    question: a.questionId,
                    model: a.model,
                    sample: 0,
                    hash: `h${i}`,
                    params: {},
                    text: a.text,
                    tokensIn: 0,
                    tokensOut: 0,
                    latencyMs: 0,
                    cost: 0,
                    attempts: 1,
                    finishReason: 'stop',
                    cached: false,
                    cacheable: false,
                });
            // An earlier verdict for the first answer, deliberately different from what verify() would say now.
            const earlier = { ...verify(qs[0]!, answers[0]!.text, ctx, 'gpt', 0), rationale: false, rationaleText: 'earlier' };
            await store.saveVerdicts(r.id, [earlier]);
            const result = await verifyRun(store, r.id, spec, data, { onlyUnverified: true });
            assert.equal(result.verdicts.length, 2, 'only the two answers without a verdict');
            const stored = (await store.loadRunResults(r.id))!.verdicts;
            assert.equal(stored.length, 3);
            assert.equal(stored.find(v => v.questionId === qs[0]!.id)!.rationaleText, 'earlier');
            await store.close();
        } finally {
            rmSync(dir, { recursive: true, force: true });
        }
    });
});
