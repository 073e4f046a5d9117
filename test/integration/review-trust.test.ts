/**
 * The review's trust figures in the reports: agreement on the latest label, κ and corrected A for one run (the same
 * numbers in every face: test/acceptance/same-numbers.test.ts); a run
 * nobody reviewed says so in one line; `report --min-agreement` fails (exit 1) naming the families below it and passes
 * above; labels imported from a CSV with a located error per bad row; the labelled answers exported and checked again.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { openStore, type Store } from '../../src/core/store/index.js';
import { loadReport, renderReport } from '../../src/core/report/index.js';
import { cli } from '../support/cli-process.js';
import { movieQuestions } from '../support/questions.js';
import { newRun, tempDir } from '../support/runner-fixtures.js';

/** Twelve answers (six per phrasing); the reader reads the even ones right, the odd ones wrong. */
async function fill(store: Store): Promise<{ runId: string; ids: string[] }> {
    const questions = movieQuestions(12, 't');
    const runId = await newRun(store, questions);
    for (const [i, q] of questions.entries()) {
        await store.recordAnswer({
            run: runId,
            question: q.id,
            model: 'mini',
            sample: 0,
            hash: `h${i}`,
            params: {},
            text: i % 2 ? 'Yes, it is.' : 'Yes. It is Movie.',
            tokensIn: 1,
            tokensOut: 1,
            latencyMs: 1,
            cost: 0,
            attempts: 1,
            finishReason: 'stop',
            cached: false,
            cacheable: false,
        });
    }
    await store.saveVerdicts(
        runId,
        questions.map((q, i) => ({
            questionId: q.id,
            model: 'mini',
            sample: 0,
            answer: 'yes',
            correct: i % 2 === 0 || i === 3,
            rationale: i % 2 === 0,
            rationaleText: '',
            hops: [],
            read: {
                text: 'Yes',
                span: [0, 3] as [number, number],
                why: 'opens with "Yes"',
                stance: i === 5 ? 'hedged' : 'answer',
            },
        })),
    );
    return { runId, ids: questions.map(q => q.id) };
}

test('agreement counts the latest label of an answer, κ between reviewers, corrected A; --min-agreement fails below, passes above', async () => {
    const dir = tempDir('hp-trust-');
    const db = path.join(dir, 'r.db');
    const store = await openStore(db);
    const { runId, ids } = await fill(store);
    const nobody = await loadReport(store, runId);
    assert.match(renderReport(nobody.data, 'md'), /^Not reviewed: no answer of this run has a review label/m);
    assert.deepEqual(JSON.parse(renderReport(nobody.data, 'json')).trust, {
        reviewed: false,
        note:
            nobody.data.trust.labels === 0
                ? "Not reviewed: no answer of this run has a review label, so the reader's agreement is unknown (halluprobe review)."
                : '',
    });
    // Labels: basic (even ids): 0 pass, 2 pass, 4 fail (reader said pass: a disagreement); negated: 1 fail, 3 unreadable, 5 unsure.
    // Bob labels later: 0 pass, 2 fail — the latest label of an answer counts, so basic agrees on 1 of 3.
    const label = (i: number, l: 'pass' | 'fail' | 'unsure' | 'unreadable', reviewer = 'ann') =>
        store.recordLabel({ run: runId, questionId: ids[i]!, model: 'mini', sample: 0, reviewer, label: l });
    await label(0, 'pass');
    await label(2, 'pass');
    await label(4, 'fail');
    await label(1, 'fail');
    await label(3, 'unreadable');
    await label(5, 'unsure');
    await label(0, 'pass', 'bob');
    await label(2, 'fail', 'bob');
    const { data } = await loadReport(store, runId);
    await store.close();
    const basic = data.trust.groups.find(g => g.phrasing === 'basic')!;
    assert.deepEqual([basic.agreement.k, basic.agreement.n, basic.reviewed, basic.n], [1, 3, 3, 6]);
    assert.equal(basic.confusion.pass.fail, 2);
    const json = JSON.parse(renderReport(data, 'json')).trust;
    const jb = json.groups.find((g: { phrasing: string }) => g.phrasing === 'basic');
    const md = renderReport(data, 'md');
    // The same figures in md, json, csv, html and the editor: test/acceptance/same-numbers.test.ts (issue 37).
    assert.equal(jb.agreement.value, 0.3333);
    assert.match(
        md,
        /^Reviewed: 8 labels by ann, bob; the reader agrees with them .* on 5 reviewed; between reviewers ann–bob κ /m,
    );
    assert.deepEqual(
        json.kappa.map((k: { a: string; b: string; n: number; agree: number }) => [k.a, k.b, k.n, k.agree]),
        [['ann', 'bob', 2, 1]],
    );
    // Corrected A of basic: the reader says 6/6 right; a third of its labelled "right" were wrong.
    assert.ok(jb.corrected.A.value < jb.corrected.A.raw, JSON.stringify(jb.corrected.A));

    const failing = await cli(['report', '--db', db, '--format', 'json', '--min-agreement', '0.95'], process.env);
    assert.equal(failing.code, 1, failing.stderr);
    assert.match(
        failing.stderr,
        /reader agreement below 0\.95 for the binary family: mini · movie_binary · basic 0\.33 \[0\.06, 0\.79\] on 3 reviewed; mini · movie_binary · negated 0\.50 \[0\.09, 0\.91\] on 2 reviewed\./,
    );
    const passing = await cli(['report', '--db', db, '--format', 'json', '--min-agreement', '0.3'], process.env);
    assert.equal(passing.code, 0, passing.stderr);
});

test('review --import: located errors for bad rows and nothing stored; a good file is stored; --export and reader-check', async () => {
    const dir = tempDir('hp-import-');
    const db = path.join(dir, 'r.db');
    const store = await openStore(db);
    const { runId, ids } = await fill(store);
    await store.close();
    const bad = path.join(dir, 'bad.csv');
    writeFileSync(
        bad,
        `question,model,sample,label,reviewer\n${ids[0]},mini,0,pass,ann\nnope,mini,0,pass,ann\n${ids[1]},mini,x,pass,ann\n${ids[2]},mini,0,maybe,ann\n`,
    );
    const refused = await cli(['review', '--db', db, '--import', bad], process.env);
    assert.equal(refused.code, 1, refused.stderr);
    assert.match(refused.stderr, /bad\.csv:3:1 error \[labels-csv\] No question "nope" in run/);
    assert.match(refused.stderr, /bad\.csv:4:1 error \[labels-csv\] sample "x" is not a whole number/);
    assert.match(refused.stderr, /bad\.csv:5:1 error \[labels-csv\] label "maybe" is not one of pass, fail, unsure, unreadable/);
    const good = path.join(dir, 'good.csv');
    writeFileSync(good, `question,model,sample,label,reviewer\n${ids[0]},mini,0,pass,ann\n${ids[1]},mini,0,pass,ann\n`);
    const ok = await cli(['review', '--db', db, '--import', good], process.env);
    assert.equal(ok.code, 0, ok.stderr);
    assert.match(ok.stdout, /Imported 2 labels/);
    const corpus = path.join(dir, 'corpus.jsonl');
    assert.equal((await cli(['review', '--db', db, '--export', corpus], process.env)).code, 0);
    const check = await cli(['reader-check', corpus], process.env);
    // t1 answers "Yes, it is." to a question whose gold is no: the reader reads fail, the label says pass.
    assert.equal(check.code, 1, check.stderr);
    assert.match(check.stdout, /binary: the reader agrees 0\.50 \[0\.09, 0\.91\] on 2 reviewed/);
    assert.match(check.stdout, new RegExp(`${runId}/${ids[1]}/mini/0 \\(binary\\): labelled pass, read fail \\(answer yes\\)`));
});
