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
import { questionPassed } from '../verify/passed.js';
import { judgeGroups, summarizeGroups, type GroupSummary, type GroupVerdict } from '../verify/groups.js';
import { familyOf } from '../probes/families.js';
import type { FigureColumn, ReportSection } from '../probes/family.js';

export type ReportFormat = 'md' | 'html' | 'json' | 'csv' | 'jsonl' | 'junit' | 'erbench';
export const REPORT_FORMATS: ReportFormat[] = ['md', 'html', 'json', 'csv', 'jsonl', 'junit', 'erbench'];

export interface ReportRun {
    id: string; spec: string; suite: string; started: string; finished: string | null; status: string;
    /** The run's settings as the store keeps them; `models[].provider` tells which models were simulated. */
    settings?: RunSettings;
}

export const SIMULATOR_LABEL = '(offline simulator)';

/** Names of the run's models that are HalluProbe's offline simulator, not a real model. */
export function simulatedModels(run: ReportRun): Set<string> {
    const models = run.settings?.models ?? [];
    return new Set(models.filter(m => m.provider === 'offline').map(m => m.name));
}

export interface ReportRow { question: Question; verdict: Verdict; response: string }

export interface ReportData {
    run: ReportRun;
    rows: ReportRow[];
    metrics: GroupMetrics[];
    /** Question groups judged together (twins, evidence swaps, levels): one verdict per group, and their counts. */
    groupVerdicts: GroupVerdict[];
    groups: GroupSummary[];
    overrides: Override[];
    judge?: JudgeResult;
    /** Answers that have no verdict yet (verify the run first). */
    unverified: number;
    /** Questions asked of no avail: per probe and model, those whose calls failed and those not answered yet. */
    unanswered: Unanswered[];
    /** Each slot (question × model × sample) whose calls failed, with the last error. */
    failedSlots: FailedSlot[];
    failedCalls: number;
    notAnswered: number;
}

export interface Unanswered { probe: string; model: string; failed: number; notAnswered: number }
export interface FailedSlot { question: Question; model: string; sample: number; error: string }

export interface ReportInput {
    run: ReportRun;
    questions: Question[];
    answers: { questionId: string; model: string; sample: number; text: string }[];
    verdicts: Verdict[];
    /** As stored; judged here from the verdicts when absent (a run verified before groups existed). */
    groupVerdicts?: GroupVerdict[];
    /** The slots whose calls failed (the store's `failures`), with their last error. */
    failures?: { question: string; model: string; sample: number; error: string }[];
}

const slot = (q: string, m: string, s: number) => `${q}\u0000${m}\u0000${s}`;

export function buildReport(input: ReportInput, overrides: Override[] = [], options: MetricsOptions & { judge?: JudgeResult } = {}): ReportData {
    // A simulated model is labelled as such in every format, whatever the user named it.
    const simulated = simulatedModels(input.run);
    const label = (v: Verdict): Verdict => simulated.has(v.model) ? { ...v, model: `${v.model} ${SIMULATOR_LABEL}` } : v;
    const applied = applyOverrides(input.verdicts, overrides);
    const verdicts = applied.map(label);
    const questions = new Map(input.questions.map(q => [q.id, q]));
    const responses = new Map(input.answers.map(a => [slot(a.questionId, a.model, a.sample), a.text]));
    const rows: ReportRow[] = [];
    const seen = new Set<string>();
    applied.forEach((v, i) => {
        const q = questions.get(v.questionId);
        if (!q) return;
        const key = slot(v.questionId, v.model, v.sample);
        seen.add(key);
        rows.push({ question: q, verdict: verdicts[i]!, response: responses.get(key) ?? '' });
    });
    const unverified = input.answers.filter(a => !seen.has(slot(a.questionId, a.model, a.sample))).length;
    const groupVerdicts = (input.groupVerdicts?.length ? input.groupVerdicts : judgeGroups(input.questions, applied)).map(g => (simulated.has(g.model) ? { ...g, model: `${g.model} ${SIMULATOR_LABEL}` } : g));
    const data: ReportData = {
        run: input.run, rows, metrics: computeMetrics(input.questions, verdicts, options), groupVerdicts, groups: summarizeGroups(groupVerdicts), overrides, unverified,
        ...unansweredOf(input, questions, simulated),
    };
    if (options.judge) data.judge = options.judge;
    return data;
}

/** Which of the run's slots (question × model × sample) have no answer: their calls failed, or were not made yet. */
function unansweredOf(input: ReportInput, questions: Map<string, Question>, simulated: Set<string>): Pick<ReportData, 'unanswered' | 'failedSlots' | 'failedCalls' | 'notAnswered'> {
    const answered = new Set(input.answers.map(a => slot(a.questionId, a.model, a.sample)));
    const failures = new Map((input.failures ?? []).map(f => [slot(f.question, f.model, f.sample), f]));
    const shown = (m: string) => (simulated.has(m) ? `${m} ${SIMULATOR_LABEL}` : m);
    const models = input.run.settings?.models?.map(m => ({ name: m.name, samples: Math.max(1, m.samples ?? 1) }))
        ?? [...new Set(input.answers.map(a => a.model))].map(name => ({ name, samples: 1 }));
    const selected = input.run.settings?.questionIds ? new Set(input.run.settings.questionIds) : undefined;
    const by = new Map<string, Unanswered>();
    const failedSlots: FailedSlot[] = [];
    for (const q of input.questions) {
        if (selected && !selected.has(q.id)) continue;
        for (const m of models) {
            for (let sample = 0; sample < m.samples; sample++) {
                const key = slot(q.id, m.name, sample);
                if (answered.has(key)) continue;
                const failure = failures.get(key);
                const k = `${q.probe}\u0000${m.name}`;
                let u = by.get(k);
                if (!u) by.set(k, (u = { probe: q.probe, model: shown(m.name), failed: 0, notAnswered: 0 }));
                if (failure) { u.failed++; failedSlots.push({ question: questions.get(q.id) ?? q, model: shown(m.name), sample, error: failure.error }); } else u.notAnswered++;
            }
        }
    }
    const unanswered = [...by.values()];
    return { unanswered, failedSlots, failedCalls: failedSlots.length, notAnswered: unanswered.reduce((n, u) => n + u.notAnswered, 0) };
}

/** The report's one-line count: verdicts, passed, failed, and the questions that got no answer. */
export function countsLine(d: ReportData): string {
    const failed = d.rows.filter(r => !passed(r)).length;
    return `${d.rows.length} verdicts, ${d.rows.length - failed} passed, ${failed} failed`
        + (d.failedCalls ? `, ${d.failedCalls} question${d.failedCalls === 1 ? '' : 's'} not answered: the calls failed` : '')
        + (d.notAnswered ? `, ${d.notAnswered} not answered yet` : '')
        + (d.unverified ? `, ${d.unverified} answers not verified yet` : '') + '.';
}

/** Did this question pass? (answer right, and the rationale right where the question has keywords.) */
export function passed(row: ReportRow): boolean {
    return questionPassed(row.question, row.verdict);
}

/** `hop 3: "Munich" contradicted by "London", "2012", "1948" missing`: one part per failed hop, its missing keywords together. */
function hopReason(h: ReportRow['verdict']['hops'][number]): string | undefined {
    const contradicted = h.keywords.filter(k => k.status === 'contradicted').map(k => `"${k.value}" contradicted by "${k.conflict?.value}"`);
    const missing = h.keywords.filter(k => k.status !== 'found' && k.status !== 'contradicted').map(k => `"${k.value}"`);
    const said = [...contradicted, ...(missing.length ? [`${missing.join(', ')} missing`] : [])];
    return said.length ? `hop ${h.hop}: ${said.join(', ')}` : undefined;
}

/** One line saying why a row failed, for JUnit messages and tables. */
export function failureReason(row: ReportRow): string {
    return explainVerdict(row.question, row.verdict, row.response).join('; ');
}

/** The span the reader took as the answer and why, or what the model reader read when it decided. */
export function readText(v: Verdict): string {
    const m = v.modelRead;
    if (m?.patterns !== undefined) return `read by ${m.model}${m.quote ? ` as "${m.quote}"${m.span ? ` at ${m.span[0]}–${m.span[1]}` : ''}` : ''}; the pattern reader read ${m.patterns}`;
    return v.read ? `read ${v.read.text ? `"${v.read.text}" at ${v.read.span[0]}–${v.read.span[1]}: ` : ''}${v.read.why}` : '';
}

/**
 * Why a verdict failed, in parts every face shows (report failing lists, JUnit, the Test Explorer peek, the hover's
 * worst failures, the graph panel): the family's own explanation (open: which claim, which edge) or the answer read
 * against the gold with the span read; then every failed hop with its contradicting value. Empty when it passed.
 */
export function explainVerdict(q: Question, v: Verdict, response: string): string[] {
    const parts: string[] = [];
    if (!(v.override?.correct ?? v.correct)) {
        const own = v.override ? [] : familyOf(q.kind).explainFailure?.(q, v, response) ?? [];
        if (own.length) parts.push(...own);
        else {
            // The span the reader took as the answer, and why: a misreading shows here, not only a wrong answer.
            const read = readText(v);
            parts.push(`answer ${v.answer}${v.option !== undefined ? ` ${v.option}` : ''}, expected ${goldText(q)}${read ? ` (${read})` : ''}`);
        }
    }
    if (q.keywords.length > 0 && !(v.override?.rationale ?? v.rationale)) {
        // Every failed hop, not only the first: the response highlights all the conflicts.
        const failedHops = v.hops.map(hopReason).filter((r): r is string => r !== undefined);
        parts.push(...(failedHops.length ? failedHops : ['rationale overridden as wrong']));
    }
    if (v.override && parts.length) parts.push(`overridden by ${v.override.by}: ${v.override.why}${v.read ? ` (the reader had read "${v.read.text}" at ${v.read.span[0]}–${v.read.span[1]})` : ''}`);
    return parts;
}

export { ciText, pct } from './numbers.js';
import { ciText, pct } from './numbers.js';
import { KEY_COLUMNS, keyCells } from './labels.js';
import { modelReadAgreement } from '../verify/model-read.js';

/** A figure column's value as text: a number to 4 decimals at most, n/a when it does not apply. */
export function figureText(v: number | string | null): string {
    return v === null ? 'n/a' : typeof v === 'number' ? String(Math.round(v * 10000) / 10000) : v;
}

/**
 * The tables beyond the metrics, the same in every format: each probe family's own (in the order its groups
 * first appear), then the question groups judged together.
 */
/** Every family's figure columns among these groups, in the order the kinds first appear (CSV, JUnit). */
export function figureColumns(groups: readonly GroupMetrics[]): { kind: string; column: FigureColumn }[] {
    return [...new Set(groups.map(g => g.kind))].flatMap(kind => (familyOf(kind).figureColumns ?? []).map(column => ({ kind, column })));
}

export function reportSections(d: Pick<ReportData, 'metrics' | 'groups' | 'rows'>): ReportSection[] {
    const kinds = [...new Set(d.metrics.map(g => g.kind))];
    const sections = kinds.flatMap(kind => {
        const mine = d.metrics.filter(g => g.kind === kind);
        const own = familyOf(kind).reportSections(mine);
        const columns = familyOf(kind).figureColumns ?? [];
        const shown = mine.filter(g => !g.na && g.n > 0);
        // A family's figure columns, as one table (md, html): the figures every format shows without knowing them.
        if (columns.length && shown.length) {
            own.push({ title: `Figures: ${kind}`, columns: [...KEY_COLUMNS, ...columns.map(c => c.name)], rows: shown.map(g => [...keyCells(g), ...columns.map(c => figureText(c.value(g)))]) });
        }
        return own;
    });
    const agreement = modelReadAgreement(d.rows);
    if (agreement.length) {
        sections.push({
            title: 'Model reader: agreement with the pattern reader',
            columns: ['probe', 'model', 'reader', 'decides', 'read by both', 'agree', 'share', 'unreadable'],
            rows: agreement.map(a => [a.probe, a.model, a.reader, a.decides, String(a.n), String(a.agree), a.n ? pct(a.agree / a.n) : 'n/a', String(a.unreadable)]),
        });
    }
    if (d.groups.length) {
        sections.push({
            title: 'Question groups',
            columns: ['model', 'probe', 'variant', 'relation', 'groups', 'ok (of decided)', 'outcomes'],
            rows: d.groups.map(g => [g.model, g.probe, g.variant, g.relation, String(g.n),
                `${pct(g.ok.value)} ${ciText(g.ok.ci)} (${g.ok.k}/${g.ok.n})`, Object.entries(g.outcomes).map(([o, n]) => `${o} ${n}`).join(', ')]),
        });
    }
    return sections;
}
