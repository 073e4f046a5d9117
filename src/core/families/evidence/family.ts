/**
 * Evidence probes (ReEval, METHODS.md §4): a question answered with a passage, then the same question with the
 * passage perturbed — the answer swapped for another value of the same attribute (the model should follow the
 * passage), or the supporting sentence buried among related passages (the answer stays) — and without any
 * passage (closed book). One question group per row: the seed and its perturbations (relation `evidence`).
 *
 * probe NAME evidence about RELATION {
 *     question "Who directed {title} ({year})?"     // or "{question}" for a question column
 *     answer director                                 // the attribute holding the gold answer
 *     passage "{title} ({year}) was directed by {director}."   // or "{evidence}" for a text column
 *     perturb [swap, enrich, closed]                  // default [swap]
 *     enrich_from related_passages                    // optional: a text column of other passages
 *     swap_with same_shape                            // same_column (default for short columns) or same_shape
 * }
 */
import type { ProbeDecl, SettingValue } from '../../spec/model.js';
import type { ProbeFamily } from '../../probes/family.js';
import type { Item, Plan } from '../../probes/plan.js';
import { planFailure, starPath } from '../../probes/plan.js';
import { keyValues, Scope, slotFor, type Compiled } from '../../probes/scope.js';
import { keyOccurrences } from '../../probes/rows.js';
import { hashSeed, pick, prng } from '../../probes/sampling.js';
import { format, render, type TemplateValue } from '../../spec/template.js';
import { keywordForms } from '../../verify/aliases.js';
import type { Question } from '../../probes/question.js';
import { draw } from '../../models/draw.js';
import { readShort } from '../../reader/index.js';
import { shapeOf, swapAnswer, validateSwap, type SwapRejection } from './swap.js';
import { occurrences, states, unquote } from './text.js';
import { evidenceExtras, evidenceSections } from './metrics.js';

/** ReEval's open-book prompt, verbatim (one user message, no system prompt). */
export const OPEN_BOOK = 'Answer the question below, paired with a context that provides background knowledge. Only output the answer without other context words.\n\nContext: {Evidence}\n\nQuestion: {Question}\n\nAnswer:';
/** The closed-book form: the same without the context. */
export const CLOSED_BOOK = 'Answer the question below. Only output the answer without other context words.\n\nQuestion: {Question}\n\nAnswer:';

export type EvidenceKind = 'seed' | 'swap' | 'enrich' | 'closed';
const PERTURBATIONS: readonly EvidenceKind[] = ['swap', 'enrich', 'closed'];

const text = (v: SettingValue | undefined): string | undefined => (typeof v === 'string' ? v : undefined);
const list = (v: SettingValue | undefined): string[] => (v === undefined ? [] : (Array.isArray(v) ? v : [v]).map(String));

export function prompt(question: string, passage: string | undefined): string {
    return passage === undefined ? CLOSED_BOOK.replace('{Question}', question) : OPEN_BOOK.replace('{Evidence}', passage).replace('{Question}', question);
}

/** The sentence of a passage that states the answer (the first one that does), else the whole passage. */
export function supportingSentence(passage: string, forms: readonly string[]): string {
    const sentences = passage.match(/[^.!?\n]+[.!?]*["”’)]*\s*/g) ?? [passage];
    return (sentences.find(s => occurrences(s, forms).length > 0) ?? passage).trim();
}

/** Why swaps were dropped, counted while a plan generates (one count per row that has no valid swap). */
export type SwapStats = Record<'valid' | SwapRejection, number>;

const planStats = new WeakMap<Plan, SwapStats>();

/** The swap validation counts of a compiled evidence plan so far (undefined for other plans). */
export function swapStats(plan: Plan): SwapStats | undefined {
    return planStats.get(plan);
}

export function evidencePlan(input: Parameters<ProbeFamily['compile']>[0]): Plan | undefined {
    const { spec, data, probe, problems, seed } = input;
    const fail = planFailure(problems, probe);
    const slot = slotFor(spec, data.tables, probe.relation ?? '');
    if (typeof slot === 'string') return fail('probe-data', slot);
    const rel = slot.relation;
    const table = slot.table;
    const answerAttr = text(probe.settings.answer) ?? list(probe.settings.answer)[0];
    const answer = rel.attributes.find(a => a.name === answerAttr);
    if (!answer) return fail('probe-setting', `Evidence probe ${probe.name} needs 'answer ATTRIBUTE': the attribute of ${rel.name} that holds the gold answer (one of ${rel.attributes.map(a => a.name).join(', ')}).`);
    const questionText = text(probe.settings.question);
    const passageText = text(probe.settings.passage);
    if (!questionText || !passageText) return fail('probe-setting', `Evidence probe ${probe.name} needs 'question "…"' and 'passage "…"' templates, e.g. question "Who directed {title}?" passage "{title} was directed by {${answer.name}}." (or "{evidence}" for a text column).`);
    const kinds = list(probe.settings.perturb);
    const perturb = (kinds.length ? kinds : ['swap']).filter((k): k is EvidenceKind => {
        if ((PERTURBATIONS as readonly string[]).includes(k)) return true;
        problems.push({ loc: probe.loc, severity: 'warning', code: 'probe-setting', message: `perturb ${k}: not a perturbation; use swap, enrich or closed.` });
        return false;
    });
    const enrichFrom = text(probe.settings.enrich_from) ?? list(probe.settings.enrich_from)[0];
    const enrichColumn = enrichFrom ? table.column(enrichFrom) : undefined;
    if (enrichFrom && !enrichColumn) problems.push({ loc: probe.loc, severity: 'warning', code: 'probe-setting', message: `enrich_from ${enrichFrom}: ${rel.name} has no such attribute; related rows' passages are used instead.` });
    const scope = new Scope([slot], [{ slot: 0 }]);
    const question: Compiled = scope.template(questionText);
    const passage: Compiled = scope.template(passageText);
    scope.need(0, answer.name);
    const column = table.column(answer.name)!;
    // Replacements: values of the same column, or (free text) other answers of the same shape.
    const byShape = new Map<string, number[]>();
    column.values.forEach((v, code) => {
        const s = shapeOf(format(v as TemplateValue));
        byShape.set(s, [...(byShape.get(s) ?? []), code]);
    });
    const sameColumn = text(probe.settings.swap_with) !== 'same_shape';
    const repeated = keyOccurrences(table, rel.keys[0] ?? []);
    const formsOf = (value: string) => [value, unquote(value), ...keywordForms(spec, data, rel.name, answer.name, value).alternatives.map(a => a.text)];

    const stats: SwapStats = { 'valid': 0, 'no-occurrence': 0, 'old-answer-left': 0, 'new-answer-missing': 0, 'type-mismatch': 0, 'extra-changes': 0, 'same-answer': 0 };
    const plan: Plan = {
        probe, scope, system: '', constraints: [rel.loc],
        bind(row, rows) {
            rows[0] = row;
            if (scope.hasNull(rows)) return 'null';
            return repeated?.[row] ? 'violating' : undefined;
        },
        items(rows) {
            const row = rows[0]!;
            const random = prng(hashSeed(`${probe.name}\u0000${keyValues(rel, table, row).join('\u0000')}`, seed));
            let q: string, ctx: string;
            try {
                q = render(question.parsed, scope.lookup(rows));
                ctx = render(passage.parsed, scope.lookup(rows));
            } catch {
                return 'invalid';
            }
            const gold = format(table.value(row, answer.name) as TemplateValue);
            const forms = formsOf(gold);
            const base = { original: gold, aliases: forms, passage: ctx };
            const items: Item[] = [item('seed', q, ctx, gold, base)];
            for (const kind of perturb) {
                if (kind === 'closed') items.push(item('closed', q, undefined, gold, { ...base, passage: '' }));
                if (kind === 'swap') {
                    const swapped = swapCase(ctx, gold, forms, row, random);
                    if (swapped) items.push(item('swap', q, swapped.passage, swapped.replacement, { ...base, passage: swapped.passage, spans: swapped.spans }));
                }
                if (kind === 'enrich') {
                    const support = supportingSentence(ctx, forms);
                    const others = enrichColumn ? splitPassages(format(table.value(row, enrichColumn.attribute) as TemplateValue)) : relatedPassages(rows, random);
                    const merged = shuffle([support, ...others.slice(0, 4)], random).join('\n\n');
                    if (occurrences(merged, forms).length > 0) items.push(item('enrich', q, merged, gold, { ...base, passage: merged }));
                }
            }
            return items;
        },
        path: rows => starPath(scope, rows, rel.keys[0] ?? [], [answer.name]),
    };
    plan.summary = () => {
        const dropped = Object.entries(stats).filter(([k, n]) => k !== 'valid' && n > 0);
        const tried = stats.valid + dropped.reduce((s, [, n]) => s + n, 0);
        return tried ? `swap: ${stats.valid} of ${tried} cases valid${dropped.length ? `; dropped: ${dropped.map(([k, n]) => `${k} ${n}`).join(', ')}` : ''}` : undefined;
    };
    planStats.set(plan, stats);
    return plan;

    function item(kind: EvidenceKind, q: string, context: string | undefined, answerText: string, e: Omit<NonNullable<Question['evidence']>, 'kind'>): Item {
        return {
            phrasing: kind, template: `${questionText}\u0000${passageText}\u0000${kind}`, question: prompt(q, context), gold: { answer: answerText }, keywords: [], explain: answerText,
            group: { key: 'evidence', relation: 'evidence', role: kind }, evidence: { kind, ...e },
        };
    }

    /** A validated swap of the answer in the passage, or undefined (the case is dropped). */
    function swapCase(ctx: string, gold: string, forms: string[], row: number, random: () => number) {
        const truth = column.codes[row]!;
        const pool = sameColumn ? column.values.map((_, c) => c) : byShape.get(shapeOf(gold)) ?? [];
        let last: SwapRejection = 'same-answer';
        for (let tries = 0; tries < 8; tries++) {
            const code = pool[pick(random, pool.length)];
            if (code === undefined || code === truth) continue;
            const replacement = unquote(format(column.values[code] as TemplateValue));
            const swap = swapAnswer(ctx, forms, replacement);
            const rejected = validateSwap(ctx, swap, forms, gold);
            if (rejected === undefined) { stats.valid++; return swap!; }
            last = rejected;
            // An answer the passage does not contain cannot be swapped, whatever the replacement.
            if (rejected === 'no-occurrence') break;
        }
        stats[last]++;
        return undefined;
    }

    function relatedPassages(rows: Int32Array, random: () => number): string[] {
        const out: string[] = [];
        const other = new Int32Array(1);
        for (let tries = 0; tries < 12 && out.length < 3; tries++) {
            other[0] = pick(random, table.rowCount);
            if (other[0] === rows[0]) continue;
            try { out.push(render(passage.parsed, scope.lookup(other))); } catch { /* a row that cannot render is no passage */ }
        }
        return out;
    }
}

function splitPassages(s: string): string[] {
    return s.split(/\n{2,}|(?<=[.!?])\s+(?=\p{Lu})/u).map(x => x.trim()).filter(x => x.length > 20);
}

function shuffle<T>(xs: T[], random: () => number): T[] {
    for (let i = xs.length - 1; i > 0; i--) { const j = Math.floor(random() * (i + 1)); [xs[i], xs[j]] = [xs[j]!, xs[i]!]; }
    return xs;
}

const answerOf = (q: Question) => (typeof q.gold === 'object' ? q.gold.answer : '');

export const evidenceFamily: ProbeFamily = {
    kind: 'evidence',
    title: 'short answers with a passage, then with the passage perturbed (answer swapped, support buried) and without it',
    target: 'relation',
    example: "write 'about <relation>' with question, answer and passage settings",
    members: [],
    settings: [
        { name: 'question', type: 'text', doc: 'The question template, e.g. question "Who directed {title}?".' },
        { name: 'answer', type: 'text', doc: 'The attribute that answers the question (its value is the gold).' },
        { name: 'passage', type: 'text', doc: 'The passage template (or "{evidence}" for a text column).' },
        { name: 'perturb', type: 'text', list: true, values: PERTURBATIONS, doc: 'Which cases to ask besides the seed: swap, enrich, closed (default [swap]).' },
        { name: 'swap_with', type: 'text', values: ['same_shape', 'same_column'], doc: 'The replacement answer: another value of the same column (same_column, default) or of the same shape (same_shape: year, number, date, name, text).' },
        { name: 'enrich_from', type: 'text', list: true, doc: 'A text column of other passages to bury the support in (default: 3-4 related rows\' passages).' },
    ],
    compile: evidencePlan,
    phrasings: (probe: ProbeDecl) => {
        const asked = list(probe.settings.perturb).filter(k => (PERTURBATIONS as readonly string[]).includes(k));
        return ['seed', ...new Set(asked.length ? asked : ['swap'])];
    },
    pathPerItem: false,
    // The reader's short answer: an abstention ("I am not sure") or a refusal is no answer (M), a hedged one is.
    parse: response => {
        const r = readShort(response);
        return { answer: r.label, rationaleStart: r.label === 'answer' ? 0 : r.rationaleStart, span: r.span, why: r.why, stance: r.stance };
    },
    score: (q, _parsed, response) => ({ correct: states(response, [answerOf(q), ...(q.evidence?.kind === 'swap' ? [] : q.evidence?.aliases ?? [])]) }),
    measured: true,
    decidesKnowledge: false,
    metricExtras: items => evidenceExtras(items),
    meanOverPhrasings: false,
    reportSections: groups => evidenceSections(groups),
    answerText: (q, gold, rates) => {
        // A model that trusts its memory answers the original value although the passage says otherwise.
        if (q.evidence?.kind === 'swap' && rates && draw(rates.seed, q.id, 'memory') < (rates.trustsMemory ?? 0)) return q.evidence.original;
        return typeof gold === 'object' ? gold.answer : String(gold);
    },
    // Without the entity in memory: the passage still answers an open-book question; closed book, it guesses.
    guess: q => (q.evidence?.kind === 'closed' ? { answer: 'I am not sure' } : q.gold),
};
