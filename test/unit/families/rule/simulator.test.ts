// Acceptance (issue 14): with the offline simulator set to known shares of wrong inferences, wrong premises and
// flipped polarity twins, the reported rates of our categories (wrong answer from right premises, right answer from
// wrong premises, both wrong) and the metamorphic inconsistency rate cover the shares the simulator was given, within their 95 % intervals. (Each interval misses its share
// for about one seed in twenty; the simulator's seed here is its default, 1.)
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { generateQuestions } from '../../../../src/core/probes/index.js';
import { createVerifyContext, verify } from '../../../../src/core/verify/verify.js';
import { computeMetrics, type Figure } from '../../../../src/core/verify/metrics.js';
import { rulesOf } from '../../../../src/core/families/rule/metrics.js';
import { judgeQuestionGroups, summarizeQuestionGroups } from '../../../../src/core/verify/groups.js';
import { OfflineClient, domainFromData, offlineRates } from '../../../../src/core/models/offline.js';
import { prng } from '../../../../src/core/probes/sampling.js';
import type { Question } from '../../../../src/core/probes/question.js';
import { world, type World } from '../../../fixtures/probes/world.js';

const PLAYERS = 1200;
const CLUBS = 60;

function covers(f: Figure | { ci: [number, number] | null }, truth: number, what: string): void {
    assert.ok(f.ci && f.ci[0] <= truth && truth <= f.ci[1], `${what}: interval ${JSON.stringify(f.ci)} does not cover ${truth}`);
}

async function measure(w: World, settings: Record<string, number>) {
    const questions: Question[] = [...generateQuestions(w.model, w.data, { probe: 'teammates' }).questions];
    const client = new OfflineClient(
        'sim',
        offlineRates({ knowledge: 1, unsure: 0, omit: 0, contradict: 0, seed: 1, ...settings }),
        domainFromData(w.data),
    );
    const ctx = createVerifyContext(w.model, w.data);
    const verdicts = questions.map(q => verify(q, client.answer(q), ctx, 'sim'));
    const metrics = computeMetrics(questions, verdicts).filter(g => g.mode === 'all');
    const groups = summarizeQuestionGroups(judgeQuestionGroups(questions, verdicts));
    return { questions, metrics, groups };
}

describe("rule metrics against the simulator's known shares", () => {
    let w: World;
    before(async () => {
        const random = prng(3);
        const rows = Array.from(
            { length: PLAYERS },
            (_, i) => `Player ${String(i).padStart(4, '0')},Club ${String(Math.floor(random() * CLUBS)).padStart(2, '0')}`,
        );
        w = await world(
            `source players csv "players.csv"
relation Player from players { name: text  club: text  key (name) }
fd Player: name -> club as player_club
rule colleague(p: Player, q: Player) :- p.club = q.club, p != q
    symmetric
probe teammates rule using colleague { noun "club"  per_entity 1 }
`,
            { 'players.csv': `name,club\n${rows.join('\n')}\n` },
        );
        assert.deepEqual(
            w.diagnostics.filter(d => d.severity === 'error'),
            [],
        );
    });
    after(() => w?.dispose());

    it('20 % wrong inferences and 10 % flipped twins: wrong answers from right premises ≈ 20 %, inconsistency ≈ 10 %', async () => {
        const { questions, metrics, groups } = await measure(w, { wrong_inferences: 0.2, flips_twins: 0.1 });
        const facts = questions.filter(q => q.group?.role === 'fact').length;
        assert.ok(facts > 1000, `${facts} derived facts asked`);
        const basic = rulesOf(metrics.find(g => g.phrasing === 'basic')!)!;
        covers(basic.wrongAnswerRightPremises, 0.2, 'wrong answer, right premises (fact questions)');
        assert.equal(basic.rightAnswerWrongPremises.k, 0, 'every premise stated right');
        // The paper's oracle sees every premise stated right (overlaps 1): it classifies none of these wrong answers.
        assert.equal(basic.overlapNotLow.k, basic.wrong);
        covers(basic.hallucination, 0.2, 'hallucination (fact questions)');
        const g = groups.find(x => x.relation === 'metamorphic')!;
        const inconsistency = { ci: [1 - g.ok.ci![1], 1 - g.ok.ci![0]] as [number, number] };
        covers(inconsistency, 0.1, 'metamorphic inconsistency');
        // A wrong inference flips the whole group, so it never breaks the symmetric reading.
        assert.equal(g.outcomes['symmetry-broken'] ?? 0, 0);
    });

    it('with 10 % wrong premises as well: our three categories split as the shares multiply', async () => {
        const { metrics } = await measure(w, { wrong_inferences: 0.2, flips_twins: 0.1, wrong_premises: 0.1 });
        const basic = rulesOf(metrics.find(g => g.phrasing === 'basic')!)!;
        covers(basic.wrongAnswerRightPremises, 0.2 * 0.9, 'wrong answer, right premises');
        covers(basic.rightAnswerWrongPremises, 0.1 * 0.8, 'right answer, wrong premises');
        covers(basic.wrongAnswerWrongPremises, 0.1 * 0.2, 'wrong answer, wrong premises');
        // The paper's oracle on the same wrong answers: a premise stated with another club leaves edge overlap 1/3
        // and node overlap 3/4 — both below the paper's θ 0.8 (issue 41): both; right premises leave both overlaps at
        // 1 — neither low.
        assert.equal(basic.both.k, basic.wrongAnswerWrongPremises.k);
        assert.equal(basic.overlapNotLow.k, basic.wrongAnswerRightPremises.k);
        assert.equal(basic.errorKnowledge.k + basic.errorInference.k, 0);
        // The first wrong step is the premise the simulator changed: step 1 or 2 of the shared-club proof.
        const steps = Object.keys(basic.firstWrongStep).sort();
        assert.deepEqual(steps, ['1', '2']);
        assert.ok(basic.claims.contradicted > 0);
    });
});
