/**
 * What every report format renders: the run, one row per verdict (with its question and response), the metrics
 * (overrides applied) and the overrides themselves. Pure: built from plain data, no store access.
 */
import { goldText, type Question } from '../probes/question.js';
import type { RunSettings } from '../store/index.js';
import { computeMetrics, type GroupMetrics, type MetricsOptions } from '../verify/metrics.js';
import { applyOverrides, type Override } from '../verify/overrides.js';
import type { JudgeResult } from '../verify/judge.js';
import type { Verdict } from '../verify/types.js';
import { factVerdicts, type FactReport } from '../verify/facts.js';
import { questionPassed } from '../verify/passed.js';
import { judgeQuestionGroups, summarizeQuestionGroups, type QuestionGroupSummary, type GroupVerdict } from '../verify/groups.js';
import { capabilityOf } from '../probes/registry.js';
import type { FigureColumn } from '../probes/contract/figures.js';
import type { ReportSection } from '../probes/contract/report.js';
import type { ReviewLabel } from '../store/types.js';
import { computeTrust, type TrustReport, type TrustRow } from '../review/trust.js';

export type ReportFormat = 'md' | 'html' | 'json' | 'csv' | 'jsonl' | 'junit' | 'erbench';
export const REPORT_FORMATS: ReportFormat[] = ['md', 'html', 'json', 'csv', 'jsonl', 'junit', 'erbench'];

export interface ReportRun {
    id: string;
    spec: string;
    suite: string;
    started: string;
    finished: string | null;
    status: string;
    /** The run's settings as the store keeps them; `models[].provider` tells which models were simulated. */
    settings?: RunSettings;
}

export const SIMULATOR_LABEL = '(offline simulator)';

/** Names of the run's models that are HalluProbe's offline simulator, not a real model. */
export function simulatedModels(run: ReportRun): Set<string> {
    const models = run.settings?.models ?? [];
    return new Set(models.filter(m => m.provider === 'offline').map(m => m.name));
}

export interface ReportRow {
    question: Question;
    verdict: Verdict;
    response: string;
}

export interface ReportData {
    run: ReportRun;
    rows: ReportRow[];
    metrics: GroupMetrics[];
    /** Question groups judged together (twins, evidence swaps, levels): one verdict per group, and their counts. */
    groupVerdicts: GroupVerdict[];
    /** Their counts per relation: the JSON report's `questionGroups` (its `groups` are the metric rows, `metrics` here). */
    questionGroups: QuestionGroupSummary[];
    overrides: Override[];
    judge?: JudgeResult;
    /** Answers that have no verdict yet (verify the run first). */
    unverified: number;
    /** Questions asked of no avail: per probe and model, those whose calls failed and those not answered yet. */
    unanswered: Unanswered[];
    /** Each slot (question × model × sample) whose calls failed, with the last error. */
    failedSlots: FailedSlot[];
    /** Each slot not asked yet (a run stopped or still going). */
    pendingSlots: Omit<FailedSlot, 'error'>[];
    failedCalls: number;
    notAnswered: number;
    /** How far to trust the figures: the reader's agreement with the run's review labels, corrected figures (review room). */
    trust: TrustReport;
    /** One fact, every family (docs/facts.md): each fact's verdict per model, the classes' shares, the family pairs' agreement. */
    facts: FactReport;
}

import { unansweredSlots, type Unanswered } from './unanswered.js';
interface FailedSlot {
    question: Question;
    model: string;
    sample: number;
    error: string;
}

export interface ReportInput {
    run: ReportRun;
    questions: Question[];
    answers: { questionId: string; model: string; sample: number; text: string }[];
    verdicts: Verdict[];
    /** As stored; judged here from the verdicts when absent (a run verified before groups existed). */
    groupVerdicts?: GroupVerdict[];
    /** The slots whose calls failed (the store's `failures`), with their last error. */
    failures?: { question: string; model: string; sample: number; error: string }[];
    /** The run's review labels (every reviewer's). */
    labels?: ReviewLabel[];
}

const slot = (q: string, m: string, s: number) => `${q}\u0000${m}\u0000${s}`;

export function buildReport(
    input: ReportInput,
    overrides: Override[] = [],
    options: MetricsOptions & { judge?: JudgeResult } = {},
): ReportData {
    // A simulated model is labelled as such in every format, whatever the user named it.
    const simulated = simulatedModels(input.run);
    const label = (v: Verdict): Verdict => (simulated.has(v.model) ? { ...v, model: `${v.model} ${SIMULATOR_LABEL}` } : v);
    const applied = applyOverrides(input.verdicts, overrides);
    const verdicts = applied.map(label);
    const questions = new Map(input.questions.map(q => [q.id, q]));
    const responses = new Map(input.answers.map(a => [slot(a.questionId, a.model, a.sample), a.text]));
    const rows: ReportRow[] = [];
    const trustRows: TrustRow[] = [];
    const seen = new Set<string>();
    applied.forEach((v, i) => {
        const q = questions.get(v.questionId);
        if (!q) return;
        const key = slot(v.questionId, v.model, v.sample);
        seen.add(key);
        rows.push({ question: q, verdict: verdicts[i]!, response: responses.get(key) ?? '' });
        trustRows.push({ question: q, verdict: verdicts[i]!, rawModel: v.model });
    });
    const unverified = input.answers.filter(a => !seen.has(slot(a.questionId, a.model, a.sample))).length;
    const groupVerdicts = (input.groupVerdicts?.length ? input.groupVerdicts : judgeQuestionGroups(input.questions, applied)).map(
        g => (simulated.has(g.model) ? { ...g, model: `${g.model} ${SIMULATOR_LABEL}` } : g),
    );
    const metrics = computeMetrics(input.questions, verdicts, options);
    const data: ReportData = {
        run: input.run,
        rows,
        metrics,
        groupVerdicts,
        questionGroups: summarizeQuestionGroups(groupVerdicts),
        overrides,
        unverified,
        ...unansweredOf(input, questions, simulated),
        trust: computeTrust(metrics, trustRows, input.labels ?? []),
        facts: factVerdicts(input.questions, verdicts),
    };
    if (options.judge) data.judge = options.judge;
    return data;
}

/** Which of the run's slots (question × model × sample) have no answer: their calls failed, or were not made yet. */
function unansweredOf(
    input: ReportInput,
    questions: Map<string, Question>,
    simulated: Set<string>,
): Pick<ReportData, 'unanswered' | 'failedSlots' | 'pendingSlots' | 'failedCalls' | 'notAnswered'> {
    const shown = (m: string) => (simulated.has(m) ? `${m} ${SIMULATOR_LABEL}` : m);
    const failedSlots: FailedSlot[] = [];
    const pendingSlots: ReportData['pendingSlots'] = [];
    const slots = {
        questions: input.questions,
        answers: input.answers,
        ...(input.run.settings ? { settings: input.run.settings } : {}),
        ...(input.failures ? { failures: input.failures } : {}),
    };
    const unanswered = unansweredSlots(slots, (q, model, sample, error) => {
        const s = { question: questions.get(q.id) ?? q, model: shown(model), sample };
        if (error === undefined) pendingSlots.push(s);
        else failedSlots.push({ ...s, error });
    }).map(u => ({ ...u, model: shown(u.model) }));
    return {
        unanswered,
        failedSlots,
        pendingSlots,
        failedCalls: failedSlots.length,
        notAnswered: unanswered.reduce((n, u) => n + u.notAnswered, 0),
    };
}

/** The report's one-line count: verdicts, passed, failed, and the questions that got no answer. */
export function countsLine(d: ReportData): string {
    const failed = d.rows.filter(r => !passed(r)).length;
    return (
        `${d.rows.length} verdicts, ${d.rows.length - failed} passed, ${failed} failed` +
        (d.failedCalls ? `, ${d.failedCalls} question${d.failedCalls === 1 ? '' : 's'} not answered: the calls failed` : '') +
        (d.notAnswered ? `, ${d.notAnswered} not answered yet` : '') +
        (d.unverified ? `, ${d.unverified} answers not verified yet` : '') +
        '.'
    );
}

/** Did this question pass? (answer right, and the rationale right where the question has keywords.) */
export function passed(row: ReportRow): boolean {
    return questionPassed(row.question, row.verdict);
}

/** How many rows failed their question (`report --fail-on-failures` counts these). */
export function failedRows(rows: readonly Pick<ReportRow, 'question' | 'verdict'>[]): number {
    return rows.filter(r => !questionPassed(r.question, r.verdict)).length;
}

/** `hop 3: "Munich" contradicted by "London", "2012", "1948" missing`: one part per failed hop, its missing keywords together. */
function hopReason(h: ReportRow['verdict']['hops'][number]): string | undefined {
    const contradicted = h.keywords
        .filter(k => k.status === 'contradicted')
        .map(k => `"${k.value}" contradicted by "${k.conflict?.value}"`);
    const missing = h.keywords.filter(k => k.status !== 'found' && k.status !== 'contradicted').map(k => `"${k.value}"`);
    const said = [...contradicted, ...(missing.length ? [`${missing.join(', ')} missing`] : [])];
    return said.length ? `hop ${h.hop}: ${said.join(', ')}` : undefined;
}

/** One line saying why a row failed, for JUnit messages and tables. */
export function failureReason(row: ReportRow): string {
    return explainVerdict(row.question, row.verdict, row.response).join('; ');
}

/** What the model reader reads, per family, in the agreement table's words. */
const READS: Record<string, string> = {
    labels: 'a label',
    option: 'the option chosen',
    short: 'the short answer',
    claims: 'the claims',
};

/** The span the reader took as the answer and why, or what the model reader read when it decided. */
export function readText(v: Verdict): string {
    const m = v.modelRead;
    if (m?.held !== undefined) return `held for review: ${m.model} ${m.held}; the pattern reader decides`;
    if (m?.patterns !== undefined) {
        const words = m.quote ?? m.text;
        return `read by ${m.model}${words ? ` as "${words}"${m.span ? ` at ${m.span[0]}–${m.span[1]}` : ''}` : ` as ${m.answer}`}; the pattern reader read ${m.patternsRead ?? m.patterns}`;
    }
    return v.read ? `read ${v.read.text ? `"${v.read.text}" at ${v.read.span[0]}–${v.read.span[1]}: ` : ''}${v.read.why}` : '';
}

/** What an override overrode, in words: `"I'm not sure" at 0–12 (patterns)`; empty for an override stored without it. */
export function overrodeText(o: Pick<Override, 'read'>): string {
    return o.read ? `"${o.read.text}" at ${o.read.span[0]}–${o.read.span[1]} (${o.read.by})` : '';
}

/**
 * Why a verdict failed, in parts every face shows (report failing lists, JUnit, the Test Explorer peek, the hover's
 * worst failures, the graph panel): the family's own explanation (open: which claim, which edge) or the answer read
 * against the gold with the span read; then every failed hop with its contradicting value. Empty when it passed.
 */
export function explainVerdict(q: Question, v: Verdict, response: string): string[] {
    const parts: string[] = [];
    if (!(v.override?.correct ?? v.correct)) {
        const own = v.override ? [] : (capabilityOf(q.kind, 'report')?.explainFailure?.(q, v, response) ?? []);
        if (own.length) parts.push(...own);
        else {
            // The span the reader took as the answer, and why: a misreading shows here, not only a wrong answer.
            const read = readText(v);
            // A free short answer is named by what it said ("answered "1997""), never "answer answer".
            const said =
                v.answer === 'answer'
                    ? `answered ${v.read?.text ? `"${v.read.text}"` : 'otherwise'}`
                    : `answer ${v.answer}${v.option !== undefined ? ` ${v.option}` : ''}`;
            parts.push(`${said}, expected ${goldText(q)}${read ? ` (${read})` : ''}`);
        }
    }
    // A dated question answered with a claim the response places later: said so, with what dated it.
    if (v.outdated && v.override?.correct !== true)
        parts.push(
            `outdated: asked as of ${v.outdated.asOf}, answered with "${v.outdated.said}" (at ${v.outdated.span[0]}–${v.outdated.span[1]})${v.outdated.value ? `, stating "${v.outdated.value}"` : ''}`,
        );
    if (q.keywords.length > 0 && !(v.override?.rationale ?? v.rationale)) {
        // Every failed hop, not only the first: the response highlights all the conflicts.
        const failedHops = v.hops.map(hopReason).filter((r): r is string => r !== undefined);
        parts.push(...(failedHops.length ? failedHops : ['rationale overridden as wrong']));
    }
    if (v.override && parts.length) {
        // The span stored with the override (what it overrode), else what the verdict reads now (older overrides).
        const read = v.override.read ?? (v.read ? { ...v.read, by: 'patterns' } : undefined);
        const reader = read && read.by !== 'patterns' ? `model reader ${read.by}` : 'reader';
        parts.push(
            `overridden by ${v.override.by}: ${v.override.why}${read ? ` (the ${reader} had read "${read.text}" at ${read.span[0]}–${read.span[1]})` : ''}`,
        );
    }
    return parts;
}

export { ciText, pct } from './numbers.js';
import { ciText, pct } from './numbers.js';
import { LABEL_PARTS, keyCells } from './labels.js';
import { modelReadAgreement } from '../verify/model-read.js';
import { trustSections } from './trust.js';
import { factSections } from './facts.js';

/** A figure column's value as text: a number to 4 decimals at most, n/a when it does not apply. */
export function figureText(v: number | string | null): string {
    return v === null ? 'n/a' : typeof v === 'number' ? String(Math.round(v * 10000) / 10000) : v;
}

/**
 * Every family's figure columns among these groups, in the order the kinds first appear (CSV, JUnit). `derived`: its
 * declared columns and then one column per figure of its slot by path (`rules.byRelation.Player.club`,
 * `evidence.swap.stale`, …), so CSV and JUnit never drop a figure md, html and json show.
 */
export function figureColumns(
    groups: readonly GroupMetrics[],
    options: { derived?: boolean } = {},
): { kind: string; column: FigureColumn }[] {
    return [...new Set(groups.map(g => g.kind))].flatMap(kind => {
        const declared = capabilityOf(kind, 'figures')?.columns ?? [];
        // Derived: the declared columns, then every leaf of the `figures` field by path that none of them shows, so CSV / JUnit drop none of the JSON's figures.
        const shown = (path: string) =>
            declared.some(d => d.name === path || (d.slot !== undefined && (path === d.slot || path.startsWith(`${d.slot}.`))));
        const columns = options.derived
            ? [...declared, ...derivedColumns(groups.filter(g => g.kind === kind)).filter(c => !shown(c.name))]
            : declared;
        return columns.map(column => ({ kind, column }));
    });
}

/** A figure (k, n, value, interval) reads as its value; intervals and lists are not columns. */
const isFigure = (v: object): v is { value: number | null } => 'value' in v && 'k' in v && 'n' in v;

/** The leaves of the groups' `figures` fields, by path ("rules.byRelation.Player.club"), in the order they first appear. */
function derivedColumns(groups: readonly GroupMetrics[]): FigureColumn[] {
    const paths = new Map<string, string[]>();
    const walk = (v: unknown, path: string[]) => {
        if (v === null || typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean') {
            paths.set(path.join('.'), path);
            return;
        }
        if (typeof v !== 'object' || Array.isArray(v)) return;
        if (isFigure(v)) {
            paths.set(path.join('.'), path);
            return;
        }
        for (const [k, x] of Object.entries(v)) walk(x, [...path, k]);
    };
    for (const g of groups) for (const [key, v] of Object.entries(g.figures ?? {})) walk(v, [key]);
    return [...paths].map(([name, path]) => ({
        name,
        value: (g: GroupMetrics) => {
            let v: unknown = g.figures;
            for (const p of path) v = v && typeof v === 'object' ? (v as Record<string, unknown>)[p] : undefined;
            if (v && typeof v === 'object' && isFigure(v)) return v.value;
            return typeof v === 'number' || typeof v === 'string' ? v : typeof v === 'boolean' ? String(v) : null;
        },
    }));
}

/**
 * The tables beyond the metrics, the same in every format: each probe family's own (in the order its groups
 * first appear), then the question groups judged together.
 */
export function reportSections(
    d: Pick<ReportData, 'metrics' | 'questionGroups' | 'rows' | 'trust'> & { facts?: FactReport },
): ReportSection[] {
    const kinds = [...new Set(d.metrics.map(g => g.kind))];
    const sections = kinds.flatMap(kind => {
        const mine = d.metrics.filter(g => g.kind === kind);
        const own = capabilityOf(kind, 'report')?.sections?.(mine) ?? [];
        const columns = capabilityOf(kind, 'figures')?.columns ?? [];
        const shown = mine.filter(g => !g.na && g.n > 0);
        // A family's figure columns, as one table (md, html): the figures every format shows without knowing them.
        if (columns.length && shown.length) {
            own.push({
                title: `Figures: ${kind}`,
                columns: [...LABEL_PARTS, ...columns.map(c => c.name)],
                rows: shown.map(g => [...keyCells(g), ...columns.map(c => figureText(c.value(g)))]),
            });
        }
        return own;
    });
    const agreement = modelReadAgreement(d.rows);
    if (agreement.length) {
        sections.push({
            title: 'Model reader: agreement with the pattern reader',
            columns: [
                'family',
                'probe',
                'model',
                'reader',
                'decides',
                'read by both',
                'agree',
                'share',
                'reads',
                'same verdict',
                'unreadable',
                'held for review',
            ],
            rows: agreement.map(a => [
                a.kind,
                a.probe,
                a.model,
                a.reader,
                a.decides,
                String(a.n),
                String(a.agree),
                a.n ? pct(a.agree / a.n) : 'n/a',
                READS[a.reads] ?? a.reads,
                `${a.sameVerdict} (${a.n ? pct(a.sameVerdict / a.n) : 'n/a'})`,
                String(a.unreadable),
                String(a.held),
            ]),
        });
    }
    // Dated questions (`as of`): the wrong answers that dated their claim later, a part of H.
    const dated = d.metrics.filter(g => g.outdated && !g.na && g.n > 0);
    if (dated.length) {
        sections.push({
            title: 'Outdated answers (dated questions answered with later facts)',
            columns: [...LABEL_PARTS, 'outdated', 'of H'],
            rows: dated.map(g => [
                ...keyCells(g),
                `${pct(g.outdated!.value)} ${ciText(g.outdated!.ci)} (${g.outdated!.k}/${g.n})`,
                g.counts.hallucinated ? `${g.outdated!.k}/${g.counts.hallucinated}` : '0/0',
            ]),
        });
    }
    sections.push(...trustSections(d.trust));
    if (d.questionGroups.length) {
        sections.push({
            title: 'Question groups',
            columns: ['model', 'probe', 'variant', 'relation', 'groups', 'ok (of decided)', 'outcomes'],
            rows: d.questionGroups.map(g => [
                g.model,
                g.probe,
                g.variant,
                g.relation,
                String(g.n),
                `${pct(g.ok.value)} ${ciText(g.ok.ci)} (${g.ok.k}/${g.ok.n})`,
                Object.entries(g.outcomes)
                    .map(([o, n]) => `${o} ${n}`)
                    .join(', '),
            ]),
        });
    }
    if (d.facts) sections.push(...factSections(d.facts));
    return sections;
}
