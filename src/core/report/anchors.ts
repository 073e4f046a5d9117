/**
 * Results per spec line: the metrics of each probe and each FD (every probe using it) per model, computed with the
 * same `groupMetrics` as every report, plus the group verdicts and the worst failures. The editor's CodeLens,
 * hovers and "Show Failures" only format these.
 */
import { goldText, type Question } from '../probes/question.js';
import type { SpecModel } from '../spec/model.js';
import { addFiguresAcrossPhrasings, groupMetrics, type GroupMetrics } from '../verify/metrics.js';
import { applyOverrides, type Override } from '../verify/overrides.js';
import { summarizeQuestionGroups, type QuestionGroupSummary, type GroupVerdict } from '../verify/groups.js';
import { isMeasured, questionPassed } from '../verify/passed.js';
import type { Verdict } from '../verify/types.js';
import { FACT_CLASSES, factVerdicts, type FactClass, type FactReport, type FactVerdict } from '../verify/facts.js';
import { slotKey, type RunSettings, type StoredAnswer } from '../store/types.js';
import { explainVerdict, figureColumns, figureText } from './model.js';
import { unansweredSlots } from './unanswered.js';

/** A family figure of a line: as the reports write it, and a number to two places for the CodeLens. */
interface AnchorFigure {
    name: string;
    value: string;
    short?: string;
}

export interface AnchorResult {
    /** `probe:<name>` or `fd:<id>`. */
    key: string;
    model: string;
    /** Over the measured questions (a knowledge probe has none: see `known`). */
    metrics: GroupMetrics;
    /** Measured verdicts that failed (wrong answer or rationale). */
    failed: number;
    /** Measured verdicts with keywords whose rationale failed. */
    failedRationales: number;
    /** Knowledge probes: entities known of those asked. */
    known?: { k: number; n: number };
    /** Question slots of this line (× samples) the model has no answer for: its calls failed or were not made yet. */
    unanswered: number;
    questionGroups: QuestionGroupSummary[];
    /**
     * The family's own figures of this line (its figure columns over the line's metrics, figures across phrasings included, as every report writes them;
     * those that do not apply left out): the CodeLens and the hover show them beside A / R / AR / H.
     */
    figures: AnchorFigure[];
    verdicts: Verdict[];
    /**
     * One fact, every family (docs/facts.md): the classes, for this model, of the facts this line's questions test (the
     * run's per-fact step, every family's answers counted), and the line a hover shows. Absent when they record none.
     */
    facts?: AnchorFacts;
}

export interface AnchorFacts {
    n: number;
    classes: Record<FactClass, number>;
    /** The wrong values believed (the first few), with their facts. */
    believed: { label: string; value: string; families: string[] }[];
    /** "Facts across families (12): knows 7 · fragile 3 (binary right; statement, open not) · believes 1: Avatar … 'Steven Spielberg'". */
    line: string;
    /** The first few facts, those not known first: what a hover links to the graph panel's fact view. */
    shown: { id: string; label: string; class: FactClass }[];
}

/** How many facts a hover names, each with its fact view. */
const FACTS_LINKED = 5;

/** The hover model of some facts of one model (an FD's line, a data row's key): the classes counted, the line, the links. */
export function anchorFacts(facts: readonly FactVerdict[]): AnchorFacts {
    const classes = Object.fromEntries(FACT_CLASSES.map(c => [c, 0])) as Record<FactClass, number>;
    for (const f of facts) classes[f.class]++;
    const shown = [...facts.filter(f => f.class !== 'knows'), ...facts.filter(f => f.class === 'knows')]
        .slice(0, FACTS_LINKED)
        .map(f => ({ id: f.id, label: f.label, class: f.class }));
    return {
        n: facts.length,
        classes,
        believed: facts.filter(f => f.believed).map(f => ({ label: f.label, ...f.believed! })),
        line: factsLine(facts.length, classes, facts),
        shown,
    };
}

/** The run's per-fact step over its verdicts (overrides applied), once per results: every hover of the run reads it. */
const stepOf = new WeakMap<readonly Verdict[], { overrides: AnchorInput['overrides']; report: FactReport }>();
export function runFacts(
    input: Pick<AnchorInput, 'questions' | 'verdicts' | 'overrides'>,
    applied?: readonly Verdict[],
): FactReport {
    const known = stepOf.get(input.verdicts);
    if (known && known.overrides === input.overrides) return known.report;
    const report = factVerdicts(input.questions, applied ?? applyOverrides([...input.verdicts], [...(input.overrides ?? [])]));
    stepOf.set(input.verdicts, { overrides: input.overrides, report });
    return report;
}

/** The hover's line of a line's facts; the counts are the step's. */
function factsLine(n: number, classes: Record<FactClass, number>, facts: readonly FactVerdict[]): string {
    const parts = FACT_CLASSES.filter(c => classes[c] > 0).map(c => `${c} ${classes[c]}`);
    const believed = facts
        .filter(f => f.believed)
        .slice(0, 2)
        .map(f => `${f.label} believed "${f.believed!.value}" (${f.believed!.families.join(', ')})`);
    const fragile = facts
        .filter(f => f.fragile)
        .slice(0, 2)
        .map(f => `${f.label} right in ${f.fragile!.right.join(', ')}, not in ${f.fragile!.other.join(', ')}`);
    return `Facts across families (${n}): ${parts.join(' · ')}${[...believed, ...fragile].length ? ` — ${[...believed, ...fragile].join('; ')}` : ''}`;
}

export interface AnchorInput {
    questions: readonly Question[];
    verdicts: readonly Verdict[];
    groupVerdicts?: readonly GroupVerdict[];
    overrides?: readonly Override[];
    /** The run's answers and settings (which models, how many samples): the unanswered questions per line come from them. */
    answers?: readonly { questionId: string; model: string; sample: number }[];
    run?: { settings?: RunSettings };
}

/** Which FD each probe uses (an FD's line sums the probes that use it). */
export function fdOfProbe(spec: Pick<SpecModel, 'probes'>): Map<string, string> {
    return new Map(spec.probes.filter(p => p.fd).map(p => [p.name, p.fd!]));
}

export function anchorResults(input: AnchorInput, fdOf: ReadonlyMap<string, string>): Map<string, AnchorResult[]> {
    const questions = new Map(input.questions.map(q => [q.id, q]));
    const verdicts = applyOverrides([...input.verdicts], [...(input.overrides ?? [])]);
    const sets = new Map<string, Map<string, { v: Verdict; q: Question }[]>>();
    const add = (key: string, item: { v: Verdict; q: Question }) => {
        let byModel = sets.get(key);
        if (!byModel) sets.set(key, (byModel = new Map()));
        let list = byModel.get(item.v.model);
        if (!list) byModel.set(item.v.model, (list = []));
        list.push(item);
    };
    for (const v of verdicts) {
        const q = questions.get(v.questionId);
        if (!q) continue;
        add(`probe:${q.probe}`, { v, q });
        const fd = fdOf.get(q.probe);
        if (fd) add(`fd:${fd}`, { v, q });
    }
    // Unanswered slots per line and model; a model with no answer on a line still gets the line (all unanswered).
    const unanswered = new Map<string, Map<string, number>>();
    const count = (key: string, model: string, n: number) => {
        let byModel = unanswered.get(key);
        if (!byModel) unanswered.set(key, (byModel = new Map()));
        byModel.set(model, (byModel.get(model) ?? 0) + n);
        if (!sets.get(key)?.has(model)) {
            let m = sets.get(key);
            if (!m) sets.set(key, (m = new Map()));
            m.set(model, []);
        }
    };
    if (input.answers) {
        for (const u of unansweredSlots({
            questions: input.questions,
            answers: input.answers,
            ...(input.run?.settings ? { settings: input.run.settings } : {}),
        })) {
            const n = u.failed + u.notAnswered;
            count(`probe:${u.probe}`, u.model, n);
            const fd = fdOf.get(u.probe);
            if (fd) count(`fd:${fd}`, u.model, n);
        }
    }
    // The run's per-fact step once; each line counts the facts its questions test.
    const perFact = new Map<string, FactVerdict>();
    if (input.questions.some(q => q.facts?.length))
        for (const f of runFacts(input, verdicts).facts) perFact.set(`${f.model}\u0000${f.id}`, f);
    const kindOf = new Map(input.questions.map(q => [`probe:${q.probe}`, q.kind]));
    for (const [p, fd] of fdOf) if (kindOf.has(`probe:${p}`)) kindOf.set(`fd:${fd}`, kindOf.get(`probe:${p}`)!);
    const out = new Map<string, AnchorResult[]>();
    for (const [key, byModel] of sets) {
        out.set(
            key,
            [...byModel].map(([model, items]) => {
                const measured = items.filter(i => isMeasured(i.q));
                const kind = items[0]?.q.kind ?? kindOf.get(key) ?? 'binary';
                const metrics = groupMetrics(
                    { model, probe: key.slice(key.indexOf(':') + 1), kind, phrasing: 'all', variant: 'all', mode: 'all' },
                    measured,
                );
                if (metrics.n > 0) addFiguresAcrossPhrasings([metrics], measured);
                const probes = new Set(items.map(i => i.q.probe));
                const result: AnchorResult = {
                    key,
                    model,
                    metrics,
                    unanswered: unanswered.get(key)?.get(model) ?? 0,
                    failed: measured.filter(i => !questionPassed(i.q, i.v)).length,
                    failedRationales: measured.filter(i => i.q.keywords.length > 0 && !(i.v.override?.rationale ?? i.v.rationale))
                        .length,
                    questionGroups: summarizeQuestionGroups(
                        (input.groupVerdicts ?? []).filter(g => g.model === model && probes.has(g.probe)),
                    ),
                    figures: metrics.n > 0 ? familyFigures(metrics) : [],
                    verdicts: items.map(i => i.v),
                };
                if (perFact.size) {
                    const facts = [...new Set(items.flatMap(i => (i.q.facts ?? []).map(f => f.id)))].flatMap(
                        id => perFact.get(`${model}\u0000${id}`) ?? [],
                    );
                    if (facts.length) result.facts = anchorFacts(facts);
                }
                const knowing = items.filter(i => i.v.known !== undefined);
                if (knowing.length)
                    result.known = { k: knowing.filter(i => i.v.override?.correct ?? i.v.known).length, n: knowing.length };
                return result;
            }),
        );
    }
    return out;
}

/** How bad a failure is, for "worst examples": wrong with a contradiction, wrong, contradicted, missing. */
function severity(v: Verdict): number {
    const contradicted = v.hops.some(h => h.status === 'contradicted');
    const correct = v.override?.correct ?? v.correct;
    const rationale = v.override?.rationale ?? (v.hops.length === 0 || v.rationale);
    if (!correct) return contradicted ? 4 : 3;
    if (!rationale) return contradicted ? 2 : 1;
    return 0;
}

export interface FailureExample {
    questionId: string;
    question: string;
    /** Why it failed, in the words of every face's failing list (`explainVerdict`): the span read, claims, hops, overrides. */
    line: string;
    severity: number;
    /** Whose answer failed (a suite of several models has a verdict per model for one question). */
    model: string;
    sample: number;
}

const answerText = (v: Verdict) => (v.answer === 'option' && v.option !== undefined ? `option ${v.option}` : v.answer);

/** A run's responses by slot, made once per answers list (a hover asks for every model and group of one run). */
const bySlot = new WeakMap<readonly StoredAnswer[], Map<string, string>>();
function responsesBySlot(answers: readonly StoredAnswer[]): Map<string, string> {
    let map = bySlot.get(answers);
    if (!map) bySlot.set(answers, (map = new Map(answers.map(a => [slotKey(a.questionId, a.model, a.sample), a.text]))));
    return map;
}

/** The failed measured questions, worst first, each with why it failed (read from the run's answers). */
export function worstExamples(
    questions: ReadonlyMap<string, Question>,
    verdicts: readonly Verdict[],
    count = 5,
    answers: readonly StoredAnswer[] = [],
): FailureExample[] {
    const responses = responsesBySlot(answers);
    return verdicts
        .filter(v => {
            const q = questions.get(v.questionId);
            return q !== undefined && isMeasured(q);
        })
        .map(v => ({ v, s: severity(v) }))
        .filter(x => x.s > 0)
        .sort((a, b) => b.s - a.s || a.v.questionId.localeCompare(b.v.questionId))
        .slice(0, count)
        .map(({ v, s }) => {
            const q = questions.get(v.questionId)!;
            const why = explainVerdict(q, v, responses.get(slotKey(v.questionId, v.model, v.sample)) ?? '');
            // A verdict whose hops failed on a question without keywords has no explanation: its answer and keywords.
            const bad = v.hops
                .flatMap(h => h.keywords)
                .filter(k => k.status !== 'found')
                .map(k => `${k.status} "${k.value}"`);
            const line = why.length
                ? why.join('; ')
                : `answered ${answerText(v)} (gold ${goldText(q)})${bad.length ? ` · ${bad.join(', ')}` : ''}`;
            return { questionId: v.questionId, question: q.question, severity: s, line, model: v.model, sample: v.sample };
        });
}

/** A group's figures as its family's figure columns give them (n/a ones left out). */
/**
 * A line's family figures: each as the reports write it (`value`), and a number also to two places (`short`), which is
 * what a CodeLens has room for; a figure that is not one number (per-hop lists, tables) is for the hover only.
 */
function familyFigures(metrics: GroupMetrics): AnchorFigure[] {
    return figureColumns([metrics]).flatMap(({ column }) => {
        const raw = column.value(metrics);
        const value = figureText(raw);
        if (value === 'n/a') return [];
        return [{ name: column.name, value, ...(typeof raw === 'number' ? { short: String(Math.round(raw * 100) / 100) } : {}) }];
    });
}
