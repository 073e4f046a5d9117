/**
 * Scores of evidence probes per metric group: exact match and token F1 (SQuAD-style, alias-aware), and per swapped
 * case whether the answer followed the passage, stayed with the original value (stale: memory over context) or
 * was something else; accuracy on each case kind and the drop from the seed, with intervals.
 * Across the groups of one model, probe, variant and mode (the report sections), as ReEval counts them: a swapped
 * case only where the model answered its seed right, an enriched one only where it also answered wrong closed-book
 * (the rest counted beside); memory (closed book) × what the swapped case did; accuracy by the supporting
 * sentence's position among the enriched passages.
 */
import type { Question } from '../../probes/question.js';
import type { ReportSection } from '../../probes/contract/report.js';
import type { Verdict } from '../../verify/types.js';
import { figure, figuresOf, MODE_LABELS, type Figure, type GroupMetrics } from '../../verify/figures.js';
import { ciText, pct } from '../../report/numbers.js';
import { exactMatch, states, tokenF1 } from './text.js';
import { answerWords } from '../../verify/reading.js';

export type SwapOutcome = 'followed' | 'stale' | 'other';

interface EvidenceFigures {
    /**
     * Per case kind (seed, swap, enrich, closed): answers, accuracy (the gold stated), exact match, mean token F1, and
     * entailment accuracy over the answers the judge labelled (`judge_with`; null — n/a — without a judge).
     */
    byKind: Record<string, { n: number; accuracy: Figure; exact: Figure; f1: number; entailment: Figure | null }>;
    /** Swapped cases: followed the passage, stale (the original value), other. */
    swap: { n: number; followed: Figure; stale: Figure; other: Figure } | undefined;
    /** Enriched cases: accuracy by the supporting sentence's position (1-based) among the passages. */
    positions?: Record<string, Figure>;
}

/** One case's result, per item (entity and sample): what the cross-group tables join on. */
interface CaseResult {
    correct: boolean;
    outcome?: SwapOutcome;
}

/** Per-case results of a group's figures; not enumerable, so reports and JSON never carry them. */
const CASES = new WeakMap<EvidenceFigures, Map<string, CaseResult>>();
const caseKey = (q: Question, v: Verdict) => `${q.entity.relation}\u0000${q.entity.key.join('\u0000')}\u0000${v.sample}`;

const goldOf = (q: Question) => (typeof q.gold === 'object' ? q.gold.answer : String(q.gold));

/** What a swapped case's answer did. */
export function swapOutcome(q: Question, response: string): SwapOutcome {
    if (states(response, [goldOf(q)])) return 'followed';
    if (states(response, q.evidence?.aliases ?? [])) return 'stale';
    return 'other';
}

function evidenceFigures(items: readonly { v: Verdict; q: Question }[]): EvidenceFigures {
    const kinds = new Map<string, { v: Verdict; q: Question }[]>();
    for (const i of items) {
        const k = i.q.evidence?.kind ?? 'seed';
        kinds.set(k, [...(kinds.get(k) ?? []), i]);
    }
    const byKind: EvidenceFigures['byKind'] = {};
    for (const [k, list] of kinds) {
        const golds = (q: Question) => (k === 'swap' ? [goldOf(q)] : [goldOf(q), ...(q.evidence?.aliases ?? [])]);
        const judged = list.filter(i => i.v.entailment?.label !== undefined);
        byKind[k] = {
            n: list.length,
            accuracy: figure(list.filter(i => correct(i.v)).length, list.length),
            exact: figure(list.filter(i => exactMatch(answerWords(i.v), golds(i.q))).length, list.length),
            f1: list.reduce((s, i) => s + tokenF1(answerWords(i.v), golds(i.q)), 0) / list.length,
            entailment: judged.length ? figure(judged.filter(i => i.v.entailment!.correct).length, judged.length) : null,
        };
    }
    const swaps = kinds.get('swap') ?? [];
    const outcomes = swaps.map(i => swapOutcome(i.q, answerWords(i.v)));
    const count = (o: SwapOutcome) => figure(outcomes.filter(x => x === o).length, outcomes.length);
    const out: EvidenceFigures = {
        byKind,
        swap: swaps.length
            ? { n: swaps.length, followed: count('followed'), stale: count('stale'), other: count('other') }
            : undefined,
    };
    const placed = (kinds.get('enrich') ?? []).filter(i => i.q.evidence?.position !== undefined);
    if (placed.length) {
        const at = new Map<number, boolean[]>();
        for (const i of placed) at.set(i.q.evidence!.position!, [...(at.get(i.q.evidence!.position!) ?? []), correct(i.v)]);
        out.positions = Object.fromEntries(
            [...at].sort((a, b) => a[0] - b[0]).map(([p, xs]) => [String(p), figure(xs.filter(Boolean).length, xs.length)]),
        );
    }
    // One result per item: several cases of one item (ReEval's two enriched copies) are right only when all are.
    const results = new Map<string, CaseResult>();
    for (const i of items) {
        const key = caseKey(i.q, i.v);
        const right = correct(i.v) && (results.get(key)?.correct ?? true);
        results.set(key, {
            correct: right,
            ...(i.q.evidence?.kind === 'swap' ? { outcome: swapOutcome(i.q, answerWords(i.v)) } : {}),
        });
    }
    CASES.set(out, results);
    return out;
}

const correct = (v: Verdict) => v.override?.correct ?? v.correct;

/** The evidence figures of a group (GroupMetrics' `figures` field, key `evidence`). */
const evidenceOf = (g: GroupMetrics) => figuresOf<EvidenceFigures>(g, 'evidence');

export function evidenceExtras(items: readonly { v: Verdict; q: Question }[]): Partial<GroupMetrics> {
    return items.length ? { figures: { evidence: evidenceFigures(items) } } : {};
}

const f = (x: Figure) => `${pct(x.value)} ${ciText(x.ci)}`;

export function evidenceSections(groups: readonly GroupMetrics[]): ReportSection[] {
    const shown = groups.filter(g => evidenceOf(g) && !g.na);
    if (shown.length === 0) return [];
    // Every case kind is its own metric group (its phrasing); the swap group carries the outcomes.
    // Each row's head: the group it is about (its phrasing is the evidence case).
    const head = (g: GroupMetrics) => [g.model, g.probe, g.phrasing, g.variant, MODE_LABELS[g.mode]];
    const headColumns = ['model', 'probe', 'case', 'variant', 'mode'];
    const sections: ReportSection[] = [
        {
            title: 'Evidence: accuracy, exact match, F1 and entailment per case',
            columns: [...headColumns, 'n', 'accuracy', 'exact match', 'token F1', 'entailment (judge)'],
            rows: shown.flatMap(g =>
                Object.entries(evidenceOf(g)!.byKind).map(([, k]) => [
                    ...head(g),
                    String(k.n),
                    f(k.accuracy),
                    f(k.exact),
                    k.f1.toFixed(2),
                    k.entailment ? `${f(k.entailment)} of ${k.entailment.n}` : 'n/a',
                ]),
            ),
        },
    ];
    const swaps = shown.filter(g => evidenceOf(g)!.swap);
    if (swaps.length) {
        sections.push({
            title: 'Evidence: swapped answers — followed the passage or stale',
            columns: [
                ...headColumns,
                'swapped cases',
                'followed',
                'stale (memory over context)',
                'other',
                'accuracy drop from the seed',
            ],
            rows: swaps.map(g => {
                const s = evidenceOf(g)!.swap!;
                // The seed is its own metric group (phrasing 'seed') of the same model, probe, variant and mode.
                const seed = shown.find(
                    x =>
                        x.model === g.model &&
                        x.probe === g.probe &&
                        x.variant === g.variant &&
                        x.mode === g.mode &&
                        x.phrasing === 'seed',
                );
                const drop = seed && seed.A !== null && g.A !== null ? (seed.A - g.A).toFixed(2) : 'n/a';
                return [...head(g), String(s.n), f(s.followed), f(s.stale), f(s.other), drop];
            }),
        });
    }
    sections.push(...seedSections(shown));
    return sections;
}

/** The groups of one model, probe, variant and mode, by case kind. */
function caseSets(groups: readonly GroupMetrics[]): { head: string[]; kinds: Map<string, GroupMetrics> }[] {
    const sets = new Map<string, { head: string[]; kinds: Map<string, GroupMetrics> }>();
    for (const g of groups) {
        const key = [g.model, g.probe, g.variantId ?? g.variant, g.mode].join('\u0000');
        if (!sets.has(key)) sets.set(key, { head: [g.model, g.probe, g.variant, MODE_LABELS[g.mode]], kinds: new Map() });
        sets.get(key)!.kinds.set(g.phrasing, g);
    }
    return [...sets.values()];
}

function seedSections(groups: readonly GroupMetrics[]): ReportSection[] {
    const over: string[][] = [],
        memory: string[][] = [],
        position: string[][] = [];
    for (const { head, kinds } of caseSets(groups)) {
        const cases = (k: string) => {
            const g = kinds.get(k);
            const e = g ? evidenceOf(g) : undefined;
            return e ? CASES.get(e) : undefined;
        };
        const seed = cases('seed'),
            swap = cases('swap'),
            enrich = cases('enrich'),
            closed = cases('closed');
        if (seed && (swap || enrich)) {
            const seeds = [...seed].filter(([, c]) => c.correct).map(([k]) => k);
            const swapped = seeds.map(k => swap?.get(k)?.outcome).filter((o): o is SwapOutcome => o !== undefined);
            const share = (o: SwapOutcome) => f(figure(swapped.filter(x => x === o).length, swapped.length));
            // Enriching also needs the model not to know the answer without the passage (when closed book was asked).
            const enrichSeeds = seeds.filter(k => enrich?.has(k) && (!closed || closed.get(k)?.correct === false));
            over.push([
                ...head,
                `${seeds.length} of ${seed.size}`,
                String(swapped.length),
                share('followed'),
                share('stale'),
                share('other'),
                String(enrichSeeds.length),
                f(figure(enrichSeeds.filter(k => enrich!.get(k)!.correct).length, enrichSeeds.length)),
                String(seed.size - seeds.length),
            ]);
            if (swap && closed) {
                for (const known of [true, false]) {
                    const ks = seeds.filter(k => swap.has(k) && closed.get(k)?.correct === known);
                    const n = (o: SwapOutcome) => String(ks.filter(k => swap.get(k)!.outcome === o).length);
                    memory.push([...head, known ? 'right' : 'wrong', n('followed'), n('stale'), n('other')]);
                }
            }
        }
        const enrichGroup = kinds.get('enrich');
        const placed = enrichGroup ? evidenceOf(enrichGroup)?.positions : undefined;
        for (const [p, x] of Object.entries(placed ?? {})) position.push([...head, p, String(x.n), f(x)]);
    }
    const cols = ['model', 'probe', 'variant', 'mode'];
    const out: ReportSection[] = [];
    const attack = attackRows(groups);
    if (over.length)
        out.push({
            title: 'Evidence over seeds (ReEval): swaps where the seed was answered right; enriched cases also wrong closed-book',
            columns: [
                ...cols,
                'seeds',
                'swaps over seeds',
                'followed',
                'stale',
                'other',
                'enrich seeds',
                'enrich accuracy',
                'not seeds',
            ],
            rows: over,
        });
    if (memory.length)
        out.push({
            title: 'Evidence: memory × evidence (closed-book answer × the swapped case, over seeds)',
            columns: [...cols, 'memory (closed book)', 'followed', 'stale', 'other'],
            rows: memory,
        });
    if (position.length)
        out.push({
            title: "Evidence: enriched accuracy by the supporting sentence's position",
            columns: [...cols, 'position', 'n', 'accuracy'],
            rows: position,
        });
    if (attack.length)
        out.push({
            title: "Evidence: self- and cross-attack (ReEval §4.1): each model's swapped and enriched cases over the seeds a pivot model answered right (pivot = model: self-attack)",
            columns: ['pivot', ...cols, 'seeds', 'swaps', 'followed', 'stale', 'other', 'enriched', 'enrich accuracy'],
            rows: attack,
        });
    return out;
}

/**
 * Self- and cross-attack (ReEval §4.1): with several models, every model is a pivot in turn; its seeds (the items it
 * answered right with the passage) are the cases every model is attacked on. Rows per pivot and model of one probe,
 * variant and mode; none with a single model (the over-seeds table is its self-attack).
 */
function attackRows(groups: readonly GroupMetrics[]): string[][] {
    const byRun = new Map<string, { head: string[]; kinds: Map<string, GroupMetrics> }[]>();
    for (const set of caseSets(groups)) {
        const key = set.head.slice(1).join('\u0000');
        byRun.set(key, [...(byRun.get(key) ?? []), set]);
    }
    const rows: string[][] = [];
    for (const sets of byRun.values()) {
        if (sets.length < 2) continue;
        const cases = (kinds: Map<string, GroupMetrics>, k: string) => {
            const g = kinds.get(k);
            const e = g ? evidenceOf(g) : undefined;
            return e ? CASES.get(e) : undefined;
        };
        for (const pivot of sets) {
            const seed = cases(pivot.kinds, 'seed');
            if (!seed) continue;
            const seeds = [...seed].filter(([, c]) => c.correct).map(([k]) => k);
            for (const target of sets) {
                const swap = cases(target.kinds, 'swap'),
                    enrich = cases(target.kinds, 'enrich');
                if (!swap && !enrich) continue;
                const swapped = seeds.map(k => swap?.get(k)?.outcome).filter((o): o is SwapOutcome => o !== undefined);
                const share = (o: SwapOutcome) => f(figure(swapped.filter(x => x === o).length, swapped.length));
                const enriched = seeds.filter(k => enrich?.has(k));
                rows.push([
                    pivot.head[0]!,
                    ...target.head,
                    String(seeds.length),
                    String(swapped.length),
                    share('followed'),
                    share('stale'),
                    share('other'),
                    String(enriched.length),
                    f(figure(enriched.filter(k => enrich!.get(k)!.correct).length, enriched.length)),
                ]);
            }
        }
    }
    return rows;
}
