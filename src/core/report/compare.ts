/**
 * Comparing two runs: the questions whose verdict changed (same question id, model and sample in both), and
 * the metric deltas per group with an interval for the difference (Newcombe's method from the two Wilson
 * intervals, so it stays inside [−1, 1] and needs no normal approximation of small groups).
 */
import type { EvaluationMode, GroupMetrics, Interval } from '../verify/metrics.js';
import { groupKey, LABEL_PARTS, partText } from './labels.js';
import { mdText } from './markdown.js';
import { passed, pct, type ReportData, type ReportRow } from './model.js';

interface VerdictChange {
    questionId: string;
    model: string;
    sample: number;
    question: string;
    before: { answer: string; correct: boolean; rationale: boolean; passed: boolean };
    after: { answer: string; correct: boolean; rationale: boolean; passed: boolean };
}

interface MetricDelta {
    model: string;
    probe: string;
    phrasing: string;
    variant: string;
    mode: EvaluationMode;
    metric: 'A' | 'R' | 'AR' | 'M' | 'H';
    before: number | null;
    after: number | null;
    nBefore: number;
    nAfter: number;
    delta: number | null;
    /** 95 % interval of after − before. */
    ci: Interval | null;
}

export interface Comparison {
    runA: string;
    runB: string;
    changed: VerdictChange[];
    deltas: MetricDelta[];
    onlyA: number;
    onlyB: number;
    /** When each run asked one model under different names (e.g. the spec's `simulator` and `--model offline`): the pair compared. */
    paired?: { a: string; b: string };
}

/**
 * A model's identity for comparing is its name in the run. Two runs of one model each are compared model to
 * model whatever the names (the usual "before / after" of one model, or the spec's simulator against
 * `--model offline`); with more models, names must match.
 */
function modelPairing(a: ReportData, b: ReportData): { a: string; b: string } | undefined {
    const names = (d: ReportData) => [...new Set(d.rows.map(r => r.verdict.model))];
    const [ma, mb] = [names(a), names(b)];
    return ma.length === 1 && mb.length === 1 && ma[0] !== mb[0] ? { a: ma[0]!, b: mb[0]! } : undefined;
}

/** Newcombe's hybrid score interval for p2 − p1 from the two Wilson intervals. */
export function differenceInterval(p1: number, ci1: Interval, p2: number, ci2: Interval): Interval {
    const d = p2 - p1;
    const low = d - Math.sqrt((p2 - ci2[0]) ** 2 + (ci1[1] - p1) ** 2);
    const high = d + Math.sqrt((ci2[1] - p2) ** 2 + (p1 - ci1[0]) ** 2);
    return [Math.max(-1, low), Math.min(1, high)];
}

const key = (r: ReportRow) => `${r.verdict.questionId}\u0000${r.verdict.model}\u0000${r.verdict.sample}`;
const state = (r: ReportRow) => ({
    answer: r.verdict.answer,
    correct: r.verdict.override?.correct ?? r.verdict.correct,
    rationale: r.verdict.override?.rationale ?? r.verdict.rationale,
    passed: passed(r),
});
const groupId = (g: GroupMetrics) => JSON.stringify(Object.values(groupKey(g)));

export function compareRuns(a: ReportData, b: ReportData): Comparison {
    const paired = modelPairing(a, b);
    if (paired) b = renameModel(b, paired.b, paired.a);
    const before = new Map(a.rows.map(r => [key(r), r]));
    const changed: VerdictChange[] = [];
    let onlyB = 0;
    for (const r of b.rows) {
        const old = before.get(key(r));
        if (!old) {
            onlyB++;
            continue;
        }
        const s0 = state(old),
            s1 = state(r);
        if (s0.answer !== s1.answer || s0.correct !== s1.correct || s0.rationale !== s1.rationale) {
            changed.push({
                questionId: r.verdict.questionId,
                model: r.verdict.model,
                sample: r.verdict.sample,
                question: r.question.question,
                before: s0,
                after: s1,
            });
        }
    }
    const inB = new Set(b.rows.map(key));
    const onlyA = a.rows.filter(r => !inB.has(key(r))).length;
    const groupsA = new Map(a.metrics.map(g => [groupId(g), g]));
    const deltas: MetricDelta[] = [];
    for (const g of b.metrics) {
        const old = groupsA.get(groupId(g));
        if (!old || old.na || g.na) continue;
        for (const metric of ['A', 'R', 'AR', 'M', 'H'] as const) {
            const p1 = old[metric],
                p2 = g[metric],
                c1 = old.ci[metric],
                c2 = g.ci[metric];
            const delta = p1 === null || p2 === null ? null : p2 - p1;
            deltas.push({
                ...groupKey(g),
                metric,
                before: p1,
                after: p2,
                nBefore: old.n,
                nAfter: g.n,
                delta,
                ci: p1 !== null && p2 !== null && c1 && c2 ? differenceInterval(p1, c1, p2, c2) : null,
            });
        }
    }
    return { runA: a.run.id, runB: b.run.id, changed, deltas, onlyA, onlyB, ...(paired ? { paired } : {}) };
}

/** Run b as if its model had run a's name (rows and groups), to compare one model with another. */
function renameModel(d: ReportData, from: string, to: string): ReportData {
    const rename = (m: string) => (m === from ? to : m);
    return {
        ...d,
        rows: d.rows.map(r => ({ ...r, verdict: { ...r.verdict, model: rename(r.verdict.model) } })),
        metrics: d.metrics.map(g => ({ ...g, model: rename(g.model) })),
    };
}

export function renderComparison(c: Comparison, maxChanges = 200): string {
    const out = [`# HalluProbe compare: ${mdText(c.runA)} → ${mdText(c.runB)}`, ''];
    if (c.paired)
        out.push(
            `Model ${mdText(c.paired.a)} (${mdText(c.runA)}) compared with model ${mdText(c.paired.b)} (${mdText(c.runB)}); the tables name it ${mdText(c.paired.a)}.`,
            '',
        );
    out.push(
        '## Metric deltas (after − before, Newcombe 95 % interval)',
        '',
        `| ${LABEL_PARTS.join(' | ')} | metric | before | after | Δ | interval |`,
        `|${LABEL_PARTS.map(() => '---').join('|')}|---|---|---|---|---|`,
    );
    for (const d of c.deltas) {
        const sig = d.ci && (d.ci[0] > 0 || d.ci[1] < 0) ? ' *' : '';
        out.push(
            `| ${LABEL_PARTS.map(p => mdText(partText(d, p))).join(' | ')} | ${d.metric} | ${pct(d.before)} (N ${d.nBefore}) | ${pct(d.after)} (N ${d.nAfter}) | ${d.delta === null ? 'n/a' : (d.delta >= 0 ? '+' : '') + d.delta.toFixed(2)}${sig} | ${d.ci ? `[${d.ci[0].toFixed(2)}, ${d.ci[1].toFixed(2)}]` : ''} |`,
        );
    }
    out.push('', '`*`: the interval excludes 0.', '');
    return out.join('\n') + changedVerdictsMarkdown(c, maxChanges);
}

/** The verdicts that changed from one run to the other, as a Markdown section (empty when none did). */
export function changedVerdictsMarkdown(c: Comparison, maxChanges = 200): string {
    const out = [
        `${c.changed.length} verdicts changed; ${c.onlyA} only in ${mdText(c.runA)}, ${c.onlyB} only in ${mdText(c.runB)}.`,
        '',
    ];
    if (c.changed.length) {
        out.push(`## Changed verdicts (${Math.min(maxChanges, c.changed.length)} of ${c.changed.length})`, '');
        const s = (x: VerdictChange['before']) =>
            `${x.answer}, answer ${x.correct ? 'right' : 'wrong'}, rationale ${x.rationale ? 'right' : 'wrong'}`;
        for (const ch of c.changed.slice(0, maxChanges))
            out.push(
                `- ${mdText(ch.model)} · ${mdText(ch.questionId)}: ${mdText(ch.question)} — ${s(ch.before)} → ${s(ch.after)}`,
            );
        out.push('');
    }
    return out.join('\n');
}
