/**
 * Statement probes analysed as GraphEval does (its Figure 3 and Appendix A.2): T / I / C per relation and per head /
 * tail type, in every report format; and `estimate` budgets in calls or dollars, not only triples. Real CLI, real files.
 */
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { cli } from '../support/cli-process.js';
import { tempDir } from '../support/temp.js';

const repo = path.resolve(import.meta.dirname, '..', '..');

interface Breakdown {
    triples: number;
    C: { value: number | null };
    T: { value: number | null };
    negatives: number;
    accepted: number;
}
interface Group {
    probe: string;
    mode: string;
    kind: string;
    statements?: {
        triples: number;
        byRelation: Record<string, Breakdown>;
        byHeadType: Record<string, Breakdown>;
        byTailType: Record<string, Breakdown>;
    };
}

describe('statements: per relation and per head / tail type, and budgets in calls or dollars', () => {
    let dir: string;
    let spec: string;
    before(() => {
        dir = tempDir('hp-statements-analysis-');
        cpSync(path.join(repo, 'examples', 'statements'), path.join(dir, 'statements'), { recursive: true });
        cpSync(path.join(repo, 'examples', 'movie', 'data'), path.join(dir, 'movie', 'data'), { recursive: true });
        spec = path.join(dir, 'statements', 'statements.probe');
        writeFileSync(
            spec,
            `${readFileSync(spec, 'utf8')}\nmodel pricey offline { knowledge 0.9  seed 5  price_input 2.5  price_output 10 }\n`,
        );
    });

    it('a model right about directors and saying yes to every star statement: C 1 for director, 0 for star, in json, csv, md and html', async () => {
        const preview = await cli(['preview', spec, '--probe', 'movie_facts', '--format', 'jsonl'], {});
        assert.equal(preview.code, 0, preview.stderr);
        const qs = preview.stdout
            .trim()
            .split('\n')
            .map(
                l => JSON.parse(l) as { id: string; gold: string; statement: { attribute: string; head: string; tail: string } },
            );
        assert.ok(
            qs.every(q => q.statement.head === 'movie'),
            "the head type: the entity's relation",
        );
        assert.deepEqual(
            [...new Set(qs.map(q => `${q.statement.attribute}:${q.statement.tail}`))].sort(),
            ['director:director', 'star:text'],
            "the tail type: the fk's target, else the value's kind",
        );
        const answers = qs.map(q => ({
            id: q.id,
            answer:
                q.statement.attribute === 'star' || q.gold === 'yes'
                    ? 'Yes, the statement is true.'
                    : 'No, the statement is false.',
        }));
        writeFileSync(path.join(dir, 'answers.jsonl'), answers.map(a => JSON.stringify(a)).join('\n'));
        const db = path.join(dir, 'analysis.db');
        const run = await cli(['run', spec, '--model', `m=replay:${path.join(dir, 'answers.jsonl')}`, '--db', db, '--yes'], {});
        assert.ok(run.code === 0 || run.code === 1, run.stderr);

        const json = JSON.parse((await cli(['report', '--db', db, '--format', 'json'], {})).stdout) as { groups: Group[] };
        const g = json.groups.find(x => x.probe === 'movie_facts' && x.mode === 'all')!;
        const s = g.statements!;
        assert.equal(s.byRelation.director!.C.value, 1);
        assert.equal(s.byRelation.star!.C.value, 0);
        assert.equal(s.byRelation.star!.accepted, s.byRelation.star!.negatives, 'every false star statement accepted');
        assert.equal(s.byRelation.director!.triples + s.byRelation.star!.triples, s.triples);
        assert.equal(s.byHeadType.movie!.triples, s.triples);
        assert.equal(s.byHeadType.movie!.C.value, 0.5);
        assert.equal(s.byTailType.director!.C.value, 1);
        assert.equal(s.byTailType.text!.C.value, 0);

        const csv = (await cli(['report', '--db', db, '--format', 'csv'], {})).stdout.trim().split('\n');
        const header = csv[0]!.split(',');
        for (const c of [
            'triples',
            'truthfulness',
            'informativeness',
            'correctness',
            'by_relation',
            'by_head_type',
            'by_tail_type',
        ])
            assert.ok(header.includes(c), `csv column ${c}: ${csv[0]}`);
        assert.ok(!header.includes('C'), '"C" is never a column name: contradicted and correctness are spelt out');
        const row = csv.find(l => l.startsWith('m,movie_facts,statement,statement,zero_shot,zero_shot,all,'))!;
        assert.equal(row.split(',')[header.indexOf('correctness')], '0.5');
        const byRelation = row.split(',')[header.indexOf('by_relation')]!;
        assert.match(byRelation, /(^|; )director: T 1\.00 I 1\.00 C 1\.00 \(60 triples\)/);
        assert.match(byRelation, /(^|; )star: T \.00 I 1\.00 C \.00 \(60 triples\)/);

        const md = (await cli(['report', '--db', db], {})).stdout;
        for (const t of ['Statements by relation (GraphEval Figure 3)', 'Statements by head type', 'Statements by tail type'])
            assert.match(md, new RegExp(`## ${t.replace(/[()]/g, '\\$&')}`));
        const html = (await cli(['report', '--db', db, '--format', 'html'], {})).stdout;
        assert.match(html, /Statements by relation \(GraphEval Figure 3\)/);
        const junit = (await cli(['report', '--db', db, '--format', 'junit'], {})).stdout;
        assert.match(junit, /<property name="statement correctness" value="0\.5"\/>/);
    });

    it('estimate takes a budget in calls: each triple is its statements × samples; what was spent and a full run are reported', async () => {
        const r = await cli(
            [
                'estimate',
                spec,
                '--probe',
                'movie_facts',
                '--model',
                'simulator',
                '--cheap',
                'cheap',
                '--budget',
                '60calls',
                '--db',
                path.join(dir, 'calls.db'),
                '--format',
                'json',
            ],
            {},
        );
        assert.equal(r.code, 0, r.stderr);
        const e = JSON.parse(r.stdout) as {
            labelled: number;
            population: number;
            budget: { units: number; calls: number };
            spent: { calls: number };
            full: { calls: number };
        };
        // movie_facts: a true statement and 3 negatives per triple, 1 sample: 4 calls a triple.
        assert.equal(e.budget.units, 15);
        assert.equal(e.budget.calls, 60);
        assert.equal(e.full.calls, e.population * 4);
        assert.ok(e.labelled <= 15);
        assert.ok(e.spent.calls <= 60 && e.spent.calls > 0, JSON.stringify(e.spent));
        const text = await cli(
            [
                'estimate',
                spec,
                '--probe',
                'movie_facts',
                '--model',
                'simulator',
                '--cheap',
                'cheap',
                '--budget',
                '60 calls',
                '--db',
                path.join(dir, 'calls.db'),
            ],
            {},
        );
        assert.match(text.stdout, /spent: \d+ calls of simulator.*; budget 15 triples = 60 calls.*; a full run: 480 calls/);
    });

    it("estimate takes a budget in dollars at the model's price, and says when it buys too little or there is no price", async () => {
        const r = await cli(
            [
                'estimate',
                spec,
                '--probe',
                'movie_facts',
                '--model',
                'pricey',
                '--cheap',
                'cheap',
                '--budget',
                '$0.05',
                '--db',
                path.join(dir, 'usd.db'),
                '--format',
                'json',
            ],
            {},
        );
        assert.equal(r.code, 0, r.stderr);
        const e = JSON.parse(r.stdout) as { budget: { units: number; usd: number }; full: { usd: number; units: number } };
        assert.ok(e.full.usd > 0);
        assert.equal(e.budget.units, Math.floor(0.05 / (e.full.usd / e.full.units)));
        assert.ok(e.budget.usd <= 0.05 + 1e-9);
        const tiny = await cli(
            [
                'estimate',
                spec,
                '--probe',
                'movie_facts',
                '--model',
                'pricey',
                '--cheap',
                'cheap',
                '--budget',
                '$0.0001',
                '--db',
                path.join(dir, 'usd.db'),
            ],
            {},
        );
        assert.equal(tiny.code, 1);
        assert.match(
            tiny.stderr,
            /\$0\.0001 buys 0 triples of movie_facts \(about \$[\d.]+ each\); an estimate needs at least 2\. Give at least \$[\d.]+\./,
        );
        const served = path.join(dir, 'statements', 'unpriced.probe');
        writeFileSync(
            served,
            `${readFileSync(spec, 'utf8')}\nmodel unpriced openai { id "in-house-model"  endpoint "http://127.0.0.1:9/v1"  key_env "NO_SUCH_KEY" }\n`,
        );
        const none = await cli(
            [
                'estimate',
                served,
                '--probe',
                'movie_facts',
                '--model',
                'unpriced',
                '--cheap',
                'cheap',
                '--budget',
                '$1',
                '--db',
                path.join(dir, 'usd.db'),
            ],
            {},
        );
        assert.equal(none.code, 1, none.stderr);
        assert.match(
            none.stderr,
            /A budget in dollars needs unpriced's price, and it has none\. Set price_input and price_output/,
        );
    });
});
