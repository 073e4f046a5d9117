/**
 * Pure formatting of run results for the editor: the Test Explorer message of a failed question and the CodeLens
 * line per probe / FD. Every figure comes from the engine (core/report/anchors.ts); nothing is counted here.
 */
import { goldText, type Question } from '../../core/probes/index.js';
import type { Verdict, KeywordVerdict } from '../../core/verify/index.js';
import {
    explainVerdict,
    ratio as paperRatio,
    SIMULATOR_LABEL,
    simulatedModels,
    type AnchorResult,
    type ReportRun,
} from '../../core/report/light.js';
import { batchStates as batchCounts } from '../../core/run/light.js';
import type { Problem } from '../../core/errors.js';

/** `.85`, `1.00`, `0` → `.00`: the paper's two-decimal style (the engine's, core/report/numbers.ts). */
export const ratio = paperRatio;

/** How a model is named in summaries (CodeLens, hover): the offline simulator always says so. */
export function modelLabel(run: ReportRun | undefined): (model: string) => string {
    const simulated = run ? simulatedModels(run) : new Set<string>();
    return model => (simulated.has(model) ? `${model} ${SIMULATOR_LABEL}` : model);
}

/** How many of a line's family figures its CodeLens shows (the hover shows them all). */
const LENS_FIGURES = 3;

/**
 * "gpt-4o-mini · A .85 R .81 AR .80 H .15 · 45 of 300 rationales failed · echo_repeated 0.5 · 12 not answered" (a
 * knowledge probe: what it knows; the family's own figures as the engine gives them, the first few; questions whose
 * calls failed or were not made yet are counted, never hidden).
 */
export function summaryLine(
    model: string,
    r: Pick<AnchorResult, 'metrics' | 'failedRationales' | 'known'> & { unanswered?: number; figures?: AnchorResult['figures'] },
): string {
    // Only figures that are one number fit a lens (to two places); the hover lists every figure as the reports write it.
    const figures = (r.figures ?? [])
        .filter(f => f.short !== undefined)
        .slice(0, LENS_FIGURES)
        .map(f => ` · ${f.name} ${f.short}`)
        .join('');
    const unasked = r.unanswered ? ` · ${r.unanswered} not answered` : '';
    return mainLine(model, r) + figures + unasked;
}

/** "Figures: echo_repeated 0.5, …" for a hover: every figure of the line's family; empty without any. */
export function figuresLine(r: Pick<AnchorResult, 'figures'>): string {
    return r.figures.length ? `Figures: ${r.figures.map(f => `${f.name} ${f.value}`).join(', ')}` : '';
}

function mainLine(model: string, r: Pick<AnchorResult, 'metrics' | 'failedRationales' | 'known'>): string {
    const m = r.metrics;
    if (m.n === 0 && r.known) return `${model} · knows ${r.known.k} of ${r.known.n} entities`;
    if (m.n === 0) return `${model} · no answers`;
    // A figure the engine reports as not applying (null: R / AR of a statement or open probe) is n/a, never .00.
    const f = (x: number | null | undefined) => (x === null || x === undefined || Number.isNaN(x) ? 'n/a' : ratio(x));
    // Says what it counts: this anchor's answers, of which so many failed their rationale (the run's toast counts the suite).
    const rationales = m.R === null || m.R === undefined ? `${m.n} answers` : `${r.failedRationales} of ${m.n} rationales failed`;
    return `${model} · A ${f(m.A)} R ${f(m.R)} AR ${f(m.AR)} H ${f(m.H)} · ${rationales}`;
}

/**
 * The end-of-run notification: the count first (a narrow toast never cuts it), and what can be done next. A batch
 * run's says its results arrived (they may come hours after it was sent).
 */
export function runFinishedMessage(
    failed: number,
    total: number,
    label: string,
    status: string,
    unanswered = 0,
    batch = false,
): { text: string; actions: string[] } {
    // Questions whose calls failed are counted too: a run never reads as all passed when some went unasked.
    const unasked = unanswered ? `, ${unanswered} not answered: the calls failed` : '';
    const text = `HalluProbe: ${batch ? 'batch results arrived: ' : ''}${failed} of ${total} answers failed${unasked} · ${label}${status === 'completed' ? '' : ` (${status})`}`;
    return { text, actions: [...(failed > 0 || unanswered > 0 ? [RUN_ACTIONS.failures] : []), RUN_ACTIONS.report] };
}

/** A batch run's provider batches by state, with the requests answered of those in progress (the engine's words). */
export const batchStates = (batches: readonly { status: string; requests: number; done: number }[]): string =>
    batchCounts(batches, true);

export const RUN_ACTIONS = { failures: 'Show Failures', report: 'Open Report', resume: 'Resume' } as const;

export interface UnverifiedRun {
    label: string;
    status: string;
    run: string;
    /** Answers the run holds (kept for a resume), of its slots. */
    answered: number;
    slots: number;
    /** Calls that failed, and the first failure's words ("local: connection: cannot reach http://… — is the server running …"). */
    unanswered: number;
    cause?: string;
    /** The run whose figures stay on screen, when another. */
    shown?: string;
}

/**
 * The end of a run that verified nothing: stopped (what it kept, and Resume), or no answer came (the cause, whose
 * words name the server's address), and which run's figures stay shown. Never "0 of 0 answers failed".
 */
export function unverifiedRunMessage(r: UnverifiedRun): { text: string; actions: string[] } {
    const kept = r.shown && r.shown !== r.run ? ` The figures shown stay those of run ${r.shown}.` : '';
    if (r.status === 'cancelled') {
        const left = r.slots > r.answered ? `; Resume asks the other ${r.slots - r.answered}` : '';
        return {
            text: `HalluProbe: run stopped · ${r.label} — ${r.answered} of ${r.slots} answers kept in run ${r.run}${left}.${kept}`,
            actions: [RUN_ACTIONS.resume],
        };
    }
    const why =
        r.unanswered > 0
            ? `${r.unanswered} call${r.unanswered === 1 ? '' : 's'} failed${r.cause ? ` — ${r.cause}` : ''}`
            : r.answered > 0
              ? `${r.answered} answers kept, not verified yet`
              : 'nothing was asked';
    return {
        text: `HalluProbe: no answers verified · ${r.label} (${r.status}): ${why}${/[.?!]$/.test(why) ? '' : '.'}${kept}`,
        actions: [...(r.answered < r.slots ? [RUN_ACTIONS.resume] : [])],
    };
}

/** A spec's newest run that did not finish, found after a reload: what it kept, and that Resume continues it. */
export function unfinishedRunMessage(
    run: { id: string; suite: string; status: string },
    spec: string,
    counts?: { answered: number; slots: number },
): string {
    const kept = counts ? ` — ${counts.answered} of ${counts.slots} answers kept` : '';
    const how = run.status === 'cancelled' ? 'was stopped' : 'did not finish (the window was reloaded or closed while it ran)';
    return `HalluProbe: run ${run.id} of ${spec}${run.suite ? ` (suite ${run.suite})` : ''} ${how}${kept}. Resume it?`;
}

/**
 * "Question groups: twins 48/60 consistent (12 undecided), levels 5/8 robust (3 followed-corrupted)" for a hover:
 * each relation's outcomes in its own words; empty without groups.
 */
export function questionGroupsLine(r: Pick<AnchorResult, 'questionGroups'>): string {
    const parts = r.questionGroups.map(g => {
        const others = Object.entries(g.outcomes)
            .filter(([o]) => !g.heldAs.includes(o))
            .map(([o, n]) => `${n} ${o}`);
        return `${g.relation} ${g.ok.k}/${g.ok.n}${g.heldAs.length ? ` ${g.heldAs.join(' or ')}` : ''}${others.length ? ` (${others.join(', ')})` : ''}`;
    });
    return parts.length ? `Question groups: ${parts.join(', ')}` : '';
}

function keywordLine(k: KeywordVerdict): string {
    const extra =
        k.status === 'contradicted' && k.conflict
            ? ` (the rationale says "${k.conflict.value}")`
            : k.rule && k.status === 'found'
              ? ` (${k.rule})`
              : '';
    return `${k.status} ${k.relation}.${k.attribute} "${k.value}"${extra}`;
}

function answerText(v: Verdict): string {
    return v.answer === 'option' && v.option !== undefined ? `option ${v.option}` : v.answer;
}

/**
 * The Test Explorer message of a question: question, gold vs answer, the rationale, every keyword with its
 * status per hop and the hop that failed. Plain text: the model's words are never interpreted as markup.
 */
export function failureText(q: Question, v: Verdict, response?: string): string {
    const lines = [
        `Question: ${q.question}`,
        `Gold: ${goldText(q)} · Answer (${v.model}): ${answerText(v)}${(v.override?.correct ?? v.correct) ? ' ✓' : ' ✗'}`,
        `Rationale: ${v.rationaleText.trim() || (response ?? '').trim() || '(empty)'}`,
    ];
    for (const h of v.hops) {
        lines.push(`  hop ${h.hop} ${h.status}`);
        for (const k of h.keywords) lines.push(`    ${keywordLine(k)}`);
    }
    if (v.failedHop !== undefined) {
        const hop = v.hops.find(h => h.hop === v.failedHop);
        const bad = hop?.keywords
            .filter(k => k.status !== 'found')
            .map(k => `${k.status} "${k.value}"`)
            .join(', ');
        lines.push(`Failed hop: ${v.failedHop}${bad ? ` — ${bad}` : ''}`);
    }
    if (v.override) lines.push(`Override by ${v.override.by} (${v.override.at}): ${v.override.why}`);
    // Why, in the family's words (which claim, which edge, which premise) with the span read as the answer.
    const why = response === undefined ? [] : explainVerdict(q, v, response);
    if (why.length) lines.push('Why:', ...why.map(w => `  ${w}`));
    return lines.join('\n');
}

/**
 * A run refused for several located problems: one short line pointing at the Problems panel ("3 problems in
 * movie.probe — Show Problems") instead of every problem in one toast. One problem, or problems without a place,
 * are shown as they are (undefined here).
 */
export function problemsNotice(problems: readonly Problem[]): string | undefined {
    const located = problems.filter(p => p.location);
    if (problems.length < 2 || located.length < problems.length) return undefined;
    const files = [...new Set(located.map(p => p.location!.file.split(/[\\/]/).at(-1)!))];
    return `HalluProbe: ${problems.length} problems in ${files.length === 1 ? files[0] : `${files.length} specs`}`;
}

export const SHOW_PROBLEMS = 'Show Problems';
