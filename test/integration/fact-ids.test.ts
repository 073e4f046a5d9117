/**
 * One fact, every family (docs/facts.md), its ids: every family's questions of examples/facts record the facts they
 * test, a fact has the same id in every family and in every generation, and the ids stored with the questions are the
 * same after copying the run SQLite → PostgreSQL → SQLite (the test starts its own server).
 */
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { generateQuestions } from '../../src/core/probes/index.js';
import { loadSpec } from '../../src/core/spec/load.js';
import { loadData } from '../../src/core/data/index.js';
import { copyStore } from '../../src/core/store/copy.js';
import { openStore } from '../../src/core/store/index.js';
import type { Question } from '../../src/core/probes/question.js';
import { startPostgres, type PostgresServer } from '../support/postgres.js';
import { newRun, tempDir } from '../support/runner-fixtures.js';

const SPEC = path.resolve('examples/facts/facts.probe');

async function generate(): Promise<Question[]> {
    const { model } = await loadSpec(SPEC);
    const data = await loadData(model);
    return [...generateQuestions(model, data, { suite: 'facts' }).questions];
}

const idsOf = (qs: Question[]) =>
    qs.map(q => [
        q.id,
        (q.facts ?? []).map(
            f =>
                `${f.id} ${f.role}${f.option ? ` ${f.option}` : ''}${f.hop ? ` hop ${f.hop}` : ''}${f.passage ? ` ${f.passage}` : ''}`,
        ),
    ]);

let pg: PostgresServer | undefined;
before(async () => {
    pg = await startPostgres();
    if (!pg) return;
    pg.createDatabase('facts');
    process.env.PGPASSWORD = pg.password;
});
after(() => {
    pg?.stop();
    delete process.env.PGPASSWORD;
});

test("every family records the facts it tests, and Avatar's director is one fact across all of them", async () => {
    const questions = await generate();
    const kinds = new Set(questions.map(q => q.kind));
    for (const kind of ['binary', 'choice', 'path', 'statement', 'evidence', 'rule', 'open']) {
        assert.ok(kinds.has(kind), `examples/facts asks ${kind}`);
        assert.ok(
            questions.some(q => q.kind === kind && (q.facts?.length ?? 0) > 0),
            `${kind} questions record facts`,
        );
    }
    const avatar = questions.flatMap(q =>
        (q.facts ?? []).filter(f => f.label === 'Movie(Avatar, 2009).director').map(f => ({ kind: q.kind, f })),
    );
    assert.deepEqual([...new Set(avatar.map(a => a.kind))].sort(), [
        'binary',
        'choice',
        'evidence',
        'open',
        'path',
        'rule',
        'statement',
    ]);
    assert.equal(new Set(avatar.map(a => a.f.id)).size, 1, 'one id in every family');
    assert.equal(avatar.find(a => a.kind === 'binary')!.f.value, 'James Cameron');
    // The forms each family records: choice's options (one falsified, with the value shown), the path's hops, the
    // passage that came with an evidence question, a rule's premises and conclusion with its proof.
    const choice = questions.find(q => q.kind === 'choice')!;
    assert.deepEqual(
        choice.facts!.map(f => f.option),
        [1, 2],
    );
    const shown = choice.facts!.find(f => f.role === 'shown')!;
    assert.equal(shown.option, choice.gold);
    assert.ok(shown.shown && shown.shown !== shown.value, 'the falsified option shows another value');
    const pathQ = questions.find(q => q.kind === 'path')!;
    assert.deepEqual(
        pathQ.facts!.map(f => [f.relation, f.attribute, f.hop]),
        [
            ['Movie', 'director', 1],
            ['Director', 'birth_year', 2],
        ],
    );
    assert.deepEqual(
        new Set(questions.filter(q => q.kind === 'evidence').map(q => q.facts![0]!.passage)),
        new Set(['given', 'swapped', 'none']),
    );
    const rule = questions.find(q => q.kind === 'rule')!;
    const conclusion = rule.facts!.find(f => f.role === 'conclusion')!;
    assert.deepEqual(
        conclusion.proof,
        rule.facts!.filter(f => f.role === 'premise').map(f => f.label),
    );
    assert.ok(conclusion.proof!.length >= 2);
    const negative = questions.find(q => q.kind === 'statement' && q.gold === 'no')!;
    assert.equal(negative.facts![0]!.role, 'shown');
});

test('fact ids are the same in a second generation and after a copy SQLite → PostgreSQL → SQLite', async t => {
    const first = await generate();
    const second = await generate();
    assert.deepEqual(idsOf(second), idsOf(first));
    if (!pg) return t.skip('PostgreSQL is not installed here');
    const dir = tempDir('hp-facts-');
    const a = await openStore(path.join(dir, 'a.db'));
    const runId = await newRun(a, first);
    const stored = await a.questionFacts(runId);
    await a.close();
    const want = first.flatMap(q => (q.facts ?? []).map(f => ({ question: q.id, fact: f })));
    const byQuestion = (rows: { question: string; fact: { id: string } }[]) =>
        [...rows].sort((x, y) => (x.question < y.question ? -1 : x.question > y.question ? 1 : 0));
    assert.deepEqual(stored, byQuestion(want));
    const url = pg.url('facts');
    assert.deepEqual(await copyStore(path.join(dir, 'a.db'), url), { copied: [runId], skipped: [] });
    const server = await openStore(url);
    try {
        assert.deepEqual(await server.questionFacts(runId), stored, 'PostgreSQL holds the same facts');
        const avatar = stored.find(s => s.fact.label === 'Movie(Avatar, 2009).director')!.fact.id;
        assert.ok((await server.questionFacts(runId, [avatar])).length >= 7, "a fact's questions are found by its id");
    } finally {
        await server.close();
    }
    assert.deepEqual(await copyStore(url, path.join(dir, 'b.db')), { copied: [runId], skipped: [] });
    const back = await openStore(path.join(dir, 'b.db'));
    try {
        assert.deepEqual(await back.questionFacts(runId), stored);
    } finally {
        await back.close();
    }
});
