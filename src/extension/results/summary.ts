/**
 * Pure formatting of run results for the editor: the Test Explorer message of a failed question, the
 * CodeLens line per probe / FD, and the worst examples for its hover. Metrics come from the engine's
 * verdicts; the small counts here only group and format them.
 */
import type { Question } from '../../core/probes/question.js';
import type { Verdict, KeywordVerdict } from '../../core/verify/types.js';

export interface Metrics { n: number; A: number; R: number; AR: number; M: number; H: number; failedRationales: number }

/** A, R, AR, M and H = 1 − A − M over the verdicts (METHODS.md §1), plus the count of failed rationales. */
export function metricsOf(verdicts: readonly Verdict[]): Metrics {
    const n = verdicts.length;
    let a = 0, r = 0, ar = 0, m = 0;
    for (const v of verdicts) {
        const ok = effectiveCorrect(v), rat = effectiveRationale(v);
        if (ok) a++;
        if (rat) r++;
        if (ok && rat) ar++;
        if (v.answer === 'unsure' || v.answer === 'unparseable' || v.answer === 'dont_know') m++;
    }
    const share = (x: number) => (n === 0 ? 0 : x / n);
    return { n, A: share(a), R: share(r), AR: share(ar), M: share(m), H: n === 0 ? 0 : 1 - share(a) - share(m), failedRationales: n - r };
}

export function effectiveCorrect(v: Verdict): boolean { return v.override?.correct ?? v.correct; }
/** A question with no keywords (no hops to check) has nothing its rationale could miss. */
export function effectiveRationale(v: Verdict): boolean { return v.override?.rationale ?? (v.hops.length === 0 || v.rationale); }
/** The engine's rule (core/report `passed`): a knowledge probe only records what the model knows, never fails. */
export function passed(v: Verdict, q?: Question): boolean { return q?.kind === 'knows' || (effectiveCorrect(v) && effectiveRationale(v)); }

/** `.85`, `1.00`, `0` → `.00`: the paper's two-decimal style. */
export function ratio(x: number): string {
    const s = x.toFixed(2);
    return s.startsWith('0') ? s.slice(1) : s;
}

/** "gpt-4o-mini · A .85 R .81 AR .80 H .15 · n 300 · 45 failed rationales" */
export function summaryLine(model: string, m: Metrics): string {
    const failed = `${m.failedRationales} failed rationale${m.failedRationales === 1 ? '' : 's'}`;
    return `${model} · A ${ratio(m.A)} R ${ratio(m.R)} AR ${ratio(m.AR)} H ${ratio(m.H)} · n ${m.n} · ${failed}`;
}

function keywordLine(k: KeywordVerdict): string {
    const extra = k.status === 'contradicted' && k.conflict ? ` (the rationale says "${k.conflict.value}")` : k.rule && k.status === 'found' ? ` (${k.rule})` : '';
    return `${k.status} ${k.relation}.${k.attribute} "${k.value}"${extra}`;
}

function goldText(q: Question): string {
    if (typeof q.gold === 'number') return `option ${q.gold}${q.options?.[q.gold - 1] ? ` (${q.options[q.gold - 1]})` : ''}`;
    return q.gold === 'none' ? 'none of the above' : q.gold;
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
        `Gold: ${goldText(q)} · Answer (${v.model}): ${answerText(v)}${effectiveCorrect(v) ? ' ✓' : ' ✗'}`,
        `Rationale: ${v.rationaleText.trim() || (response ?? '').trim() || '(empty)'}`,
    ];
    for (const h of v.hops) {
        lines.push(`  hop ${h.hop} ${h.status}`);
        for (const k of h.keywords) lines.push(`    ${keywordLine(k)}`);
    }
    if (v.failedHop !== undefined) {
        const hop = v.hops.find(h => h.hop === v.failedHop);
        const bad = hop?.keywords.filter(k => k.status !== 'found').map(k => `${k.status} "${k.value}"`).join(', ');
        lines.push(`Failed hop: ${v.failedHop}${bad ? ` — ${bad}` : ''}`);
    }
    if (v.override) lines.push(`Override by ${v.override.by} (${v.override.at}): ${v.override.why}`);
    return lines.join('\n');
}

/** How bad a failure is, for "worst examples": wrong with a contradiction, wrong, contradicted, missing. */
export function severity(v: Verdict): number {
    const contradicted = v.hops.some(h => h.status === 'contradicted');
    if (!effectiveCorrect(v)) return contradicted ? 4 : 3;
    if (!effectiveRationale(v)) return contradicted ? 2 : 1;
    return 0;
}

export interface Example { questionId: string; question: string; line: string; severity: number }

export function worstExamples(questions: ReadonlyMap<string, Question>, verdicts: readonly Verdict[], count = 5): Example[] {
    return verdicts
        .filter(v => questions.get(v.questionId)?.kind !== 'knows')
        .map(v => ({ v, s: severity(v) }))
        .filter(x => x.s > 0)
        .sort((a, b) => b.s - a.s || a.v.questionId.localeCompare(b.v.questionId))
        .slice(0, count)
        .map(({ v, s }) => {
            const q = questions.get(v.questionId);
            const bad = v.hops.flatMap(h => h.keywords).filter(k => k.status !== 'found').map(k => `${k.status} "${k.value}"`);
            return { questionId: v.questionId, question: q?.question ?? v.questionId, severity: s, line: `answered ${answerText(v)}${q ? ` (gold ${goldText(q)})` : ''}${bad.length ? ` · ${bad.join(', ')}` : ''}` };
        });
}

export interface Group { key: string; model: string; verdicts: Verdict[] }

/** Verdicts grouped per (probe or FD) × model; FDs collect the verdicts of every probe using them. */
export function groupResults(questions: ReadonlyMap<string, Question>, verdicts: readonly Verdict[], fdOfProbe: ReadonlyMap<string, string>): Map<string, Group[]> {
    const out = new Map<string, Map<string, Verdict[]>>();
    const add = (key: string, v: Verdict) => {
        let byModel = out.get(key);
        if (!byModel) out.set(key, (byModel = new Map()));
        let list = byModel.get(v.model);
        if (!list) byModel.set(v.model, (list = []));
        list.push(v);
    };
    for (const v of verdicts) {
        const q = questions.get(v.questionId);
        if (!q) continue;
        add(`probe:${q.probe}`, v);
        const fd = fdOfProbe.get(q.probe);
        if (fd) add(`fd:${fd}`, v);
    }
    return new Map([...out].map(([key, byModel]) => [key, [...byModel].map(([model, vs]) => ({ key, model, verdicts: vs }))]));
}
