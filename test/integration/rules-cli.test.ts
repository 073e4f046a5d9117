// Rule probes through the CLI a user types (issue 14): check, preview with proofs, a run with the offline
// simulator and one against the local OpenAI-compatible server through the SDK, each verified and reported.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startOpenAIServer } from '../support/openai-server.js';
import { repoRoot } from '../support/runner-fixtures.js';
import { cli as run } from '../support/cli-process.js';

const cli = (args: string[], env: NodeJS.ProcessEnv = {}) => run(args, env);

interface RuleRecord {
    probe: string;
    phrasing: string;
    gold: string;
    question: string;
    group: { id: string; relation: string; role: string };
    rule: {
        pred: string;
        proof: { kind: string; rule?: string };
        premises: { relation: string; attribute: string; subject: string; value: string }[];
    };
    keywords: string[][];
}
interface Report {
    groups: {
        probe: string;
        phrasing: string;
        mode: string;
        kind: string;
        rules?: { hallucination: { value: number }; errorInference: { value: number } };
    }[];
    questionGroups: { probe: string; relation: string; outcomes: Record<string, number>; n: number }[];
}

describe('rule probes through the CLI', () => {
    let dir: string;
    let spec: string;
    before(() => {
        dir = mkdtempSync(path.join(os.tmpdir(), 'halluprobe-rules-'));
        cpSync(path.join(repoRoot, 'examples', 'rules'), path.join(dir, 'rules'), { recursive: true });
        cpSync(path.join(repoRoot, 'examples', 'soccer', 'data'), path.join(dir, 'soccer', 'data'), { recursive: true });
        spec = path.join(dir, 'rules', 'rules.probe');
    });
    after(() => rmSync(dir, { recursive: true, force: true }));

    it('checks the example clean, and reports an unsound negation where it is written', async () => {
        const ok = await cli(['check', spec]);
        assert.equal(ok.code, 0, ok.stdout + ok.stderr);
        const bad = path.join(dir, 'rules', 'bad.probe');
        writeFileSync(
            bad,
            `${readFileSync(spec, 'utf8')}\nrule strangers(p: Player, q: Player) :- p.club != q.club, not colleague(p, q)\n`,
        );
        const r = await cli(['check', bad]);
        assert.equal(r.code, 1);
        assert.match(
            r.stdout + r.stderr,
            /bad\.probe:\d+:\d+ error \[rule-unsound-negation\] 'not colleague\(…\)' is unsound: colleague rests on Player/,
        );
        // Once, where it is written (not again for every rule probe).
        assert.equal((r.stdout + r.stderr).match(/\[rule-unsound-negation\]/g)?.length, 1);
    });

    it('previews each derived fact as a metamorphic group carrying its proof', async () => {
        const r = await cli(['preview', spec, '--suite', 'rules', '--format', 'jsonl']);
        assert.equal(r.code, 0, r.stderr);
        const records = r.stdout
            .trim()
            .split('\n')
            .map(l => JSON.parse(l) as RuleRecord);
        const byProbe = (p: string) => records.filter(x => x.probe === p);
        for (const p of ['teammates', 'derbies', 'regions', 'player_regions', 'other_club']) assert.ok(byProbe(p).length > 0, p);
        for (const x of records) {
            assert.equal(x.group.relation, 'metamorphic');
            assert.equal(x.rule.proof.kind, 'rule');
            assert.equal(x.keywords.length, x.rule.premises.length);
            assert.equal(x.gold, x.group.role === 'polarity' ? 'no' : 'yes');
        }
        // The paper's shared-object form, with its polarity twin; asked in 2019, the players' date (issue 36 item 11).
        assert.ok(byProbe('teammates').some(x => /^In 2019, is it true that .+ and .+ share the same club\?$/.test(x.question)));
        assert.ok(
            byProbe('teammates').some(x =>
                / have totally different clubs\. Please judge the truth of this statement\.$/.test(x.question),
            ),
        );
        // Symmetric rules add the swapped reading; a rule with an inverse adds the inverse reading.
        assert.ok(byProbe('derbies').some(x => x.group.role === 'symmetric'));
        assert.ok(byProbe('player_regions').some(x => x.group.role === 'inverse' && / is home to the club of /.test(x.question)));
        // The transitive rule's proofs chain through the hierarchy: "Barcelona lies in Europe" rests on three part_of facts.
        const europe = byProbe('regions').find(x => x.rule.premises.length >= 3);
        assert.ok(europe, 'a transitive fact with a chain of three premises');
        // FD negation: every other club of the player's city.
        const notAt = byProbe('other_club').find(x => x.group.role === 'fact')!;
        assert.match(notAt.question, /does not play for/);
    });

    it('says why entities give no question: no fact of the rule is derived for them', async () => {
        const r = await cli(['preview', spec, '--suite', 'rules']);
        assert.equal(r.code, 0, r.stderr);
        assert.match(r.stdout + r.stderr, /rows skipped: \d+ with no derived fact of the rule\./);
        assert.doesNotMatch(r.stdout + r.stderr, /with empty values/);
    });

    it('runs offline and reports rule figures and metamorphic groups', async () => {
        const db = path.join(dir, 'offline.db');
        const run = await cli(['run', spec, '--db', db, '--yes']);
        assert.equal(run.code === 0 || run.code === 1, true, run.stderr);
        const md = await cli(['report', '--db', db, '--format', 'md']);
        assert.match(md.stdout, /## Rules: hallucination and the paper's categories/);
        assert.match(md.stdout, /## Rules: hallucination by relation the proof rests on/);
        assert.match(md.stdout, /## Rules: the first derivation step the rationale gets wrong/);
        const json = JSON.parse((await cli(['report', '--db', db, '--format', 'json'])).stdout) as Report;
        assert.ok(json.groups.some(g => g.kind === 'rule' && g.rules));
        const meta = json.questionGroups.filter(g => g.relation === 'metamorphic');
        assert.equal(meta.length, 5);
        // The example's simulator flips 10 % of the polarity twins.
        assert.ok(meta.some(g => (g.outcomes['polarity-broken'] ?? 0) > 0));
    });

    it("the paper's preset (issue 27 item 10): its 5–6 templates per rule kind with their golds, and its prompt with the example in the user turn", async () => {
        const paper = path.join(dir, 'rules', 'paper.probe');
        writeFileSync(
            paper,
            readFileSync(spec, 'utf8')
                .replace(/probe teammates rule using colleague \{/, '$&\n    templates paper\n    prompt paper')
                .replace(/probe other_club rule using not_at \{/, '$&\n    templates paper'),
        );
        const r = await cli(['preview', paper, '--suite', 'rules', '--format', 'jsonl']);
        assert.equal(r.code, 0, r.stderr);
        const records = r.stdout
            .trim()
            .split('\n')
            .map(l => JSON.parse(l) as RuleRecord & { messages: { role: string; content: string }[] });
        const mates = records.filter(x => x.probe === 'teammates');
        const golds = (xs: typeof records) => [...new Map(xs.map(x => [x.phrasing, x.gold])).entries()];
        assert.deepEqual(golds(mates), [
            ['basic', 'yes'],
            ['same', 'yes'],
            ['separate', 'no'],
            ['different', 'no'],
            ['possibility', 'yes'],
            ['statement', 'no'],
            ['reading', 'yes'],
        ]);
        for (const x of mates) {
            assert.deepEqual(x.messages[0], {
                role: 'system',
                content: 'Answer the question with your knowledge and reasoning power.',
            });
            const user = x.messages.at(-1)!;
            assert.equal(user.role, 'user');
            assert.match(
                user.content,
                /^Now given the question: ".+", please answer it with your knowledge and reasoning power\. Think of it step by step/,
            );
            assert.match(user.content, /Here is an example\. Question: .+\nSupposed response: Yes, /);
        }
        // Asked in 2019, the players' date (issue 36 item 11).
        assert.ok(
            mates.some(
                x =>
                    x.messages.at(-1)!.content.includes('"In 2019, do ') &&
                    / have completely separate clubs\?"/.test(x.messages.at(-1)!.content),
            ),
        );
        // The negation rule's set: its golds follow the negation ("Could it be that E. Hazard plays for Atlético de Madrid?" is a no).
        const away = records.filter(x => x.probe === 'other_club');
        assert.deepEqual(golds(away), [
            ['basic', 'yes'],
            ['could', 'no'],
            ['could_not', 'yes'],
            ['possibility', 'no'],
            ['statement', 'yes'],
        ]);
        assert.ok(away.some(x => x.phrasing === 'could' && /^In 2019, could it be that .+ plays for .+\?$/.test(x.question)));
        // Probes without the preset keep the default layout: the paper's words in the system turn, the question alone.
        const regions = records.find(x => x.probe === 'regions')!;
        assert.match(
            regions.messages[0]!.content,
            /^Answer the question with your knowledge and reasoning power\. Think of it step by step/,
        );
        assert.equal(regions.messages.at(-1)!.content, regions.question);
        // An offline run judges each group: paraphrases must agree with the fact, twins disagree.
        const db = path.join(dir, 'paper.db');
        const run = await cli(['run', paper, '--db', db, '--yes']);
        assert.equal(run.code === 0 || run.code === 1, true, run.stderr);
        const json = JSON.parse((await cli(['report', '--db', db, '--format', 'json'])).stdout) as Report;
        const meta = json.questionGroups.find(g => g.probe === 'teammates' && g.relation === 'metamorphic')!;
        assert.ok(meta.n > 0);
        assert.ok(
            Object.keys(meta.outcomes).every(o =>
                ['consistent', 'polarity-broken', 'paraphrase-broken', 'symmetry-broken', 'undecided'].includes(o),
            ),
            JSON.stringify(meta.outcomes),
        );
    });

    it('runs against the local OpenAI-compatible server: an always-"Yes" model breaks every polarity twin', async () => {
        const systems = new Set<string>();
        const server = await startOpenAIServer({
            answer: info => {
                for (const m of info.body.messages) if (m.role === 'system') systems.add(String(m.content));
                return 'Yes.\n1. I believe the statement is true.';
            },
        });
        try {
            const served = path.join(dir, 'rules', 'served.probe');
            writeFileSync(
                served,
                readFileSync(spec, 'utf8')
                    .replace(
                        /model simulator offline \{[^}]*\}/,
                        `model local openai {\n    id "test-model"\n    endpoint "${server.url}"\n    key_env "RULES_TEST_KEY"\n}`,
                    )
                    .replace('models simulator', 'models local'),
            );
            const db = path.join(dir, 'served.db');
            const run = await cli(['run', served, '--db', db, '--yes'], { RULES_TEST_KEY: 'sk-rules-test' });
            assert.equal(run.code === 0 || run.code === 1, true, run.stderr);
            assert.ok(server.completed > 0);
            // The paper's system prompt and instruction were sent.
            assert.ok(
                [...systems].some(
                    t =>
                        t.startsWith('Answer the question with your knowledge and reasoning power.') &&
                        t.includes('Begin your answer with "Yes", "No" or "I don\'t know"'),
                ),
                [...systems].join('\n'),
            );
            const json = JSON.parse((await cli(['report', '--db', db, '--format', 'json'])).stdout) as Report;
            const group = (phrasing: string) =>
                json.groups.find(g => g.probe === 'teammates' && g.phrasing === phrasing && g.mode === 'all')!;
            assert.equal(group('basic').rules!.hallucination.value, 0);
            assert.equal(group('negated').rules!.hallucination.value, 1);
            const meta = json.questionGroups.find(g => g.probe === 'teammates' && g.relation === 'metamorphic')!;
            assert.equal(meta.outcomes['polarity-broken'], meta.n);
        } finally {
            await server.close();
        }
    });
});
