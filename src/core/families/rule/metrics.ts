/**
 * Rule probe figures (METHODS.md §2): hallucination rate (answer wrong and not a refusal); the paper's categories
 * among the wrong answers, read from its oracle (node / edge overlap with the proof: error knowledge, error
 * inference, both), beside ours from each premise checked against the data (right answer from wrong premises,
 * wrong answer from right premises, wrong answer and wrong premises); per relation the proof rests on, the first
 * derivation step the rationale gets wrong, the claims' status. Intervals are Wilson's.
 */
import type { Question } from '../../probes/question.js';
import type { ReportSection } from '../../probes/contract/report.js';
import type { Verdict } from '../../verify/types.js';
import { figure, figuresOf, type Figure, type GroupMetrics } from '../../verify/figures.js';
import { ciText, pct } from '../../report/numbers.js';
import { LABEL_PARTS, keyCells } from '../../report/labels.js';
import { checkRuleAnswer, LOW_OVERLAP, type PaperCategory, type RuleCategory } from './claims.js';
import type { FigureColumn } from '../../probes/contract/figures.js';

export { LOW_OVERLAP };

export interface RuleFigures {
    rule: string;
    questions: number;
    /** Answers that are not refusals / "I don't know". */
    answered: number;
    /** Wrong and not a refusal, over all questions. */
    hallucination: Figure;
    /** Wrong answers (not refusals): what the paper's categories are shares of. */
    wrong: number;
    /** The threshold below which an overlap is low (the probe's `low_overlap`). */
    lowOverlap: number;
    /** The paper's categories, over wrong answers: low node overlap only, low edge overlap only, both low, neither low. */
    errorKnowledge: Figure;
    errorInference: Figure;
    both: Figure;
    overlapNotLow: Figure;
    /** Ours, over answered questions: each premise checked against the data (claims.ts RuleCategory). */
    rightAnswerWrongPremises: Figure;
    wrongAnswerRightPremises: Figure;
    wrongAnswerWrongPremises: Figure;
    /** Per premise relation (`Relation.attribute`): hallucination over the questions whose proof uses it. */
    byRelation: Record<string, Figure>;
    /** How often each derivation step (1-based) is the first one the rationale gets wrong. */
    firstWrongStep: Record<string, number>;
    claims: { supported: number; contradicted: number; unknown: number };
    /** Where the claims came from: a model's triples (`extract_with`), the patterns, or the patterns because the model's answer was unreadable. */
    extraction: { model: number; patterns: number; fallback: number; firstFallback?: string };
    /** How the overlap's elements were matched, with how many questions each way ("exact / alias", "embeddings m ≥ 0.8"). */
    overlapBy: Record<string, number>;
    /** Means over answered questions of the paper's node and edge Jaccard. */
    nodeOverlap: number | null;
    edgeOverlap: number | null;
    /** Means over answered questions of the rationale's precision and recall against the proof (claims.ts). */
    precision: number | null;
    recall: number | null;
    /** With a model reader (extract_with): premises on which the pattern reader agrees with it. */
    readerAgreement?: Figure;
}

export function ruleFigures(items: readonly { v: Verdict; q: Question }[]): RuleFigures | undefined {
    const checked = items.map(({ v, q }) => ({ q, c: checkRuleAnswer(q, v) })).filter(x => x.c !== undefined);
    if (checked.length === 0) return undefined;
    const count: Record<RuleCategory, number> = {
        correct: 0,
        'right-answer-wrong-premises': 0,
        'wrong-answer-right-premises': 0,
        'wrong-answer-wrong-premises': 0,
        refused: 0,
    };
    const paper: Record<PaperCategory, number> = { 'error-knowledge': 0, 'error-inference': 0, both: 0, 'not-low': 0 };
    const relations = new Map<string, { k: number; n: number }>();
    const firstWrongStep: Record<string, number> = {};
    const claims = { supported: 0, contradicted: 0, unknown: 0 };
    let node = 0,
        edge = 0,
        precision = 0,
        recall = 0,
        read = 0,
        agree = 0;
    const extraction: RuleFigures['extraction'] = { model: 0, patterns: 0, fallback: 0 };
    const overlapBy: Record<string, number> = {};
    for (const { q, c } of checked) {
        count[c!.category]++;
        if (c!.paper) paper[c!.paper]++;
        const from = c!.extraction;
        if (from.by === 'model') extraction.model++;
        else if (from.fallback !== undefined) {
            extraction.fallback++;
            extraction.firstFallback ??= from.fallback;
        } else extraction.patterns++;
        overlapBy[c!.overlapBy] = (overlapBy[c!.overlapBy] ?? 0) + 1;
        const wrong = c!.paper !== undefined;
        for (const r of new Set(q.rule!.premises.map(p => `${p.relation}.${p.attribute}`))) {
            const e = relations.get(r) ?? { k: 0, n: 0 };
            e.n++;
            if (wrong) e.k++;
            relations.set(r, e);
        }
        if (c!.firstWrongStep !== undefined) firstWrongStep[c!.firstWrongStep] = (firstWrongStep[c!.firstWrongStep] ?? 0) + 1;
        for (const cl of c!.claims) claims[cl.status]++;
        if (c!.category !== 'refused') {
            node += c!.nodeOverlap;
            edge += c!.edgeOverlap;
            precision += c!.precision;
            recall += c!.recall;
        }
        if (c!.agreement) {
            read += c!.agreement.premises;
            agree += c!.agreement.agree;
        }
    }
    const answered = checked.length - count.refused;
    const wrong = count['wrong-answer-right-premises'] + count['wrong-answer-wrong-premises'];
    return {
        rule: checked[0]!.q.rule!.pred,
        questions: checked.length,
        answered,
        wrong,
        lowOverlap: checked[0]!.q.rule!.lowOverlap ?? LOW_OVERLAP,
        hallucination: figure(wrong, checked.length),
        errorKnowledge: figure(paper['error-knowledge'], wrong),
        errorInference: figure(paper['error-inference'], wrong),
        both: figure(paper.both, wrong),
        overlapNotLow: figure(paper['not-low'], wrong),
        rightAnswerWrongPremises: figure(count['right-answer-wrong-premises'], answered),
        wrongAnswerRightPremises: figure(count['wrong-answer-right-premises'], answered),
        wrongAnswerWrongPremises: figure(count['wrong-answer-wrong-premises'], answered),
        byRelation: Object.fromEntries([...relations].map(([r, e]) => [r, figure(e.k, e.n)])),
        firstWrongStep,
        claims,
        extraction,
        overlapBy,
        nodeOverlap: answered ? node / answered : null,
        edgeOverlap: answered ? edge / answered : null,
        precision: answered ? precision / answered : null,
        recall: answered ? recall / answered : null,
        ...(read > 0 ? { readerAgreement: figure(agree, read) } : {}),
    };
}

/** The rule figures of a group (GroupMetrics' `figures` field, key `rules`). */
export const rulesOf = (g: GroupMetrics) => figuresOf<RuleFigures>(g, 'rules');

export function ruleExtras(items: readonly { v: Verdict; q: Question }[]): Partial<GroupMetrics> {
    const rules = ruleFigures(items);
    return rules ? { figures: { rules } } : {};
}

const fig = (f: Figure) => `${pct(f.value)} ${ciText(f.ci)}`;
const mean = (x: number | null) => (x === null ? 'n/a' : x.toFixed(2));

/** The categories as figure columns: CSV, JUnit and the md / html figures table show them beside the JSON's figures. */
const count = (pick: (r: RuleFigures) => Figure) => (g: GroupMetrics) => {
    const r = rulesOf(g);
    return r ? pick(r).k : null;
};
export const ruleFigureColumns: readonly FigureColumn[] = [
    { name: 'rule_wrong_answers', value: g => rulesOf(g)?.wrong ?? null },
    { name: 'rule_error_knowledge', value: count(r => r.errorKnowledge) },
    { name: 'rule_error_inference', value: count(r => r.errorInference) },
    { name: 'rule_both', value: count(r => r.both) },
    { name: 'rule_overlap_not_low', value: count(r => r.overlapNotLow) },
    { name: 'rule_low_overlap', value: g => rulesOf(g)?.lowOverlap ?? null },
    { name: 'rule_right_answer_wrong_premises', value: count(r => r.rightAnswerWrongPremises) },
    { name: 'rule_wrong_answer_right_premises', value: count(r => r.wrongAnswerRightPremises) },
    { name: 'rule_wrong_answer_wrong_premises', value: count(r => r.wrongAnswerWrongPremises) },
];

export function ruleSections(groups: readonly GroupMetrics[]): ReportSection[] {
    const shown = groups.filter(g => !g.na && (rulesOf(g)?.questions ?? 0) > 0);
    if (shown.length === 0) return [];
    const share = (f: Figure) => `${fig(f)} (${f.k}/${f.n})`;
    return [
        {
            // Hallucination is the engine's H (wrong and not a refusal), shown as in the metrics table. The paper's
            // categories are shares of the wrong answers; ours of the answered questions (k/n says which).
            title: "Rules: hallucination and the paper's categories among wrong answers (from the node / edge overlap), beside ours (each premise checked against the data)",
            columns: [
                ...LABEL_PARTS,
                'rule',
                'questions',
                'hallucination',
                'wrong answers',
                'paper: error knowledge (low node overlap)',
                'paper: error inference (low edge overlap)',
                'paper: both (both low)',
                'paper: neither low',
                'low = overlap below',
                'ours: right answer, wrong premises',
                'ours: wrong answer, right premises',
                'ours: wrong answer, wrong premises',
                'node overlap',
                'edge overlap',
            ],
            rows: shown.map(g => {
                const r = rulesOf(g)!;
                return [
                    ...keyCells(g),
                    r.rule,
                    String(r.questions),
                    `${pct(g.H)} ${ciText(g.ci.H)}`,
                    String(r.wrong),
                    share(r.errorKnowledge),
                    share(r.errorInference),
                    share(r.both),
                    share(r.overlapNotLow),
                    String(r.lowOverlap),
                    share(r.rightAnswerWrongPremises),
                    share(r.wrongAnswerRightPremises),
                    share(r.wrongAnswerWrongPremises),
                    mean(r.nodeOverlap),
                    mean(r.edgeOverlap),
                ];
            }),
        },
        {
            title: "Rules: the rationale against the proof (precision, recall) and the readers' agreement",
            columns: [...LABEL_PARTS, 'rule', 'answered', 'precision', 'recall', 'pattern reader agrees with the model reader'],
            rows: shown.map(g => {
                const r = rulesOf(g)!;
                return [
                    ...keyCells(g),
                    r.rule,
                    String(r.answered),
                    mean(r.precision),
                    mean(r.recall),
                    r.readerAgreement ? `${fig(r.readerAgreement)} of ${r.readerAgreement.n} premises` : 'n/a (no model reader)',
                ];
            }),
        },
        {
            title: 'Rules: hallucination by relation the proof rests on',
            columns: [...LABEL_PARTS, 'rule', 'relation', 'questions', 'hallucination'],
            rows: shown.flatMap(g =>
                Object.entries(rulesOf(g)!.byRelation).map(([rel, f]) => [
                    ...keyCells(g),
                    rulesOf(g)!.rule,
                    rel,
                    String(f.n),
                    fig(f),
                ]),
            ),
        },
        {
            title: 'Rules: the first derivation step the rationale gets wrong, and its claims',
            columns: [
                ...LABEL_PARTS,
                'rule',
                'first wrong step (step: questions)',
                'claims supported',
                'contradicted',
                'unknown',
                'claims from',
                'overlap matched by',
            ],
            rows: shown.map(g => {
                const r = rulesOf(g)!;
                return [
                    ...keyCells(g),
                    r.rule,
                    Object.entries(r.firstWrongStep)
                        .map(([s, n]) => `${s}: ${n}`)
                        .join(', ') || 'none',
                    String(r.claims.supported),
                    String(r.claims.contradicted),
                    String(r.claims.unknown),
                    claimsFrom(r.extraction),
                    Object.entries(r.overlapBy)
                        .map(([by, n]) => `${by}: ${n}`)
                        .join(', '),
                ];
            }),
        },
    ];
}

/** "model 38, patterns 2 (model answer unreadable: …)": where the claims came from. */
function claimsFrom(e: RuleFigures['extraction']): string {
    const parts = [
        e.model ? `model ${e.model}` : '',
        e.patterns ? `patterns ${e.patterns}` : '',
        e.fallback ? `patterns after an unreadable extraction ${e.fallback} (${e.firstFallback})` : '',
    ];
    return parts.filter(Boolean).join(', ');
}
