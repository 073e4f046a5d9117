/**
 * Truthfulness, Informativeness and Correctness of statement answers (METHODS.md §3), with the intended polarity:
 * per triple τ (a true statement and its negatives N(τ)), d(τ) = F(τ) − mean_{τ'∈N(τ)} F'(τ'), where
 *   Correctness:     F = accepts the true statement,              F' = does not reject the false one (yes or I don't know);
 *   Truthfulness:    F = accepts the true one or says I don't know, F' = accepts the false one;
 *   Informativeness: F = does not say I don't know,                F' = says I don't know to the false one.
 * A question's answer is the majority of its samples (ties → I don't know). We report max(0, mean d) with a 95 %
 * interval on mean d, which gives an always-"Yes" model C = 0, an always-"I don't know" one T = 1, I = C = 0, one
 * that accepts every true statement and says I don't know to every negative C = 0 (T = 1), a perfect one 1 / 1 / 1
 * and a yes / no coin ≈ 0; the paper's per-triple mean of max(0, d) is given beside it.
 */
import type { Question } from '../../probes/question.js';
import type { FigureColumn } from '../../probes/contract/figures.js';
import type { ReportSection } from '../../probes/contract/report.js';
import type { Verdict } from '../../verify/types.js';
import { figuresOf, wilson, type GroupMetrics, type Interval } from '../../verify/figures.js';
import { ciText, pct } from '../../report/numbers.js';
import { LABEL_PARTS, keyCells } from '../../report/labels.js';

export type Vote = 'yes' | 'no' | 'idk';

export interface StatementScore {
    /** max(0, mean d) over triples, its 95 % interval, and the paper's mean of max(0, d). */
    value: number | null;
    mean: number | null;
    ci: Interval | null;
    paper: number | null;
}

export interface StatementFigures {
    /** Triples with a true statement and at least one negative. */
    triples: number;
    T: StatementScore;
    I: StatementScore;
    C: StatementScore;
    /** Majority answers by polarity. */
    confusion: { true: Record<Vote, number>; corrupted: Record<Vote, number> };
    /** Negatives accepted (majority "yes"), per corruption kind. */
    byCorruption: Record<string, { n: number; accepted: number }>;
    /**
     * The same figures per relation (the attribute stated: GraphEval's Figure 3), per head type (the entity's
     * relation) and per tail type (an fk's target relation, else the value's kind: App. A.2).
     */
    byRelation: Record<string, Breakdown>;
    byHeadType: Record<string, Breakdown>;
    byTailType: Record<string, Breakdown>;
}

/** T / I / C of the triples of one relation or type, and how many of their negatives were accepted. */
interface Breakdown {
    triples: number;
    T: StatementScore;
    I: StatementScore;
    C: StatementScore;
    negatives: number;
    accepted: number;
}

/** The answer class of one response as a vote. */
function voteOf(v: Verdict): Vote {
    return v.answer === 'true' ? 'yes' : v.answer === 'false' ? 'no' : 'idk';
}

/** The majority of a question's sample votes; a tie is I don't know. */
export function majority(votes: readonly Vote[]): Vote {
    const n = { yes: 0, no: 0, idk: 0 };
    for (const v of votes) n[v]++;
    const best = Math.max(n.yes, n.no, n.idk);
    const top = (['yes', 'no', 'idk'] as const).filter(k => n[k] === best);
    return top.length === 1 ? top[0]! : 'idk';
}

/**
 * The mean of the triples' scores and its 95 % interval. A few triples with the same score have no spread, and a normal
 * interval would have no width ("0.750 [0.750, 0.750]" from two triples); a triple's score lies in [-1, 1], so the
 * interval is never narrower than the Wilson interval of the mean read as a proportion of that range.
 */
export function score(diffs: number[]): StatementScore {
    const n = diffs.length;
    if (n === 0) return { value: null, mean: null, ci: null, paper: null };
    const mean = diffs.reduce((s, d) => s + d, 0) / n;
    const variance = n > 1 ? diffs.reduce((s, d) => s + (d - mean) ** 2, 0) / (n - 1) : 0;
    const half = 1.959963984540054 * Math.sqrt(variance / n);
    const bound = wilson(((mean + 1) / 2) * n, n)!;
    const clip = (x: number) => Math.min(1, Math.max(0, x));
    const ci: Interval = [clip(Math.min(mean - half, 2 * bound[0] - 1)), clip(Math.max(mean + half, 2 * bound[1] - 1))];
    return { value: clip(mean), mean, ci, paper: diffs.reduce((s, d) => s + Math.max(0, d), 0) / n };
}

export interface Triple {
    /** The question group of the true statement and its negatives. */
    id: string;
    probe: string;
    attribute: string;
    /** Head and tail types (statement data; '' when the question predates them). */
    head: string;
    tail: string;
    truth: Vote;
    negatives: { vote: Vote; corruption: string }[];
}

/** Per triple: the majority vote of the true statement and of each negative (with how it was made). */
export function triplesOf(items: readonly { v: Verdict; q: Question }[]): Triple[] {
    const votes = new Map<string, { q: Question; votes: Vote[] }>();
    for (const { v, q } of items) {
        let e = votes.get(q.id);
        if (!e) votes.set(q.id, (e = { q, votes: [] }));
        e.votes.push(voteOf(v));
    }
    const triples = new Map<string, Omit<Triple, 'truth'> & { truth?: Vote; of?: number }>();
    for (const { q, votes: vs } of votes.values()) {
        const id = q.group?.id ?? q.id;
        let t = triples.get(id);
        if (!t)
            triples.set(
                id,
                (t = {
                    id,
                    probe: q.probe,
                    attribute: q.statement?.attribute ?? '',
                    head: q.statement?.head ?? q.entity.relation,
                    tail: q.statement?.tail ?? '',
                    negatives: [],
                    ...(q.statement?.of === undefined ? {} : { of: q.statement.of }),
                }),
            );
        const vote = majority(vs);
        if (q.gold === 'yes') t.truth = vote;
        else t.negatives.push({ vote, corruption: q.statement?.corruption ?? 'unknown' });
    }
    // A triple one of whose statements has no answer (its calls failed) is left out whole, as estimate leaves it out:
    // never scored on the negatives that were answered.
    return [...triples.values()]
        .filter(
            (t): t is Triple & { of?: number } =>
                t.truth !== undefined && t.negatives.length > 0 && (t.of === undefined || t.negatives.length + 1 === t.of),
        )
        .map(({ of: _of, ...t }) => t);
}

export type StatementMetric = 'T' | 'I' | 'C';

/** One triple's d = F − mean F' for a metric (its mean over triples is the metric before clipping). */
export function tripleScore(t: Pick<Triple, 'truth' | 'negatives'>, metric: StatementMetric): number {
    const m = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
    const accepted = t.negatives.map(n => (n.vote === 'yes' ? 1 : 0));
    // Correctness (GraphEval §3): F' is 0 only when the negative is rejected; accepting it or I don't know count against.
    if (metric === 'C') return (t.truth === 'yes' ? 1 : 0) - m(t.negatives.map(n => (n.vote === 'no' ? 0 : 1)));
    if (metric === 'T') return (t.truth !== 'no' ? 1 : 0) - m(accepted);
    return (t.truth !== 'idk' ? 1 : 0) - m(t.negatives.map(n => (n.vote === 'idk' ? 1 : 0)));
}

export function statementFigures(items: readonly { v: Verdict; q: Question }[]): StatementFigures {
    const triples = triplesOf(items);
    const t: number[] = [],
        i: number[] = [],
        c: number[] = [];
    const confusion = { true: { yes: 0, no: 0, idk: 0 }, corrupted: { yes: 0, no: 0, idk: 0 } };
    const byCorruption: StatementFigures['byCorruption'] = {};
    for (const tr of triples) {
        c.push(tripleScore(tr, 'C'));
        t.push(tripleScore(tr, 'T'));
        i.push(tripleScore(tr, 'I'));
        confusion.true[tr.truth]++;
        for (const n of tr.negatives) {
            confusion.corrupted[n.vote]++;
            const k = (byCorruption[n.corruption] ??= { n: 0, accepted: 0 });
            k.n++;
            if (n.vote === 'yes') k.accepted++;
        }
    }
    return {
        triples: triples.length,
        T: score(t),
        I: score(i),
        C: score(c),
        confusion,
        byCorruption,
        byRelation: breakdown(triples, tr => tr.attribute),
        byHeadType: breakdown(triples, tr => tr.head),
        byTailType: breakdown(triples, tr => tr.tail),
    };
}

/** The triples' figures per value of `by` (in the order the values first appear). */
function breakdown(triples: readonly Triple[], by: (t: Triple) => string): Record<string, Breakdown> {
    const groups = new Map<string, Triple[]>();
    for (const t of triples) {
        const k = by(t) || 'unknown';
        groups.set(k, [...(groups.get(k) ?? []), t]);
    }
    const out: Record<string, Breakdown> = {};
    for (const [k, ts] of groups) {
        const negatives = ts.flatMap(t => t.negatives);
        out[k] = {
            triples: ts.length,
            T: score(ts.map(t => tripleScore(t, 'T'))),
            I: score(ts.map(t => tripleScore(t, 'I'))),
            C: score(ts.map(t => tripleScore(t, 'C'))),
            negatives: negatives.length,
            accepted: negatives.filter(n => n.vote === 'yes').length,
        };
    }
    return out;
}

/** The statement figures of a group (GroupMetrics' `figures` field, key `statements`). */
const statementsOf = (g: GroupMetrics) => figuresOf<StatementFigures>(g, 'statements');

export function statementExtras(items: readonly { v: Verdict; q: Question }[]): Partial<GroupMetrics> {
    return items.length ? { figures: { statements: statementFigures(items) } } : {};
}

const fig = (s: StatementScore) => `${pct(s.value)} ${ciText(s.ci)}`;

/** The breakdowns every format shows: (title, the table's first column, where the figures are). */
const BREAKDOWNS: [string, string, (s: StatementFigures) => Record<string, Breakdown> | undefined][] = [
    ['relation (GraphEval Figure 3)', 'relation', s => s.byRelation],
    ['head type', 'head type', s => s.byHeadType],
    ['tail type', 'tail type', s => s.byTailType],
];

/** A breakdown on one line (CSV, JUnit, the figures table): "director: T .62 I .80 C .50 (12 triples); …". */
function breakdownText(b: Record<string, Breakdown> | undefined): string | null {
    const parts = Object.entries(b ?? {}).map(
        ([k, x]) => `${k}: T ${short(x.T.value)} I ${short(x.I.value)} C ${short(x.C.value)} (${x.triples} triples)`,
    );
    return parts.length ? parts.join('; ') : null;
}

const short = (x: number | null) => (x === null ? 'n/a' : x.toFixed(2).replace(/^0(?=\.)/, ''));

/**
 * The statement figures as named columns (CSV, JUnit properties, the md / html figures table): the three metrics with
 * their paper variants, spelt out so that "C" is never read as "contradicted", and the breakdowns as text.
 */
export const STATEMENT_COLUMNS: FigureColumn[] = [
    { name: 'triples', slot: 'statements.triples', value: g => statementsOf(g)?.triples ?? null },
    { name: 'truthfulness', slot: 'statements.T', value: g => statementsOf(g)?.T.value ?? null },
    { name: 'informativeness', slot: 'statements.I', value: g => statementsOf(g)?.I.value ?? null },
    { name: 'correctness', slot: 'statements.C', value: g => statementsOf(g)?.C.value ?? null },
    { name: 'correctness_low', value: g => statementsOf(g)?.C.ci?.[0] ?? null },
    { name: 'correctness_high', value: g => statementsOf(g)?.C.ci?.[1] ?? null },
    { name: 'truthfulness_paper', value: g => statementsOf(g)?.T.paper ?? null },
    { name: 'informativeness_paper', value: g => statementsOf(g)?.I.paper ?? null },
    { name: 'correctness_paper', value: g => statementsOf(g)?.C.paper ?? null },
    { name: 'by_relation', slot: 'statements.byRelation', value: g => breakdownText(statementsOf(g)?.byRelation) },
    { name: 'by_head_type', slot: 'statements.byHeadType', value: g => breakdownText(statementsOf(g)?.byHeadType) },
    { name: 'by_tail_type', slot: 'statements.byTailType', value: g => breakdownText(statementsOf(g)?.byTailType) },
];

export function statementSections(groups: readonly GroupMetrics[]): ReportSection[] {
    const shown = groups.filter(g => !g.na && (statementsOf(g)?.triples ?? 0) > 0);
    if (shown.length === 0) return [];
    // The group key every report table starts with (variant with its parameters, phrasing), so no two rows look alike.
    const head = keyCells;
    return [
        {
            title: 'Statements: truthfulness, informativeness, correctness',
            columns: [...LABEL_PARTS, 'triples', 'T', 'I', 'C', 'paper T / I / C (mean of max(0, ·))'],
            rows: shown.map(g => {
                const s = statementsOf(g)!;
                return [
                    ...head(g),
                    String(s.triples),
                    fig(s.T),
                    fig(s.I),
                    fig(s.C),
                    `${pct(s.T.paper)} / ${pct(s.I.paper)} / ${pct(s.C.paper)}`,
                ];
            }),
        },
        {
            title: 'Statements: answers by polarity (majority of samples)',
            columns: [...LABEL_PARTS, 'true: yes', 'true: no', 'true: idk', 'corrupted: yes', 'corrupted: no', 'corrupted: idk'],
            rows: shown.map(g => {
                const c = statementsOf(g)!.confusion;
                return [
                    ...head(g),
                    ...[c.true.yes, c.true.no, c.true.idk, c.corrupted.yes, c.corrupted.no, c.corrupted.idk].map(String),
                ];
            }),
        },
        ...BREAKDOWNS.map(([title, column, of]) => ({
            title: `Statements by ${title}`,
            columns: [...LABEL_PARTS, column, 'triples', 'T', 'I', 'C', 'false accepted'],
            rows: shown.flatMap(g =>
                Object.entries(of(statementsOf(g)!) ?? {}).map(([k, b]) => [
                    ...head(g),
                    k,
                    String(b.triples),
                    fig(b.T),
                    fig(b.I),
                    fig(b.C),
                    `${b.accepted}/${b.negatives} (${pct(b.negatives ? b.accepted / b.negatives : null)})`,
                ]),
            ),
        })),
        {
            title: 'Statements: false statements accepted, by corruption',
            columns: [...LABEL_PARTS, 'corruption', 'negatives', 'accepted'],
            rows: shown.flatMap(g =>
                Object.entries(statementsOf(g)!.byCorruption).map(([k, x]) => [
                    ...head(g),
                    k,
                    String(x.n),
                    `${x.accepted} (${pct(x.n ? x.accepted / x.n : null)})`,
                ]),
            ),
        },
    ];
}
