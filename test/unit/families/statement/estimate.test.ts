// Whole-graph estimates: the expensive model is the offline simulator, the cheap one agrees with it on a set
// share of the statements and otherwise answers as another simulator would. At a 10 % budget over 200 seeded
// trials the 95 % interval covers the full-run value in at least 90 % of trials, and the prediction-powered
// interval is narrower than the sample-only one.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { generateQuestions } from '../../../../src/core/probes/index.js';
import { createVerifyContext, verify } from '../../../../src/core/verify/verify.js';
import { OfflineClient, offlineRates } from '../../../../src/core/models/offline.js';
import { triplesOf, tripleScore, type Triple } from '../../../../src/core/families/statement/metrics.js';
import { estimateMean } from '../../../../src/core/families/statement/estimate.js';
import { prng } from '../../../../src/core/probes/sampling.js';
import type { Question } from '../../../../src/core/probes/question.js';
import { world, type World } from '../../../fixtures/probes/world.js';

const ROWS = 1200;
// 200, not 50: at 50 trials the count of covered trials has a binomial spread of about 1.5, so a 90 % floor fails
// on about one data set in eight by chance alone.
const TRIALS = Number(process.env.HALLUPROBE_ESTIMATE_TRIALS ?? 200);

function scores(w: World, questions: Question[], answer: (q: Question) => string): Map<string, { triple: Triple; d: number }> {
    const ctx = createVerifyContext(w.model, w.data);
    const triples = triplesOf(questions.map(q => ({ q, v: verify(q, answer(q), ctx, 'm') })));
    return new Map(triples.map(t => [t.id, { triple: t, d: tripleScore(t, 'C') }]));
}

describe('whole-graph estimates of a statement probe', () => {
    let w: World;
    let expensive: number[];
    let cheap: number[];
    let strata: string[];
    before(async () => {
        const random = prng(99);
        const pick = (xs: string[]) => xs[Math.floor(random() * xs.length)]!;
        const cities = ['Rome', 'Oslo', 'Lima', 'Kyiv', 'Pune', 'Hue', 'Bern', 'Riga'];
        const clubs = ['Ajax', 'Roma', 'Lazio', 'Porto', 'Benfica', 'Celtic'];
        const csv =
            'name,city,club,born\n' +
            Array.from(
                { length: ROWS },
                (_, i) => `p${i},${pick(cities)},${pick(clubs)},${1950 + Math.floor(random() * 50)}`,
            ).join('\n') +
            '\n';
        w = await world(
            `source s csv "people.csv"
relation Person from s { name: text  city: text  club: text  born: int  key(name) }
fd Person: name -> city, club, born as facts
probe p statement using facts { negatives 2  corrupt [tail, head] }
`,
            { 'people.csv': csv },
        );
        const questions = [...generateQuestions(w.model, w.data, { probe: 'p' }).questions];
        const big = new OfflineClient('expensive', offlineRates({ knowledge: 0.6, seed: 1 }));
        const other = new OfflineClient('other', offlineRates({ knowledge: 0.6, seed: 2 }));
        const agree = prng(5);
        const agreeWith = new Map(questions.map(q => [q.id, agree() < 0.8]));
        const exp = scores(w, questions, q => big.answer(q));
        const chp = scores(w, questions, q => (agreeWith.get(q.id) ? big.answer(q) : other.answer(q)));
        const ids = [...exp.keys()];
        expensive = ids.map(id => exp.get(id)!.d);
        cheap = ids.map(id => chp.get(id)!.d);
        strata = ids.map(id => exp.get(id)!.triple.attribute);
    });
    after(() => w?.dispose());

    it('covers the full-run value in ≥ 90 % of 200 trials at a 10 % budget, and PPI is narrower than the sample alone', async () => {
        const truth = expensive.reduce((s, x) => s + x, 0) / expensive.length;
        const budget = Math.round(expensive.length / 10);
        let covered = 0,
            ppiWidth = 0,
            sampleWidth = 0,
            ppiCovered = 0;
        for (let seed = 1; seed <= TRIALS; seed++) {
            const r = await estimateMean({ cheap, strata, budget, seed, label: ts => ts.map(t => expensive[t]!) });
            assert.equal(r.labelled, budget);
            if (r.chosen.ci[0] <= truth && truth <= r.chosen.ci[1]) covered++;
            if (r.ppi.ci[0] <= truth && truth <= r.ppi.ci[1]) ppiCovered++;
            ppiWidth += r.ppi.halfWidth / TRIALS;
            sampleWidth += r.sampleOnly.halfWidth / TRIALS;
        }
        console.log(
            `  ${expensive.length} triples, budget ${budget}: full-run C ${truth.toFixed(3)}; coverage ${covered}/${TRIALS} (PPI ${ppiCovered}/${TRIALS}); mean half-width PPI ${ppiWidth.toFixed(3)} vs sample-only ${sampleWidth.toFixed(3)}`,
        );
        assert.ok(covered >= 0.9 * TRIALS, `covered ${covered} of ${TRIALS}`);
        assert.ok(ppiWidth < sampleWidth, `PPI ${ppiWidth} vs sample ${sampleWidth}`);
    });

    it('stops at a target half-width, spending fewer calls than the budget', async () => {
        const r = await estimateMean({
            cheap,
            strata,
            budget: expensive.length,
            target: 0.05,
            seed: 3,
            label: ts => ts.map(t => expensive[t]!),
        });
        assert.ok(r.chosen.halfWidth <= 0.05, `${r.chosen.halfWidth}`);
        assert.ok(r.labelled < expensive.length / 2, `${r.labelled} calls`);
        assert.deepEqual(Object.keys(r.perStratum).sort(), ['born', 'city', 'club']);
    });

    it("reaches ±0.02 on C with at most a quarter of a full run's calls on 3,600 triples (issue 27 item 17), and still covers", async () => {
        // Every triple is asked with the same statements, so triples labelled / triples is the share of a full run's calls.
        const truth = expensive.reduce((s, x) => s + x, 0) / expensive.length;
        const trials = Math.min(TRIALS, 30);
        const labelled: number[] = [];
        let covered = 0;
        for (let seed = 1; seed <= trials; seed++) {
            const r = await estimateMean({
                cheap,
                strata,
                budget: expensive.length,
                target: 0.02,
                seed,
                label: ts => ts.map(t => expensive[t]!),
            });
            assert.ok(r.chosen.halfWidth <= 0.02, `seed ${seed}: half-width ${r.chosen.halfWidth}`);
            labelled.push(r.labelled);
            if (r.chosen.ci[0] <= truth && truth <= r.chosen.ci[1]) covered++;
        }
        labelled.sort((a, b) => a - b);
        const median = labelled[Math.floor(trials / 2)]!;
        console.log(
            `  ±0.02 on ${expensive.length} triples: median ${median} (${((100 * median) / expensive.length).toFixed(1)} %), max ${labelled[trials - 1]}; coverage ${covered}/${trials}`,
        );
        assert.ok(median <= 0.25 * expensive.length, `median ${median} of ${expensive.length}`);
        assert.ok(covered >= 0.85 * trials, `covered ${covered} of ${trials}`);
    });
});
