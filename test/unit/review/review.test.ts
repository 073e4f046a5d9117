// The review room's engine: the stratified, seeded, resumable sample; how many labels a target needs; Cohen's κ; and
// the prediction-powered correction's coverage on simulated runs with a known true rate and a reader of known error rates.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
    agreementOf,
    cohensKappaOf,
    labelsNeeded,
    ppiShare,
    reviewOrder,
    reviewPlan,
    slotOf,
    type ReviewItem,
} from '../../../src/core/review/index.js';
import { prng } from '../../../src/core/probes/sampling.js';
import { wilson } from '../../../src/core/verify/figures.js';
import type { Verdict } from '../../../src/core/verify/types.js';
import type { ReviewLabel } from '../../../src/core/store/types.js';
import { movieQuestions } from '../../support/questions.js';

const verdict = (id: string, correct: boolean, over: Partial<Verdict> = {}): Verdict => ({
    questionId: id,
    model: 'm',
    sample: 0,
    answer: correct ? 'yes' : 'no',
    correct,
    rationale: correct,
    rationaleText: '',
    hops: [],
    ...over,
});

/** Items of three strata (opening right, opening wrong, hedged wrong) and two where the readers disagree. */
function items(): ReviewItem[] {
    return movieQuestions(40)
        .map((question, i) => {
            const v =
                i < 2
                    ? verdict(question.id, false, { modelRead: { model: 'reader', agree: false } })
                    : i % 3 === 0
                      ? verdict(question.id, true, {
                            read: { text: 'Yes', span: [0, 3], why: 'opens with "Yes"', stance: 'answer' },
                        })
                      : i % 3 === 1
                        ? verdict(question.id, false, {
                              read: { text: 'No', span: [0, 2], why: 'opens with "No"', stance: 'answer' },
                          })
                        : verdict(question.id, false, {
                              read: { text: 'No', span: [0, 2], why: 'opens with "No"', stance: 'hedged' },
                          });
            return { question, verdict: v, response: 'Yes.', stratum: '' };
        })
        .map(it => ({
            ...it,
            stratum: `binary · ${it.verdict.correct ? 'pass' : 'fail'} · ${it.verdict.modelRead ? 'model reader disagrees' : it.verdict.read!.stance === 'hedged' ? 'hedged' : 'opening'}`,
        }));
}

test("the review order: seeded (same seed, same order), readers' disagreements first, then the strata in turn", () => {
    const a = reviewOrder(items(), 7).map(i => i.question.id);
    assert.deepEqual(
        reviewOrder(items(), 7).map(i => i.question.id),
        a,
    );
    assert.notDeepEqual(
        reviewOrder(items(), 8).map(i => i.question.id),
        a,
    );
    assert.deepEqual(new Set(a.slice(0, 2)), new Set(['q0', 'q1']), 'the model reader disagreeing with the patterns comes first');
    const strata = reviewOrder(items(), 7)
        .slice(2, 6)
        .map(i => i.stratum);
    assert.equal(new Set(strata.slice(0, 3)).size, 3, `each stratum in turn: ${strata.join(' | ')}`);
    assert.equal(a.length, 40);
    assert.equal(new Set(a).size, 40);
});

test('a review resumes after what the reviewer labelled; another reviewer starts afresh; n and a target bound the next items', () => {
    const all = items();
    const order = reviewOrder(all, 3);
    const label = (it: ReviewItem, reviewer: string, l: ReviewLabel['label']): ReviewLabel => ({
        run: 'r',
        questionId: it.verdict.questionId,
        model: 'm',
        sample: 0,
        reviewer,
        label: l,
        at: '2026-11-28',
    });
    const labels = [label(order[0]!, 'ann', 'fail'), label(order[1]!, 'ann', 'pass'), label(order[2]!, 'ann', 'unsure')];
    const ann = reviewPlan(all, labels, { reviewer: 'ann', seed: 3, n: 2 });
    assert.deepEqual(
        ann.next.map(i => slotOf(i.verdict)),
        order.slice(3, 5).map(i => slotOf(i.verdict)),
    );
    assert.equal(ann.labelled, 3);
    // q0 / q1 are read as fail: "fail" agrees, "pass" does not, unsure is left out.
    assert.deepEqual([ann.agreement.k, ann.agreement.n], [1, 2]);
    assert.deepEqual(
        reviewPlan(all, labels, { reviewer: 'bob', seed: 3, n: 1 }).next.map(i => i.question.id),
        [order[0]!.question.id],
    );
    const target = reviewPlan(all, labels, { reviewer: 'ann', seed: 3, target: 0.05 });
    assert.equal(target.needed, labelsNeeded(1, 2, 0.05));
    assert.equal(target.next.length, Math.min(target.needed!, 37));
});

test("labels needed for a target: the fewest at which the Wilson interval's half-width is within it", () => {
    for (const [k, n] of [
        [18, 20],
        [95, 100],
        [0, 0],
        [50, 100],
    ] as const) {
        const more = labelsNeeded(k, n, 0.05);
        const p = n ? k / n : 0.5;
        const half = (m: number) => {
            const ci = wilson(p * m, m)!;
            return (ci[1] - ci[0]) / 2;
        };
        assert.ok(half(n + more) <= 0.05, `${k}/${n}: +${more}`);
        assert.ok(n + more - 1 <= n || half(n + more - 1) > 0.05, `${k}/${n}: +${more} is the fewest`);
    }
    assert.equal(labelsNeeded(50, 100, 0.05), 281, "at one half: 381 labels in all (Wald's textbook figure is 385)");
    assert.equal(labelsNeeded(950, 1000, 0.05), 0);
});

test("Cohen's κ of two reviewers over the four labels", () => {
    assert.equal(
        cohensKappaOf([
            ['pass', 'pass'],
            ['fail', 'fail'],
            ['pass', 'pass'],
            ['fail', 'fail'],
        ]),
        1,
    );
    // po = 0.5, pe = 0.5 → 0.
    assert.equal(
        cohensKappaOf([
            ['pass', 'pass'],
            ['pass', 'fail'],
            ['fail', 'pass'],
            ['fail', 'fail'],
        ]),
        0,
    );
    assert.equal(cohensKappaOf([]), null);
});

/**
 * One simulated run: N answers with a true rate p, a reader that misses a right answer with probability `miss` and
 * takes a wrong one for right with probability `falseRight`; n answers labelled in review order (strata: the
 * reader's verdict) for the corrected A; and, for labels alone, the Wilson interval of n answers labelled at random
 * (what the same number of labels tells without the reader).
 */
function simulate(seed: number, o: { N: number; n: number; p: number; miss: number; falseRight: number }) {
    const random = prng(seed * 7919 + 1);
    const qs = movieQuestions(o.N, `s${seed}-`);
    const truth: number[] = [];
    const simItems: ReviewItem[] = qs.map(question => {
        const y = random() < o.p ? 1 : 0;
        truth.push(y);
        const f = y ? random() >= o.miss : random() < o.falseRight;
        return { question, verdict: verdict(question.id, f), response: '', stratum: `binary · ${f ? 'pass' : 'fail'} · opening` };
    });
    const index = new Map(simItems.map((it, i) => [it.question.id, i]));
    const labels = new Map<number, number>();
    for (const it of reviewOrder(simItems, seed).slice(0, o.n)) {
        const i = index.get(it.question.id)!;
        labels.set(i, truth[i]!);
    }
    const corrected = ppiShare(
        simItems.map(it => (it.verdict.correct ? 1 : 0)),
        simItems.map(it => it.stratum),
        labels,
    )!;
    let k = 0;
    for (let j = 0; j < o.n; j++) k += truth[Math.floor(random() * o.N)]!;
    return { corrected, labelsOnly: { ci: wilson(k, o.n)! } };
}

function coverage(o: Parameters<typeof simulate>[1]) {
    let covered = 0,
        coveredLabels = 0,
        width = 0,
        widthLabels = 0;
    for (let seed = 1; seed <= 200; seed++) {
        const { corrected, labelsOnly } = simulate(seed, o);
        if (corrected.ci[0] <= o.p && o.p <= corrected.ci[1]) covered++;
        if (labelsOnly.ci[0] <= o.p && o.p <= labelsOnly.ci[1]) coveredLabels++;
        width += corrected.ci[1] - corrected.ci[0];
        widthLabels += labelsOnly.ci[1] - labelsOnly.ci[0];
    }
    return { covered: covered / 200, coveredLabels: coveredLabels / 200, width: width / 200, widthLabels: widthLabels / 200 };
}

test('the corrected A covers the true rate in at least 90 % of 200 simulated runs, narrower than labels alone when the reader is good', t => {
    const good = coverage({ N: 2000, n: 100, p: 0.7, miss: 0.03, falseRight: 0.05 });
    t.diagnostic(
        `good reader: coverage ${good.covered} (labels only ${good.coveredLabels}), mean width ${good.width.toFixed(3)} vs labels only ${good.widthLabels.toFixed(3)}`,
    );
    assert.ok(good.covered >= 0.9, `coverage ${good.covered}`);
    assert.ok(good.width < good.widthLabels, `${good.width} < ${good.widthLabels}`);
    // A poor reader (reads a fifth of the right answers as wrong, a quarter of the wrong as right): still covered, wider.
    const poor = coverage({ N: 2000, n: 100, p: 0.7, miss: 0.2, falseRight: 0.25 });
    t.diagnostic(
        `poor reader: coverage ${poor.covered} (labels only ${poor.coveredLabels}), mean width ${poor.width.toFixed(3)} vs labels only ${poor.widthLabels.toFixed(3)}`,
    );
    assert.ok(poor.covered >= 0.9, `coverage ${poor.covered}`);
    assert.ok(poor.width > good.width);
});

test("agreement counts pass / fail / unreadable against the reader's own class, unsure left out", () => {
    const v = [verdict('a', true), verdict('b', false), verdict('c', false, { answer: 'unsure' }), verdict('d', true)];
    const f = agreementOf([
        { verdict: v[0]!, label: 'pass' },
        { verdict: v[1]!, label: 'pass' },
        { verdict: v[2]!, label: 'unreadable' },
        { verdict: v[3]!, label: 'unsure' },
    ]);
    assert.deepEqual([f.k, f.n], [2, 3]);
});
