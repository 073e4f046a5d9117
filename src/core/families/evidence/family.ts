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
import type { ProbeDecl } from '../../spec/model.js';
import type { ProbeFamily } from '../../probes/contract/family.js';
import type { CompileInput, GroupRelation } from '../../probes/contract/core.js';
import type { Item, Plan } from '../../probes/plan.js';
import { planFailure, starPath } from '../../probes/plan.js';
import { keyValues, Scope, slotFor, type Compiled } from '../../probes/scope.js';
import { keyOccurrences } from '../../probes/rows.js';
import { hashSeed, pick, prng } from '../../probes/sampling.js';
import { format, render, type TemplateValue } from '../../spec/template.js';
import { keywordForms } from '../../verify/aliases.js';
import type { Question } from '../../probes/question.js';
import { draw } from '../../models/draw.js';
import type { Demo } from '../../probes/prompts.js';
import {
    answerSpans,
    answerType,
    askedNoun,
    countUnit,
    inFormOf,
    swapAnswer,
    validateSwap,
    type AnswerType,
    type SwapRejection,
} from './swap.js';
import { plainText, states, unquote } from './text.js';
import { enrichCase, splitPassages, type EnrichFocus, type EnrichRejection } from './enrich.js';
import { modelEnrichCase, type EnrichStep, type ModelEnrichRejection } from './enrich-model.js';
import { evidenceExtras, evidenceSections, swapOutcome } from './metrics.js';
import { modelSwapCase, type ModelSwapRejection } from './swap-model.js';
import { readShort } from '../../reader/index.js';
import { judgeEntailment } from './judge.js';
import { answerWords } from '../../verify/reading.js';
import { EVIDENCE_SETTINGS, PROMPT_STYLES } from './settings.js';
import { rowFacts } from '../../probes/facts.js';

declare module '../../probes/question.js' {
    interface QuestionData {
        /**
         * evidence questions: which case it is, the passage given ('' closed book), the original answer and its
         * aliases, and for a swap the spans of the passage where the new answer was written and the answers' type; for
         * an enriched case the position (1-based) of the supporting sentence among the passages (none when a model
         * merged them); `asked` is the
         * question as the data words it (the judge reads it).
         */
        evidence?: {
            kind: 'seed' | 'swap' | 'enrich' | 'closed';
            passage: string;
            original: string;
            aliases: string[];
            spans?: [number, number][];
            type?: string;
            position?: number;
            asked?: string;
            /** An enriched case built by a model's steps (`enrich_with`): the model and the steps. */
            enrichedBy?: { model: string; steps: string[] };
            /** An enriched copy of `enrich_copies both`: its passages retrieved for the evidence or for the question. */
            enrichedFor?: EnrichFocus;
            /** A swap the model made (`swap_by`): its wrong answer and its rewrite of the passage. */
            swappedBy?: string;
        };
    }
}

/** ReEval's open-book instruction, verbatim. */
export const OPEN_INSTRUCTION =
    'Answer the question below, paired with a context that provides background knowledge. Only output the answer without other context words.';
/** The closed-book instruction: the same without the context. */
export const CLOSED_INSTRUCTION = 'Answer the question below. Only output the answer without other context words.';
/** ReEval's open-book prompt, verbatim (one user message, no system prompt). */
const OPEN_BOOK = `${OPEN_INSTRUCTION}\n\nContext: {Evidence}\n\nQuestion: {Question}\n\nAnswer:`;
/** The closed-book form: the same without the context. */
const CLOSED_BOOK = `${CLOSED_INSTRUCTION}\n\nQuestion: {Question}\n\nAnswer:`;

/** The authors' system prompt for chat models (ReEval's gpt_inference.py): the prompt itself is the user turn. */
const CHAT_SYSTEM = 'You are a helpful assistant.';
/** The authors' instruction of the third-person opinion prompt (ReEval's gpt_inference.py, after Zhou et al. 2023). */
const OPINION_INSTRUCTION =
    'Instruction: read the given information and answer the corresponding question. Only output the answer without other context words.';

type PromptStyle = (typeof PROMPT_STYLES)[number];

type EvidenceKind = 'seed' | 'swap' | 'enrich' | 'closed';

const fill = (template: string, values: Record<string, string>) =>
    template.replace(/\{(Evidence|Question)\}/g, (_, k: string) => values[k]!);

/** ReEval's prompt (paper style): open book with the passage, closed book without. */
function prompt(question: string, passage: string | undefined): string {
    return passage === undefined
        ? fill(CLOSED_BOOK, { Question: question })
        : fill(OPEN_BOOK, { Evidence: passage, Question: question });
}

/**
 * The user turn and, for `chat`, the system prompt of a case in a prompt style. The opinion prompt drops the
 * question's own final "?" (the authors' template adds " in Bob's opinion based on the given text?" after it).
 */
function styledPrompt(style: PromptStyle, question: string, passage: string | undefined): { system?: string; user: string } {
    if (style === 'chat') return { system: CHAT_SYSTEM, user: prompt(question, passage) };
    if (style === 'opinion' && passage !== undefined) {
        return {
            user: `${OPINION_INSTRUCTION}\n\nBob said, "${passage}"\nQ: ${question.trim().replace(/\?+$/, '')} in Bob's opinion based on the given text?`,
        };
    }
    return { user: prompt(question, passage) };
}

/** Why swaps were dropped, counted while a plan generates (one count per row that has no valid swap). */
type SwapStats = Record<'valid' | ModelSwapRejection, number>;
/** Why enriched cases were dropped, likewise. */
type EnrichStats = Record<'valid' | EnrichRejection | ModelEnrichRejection, number>;

function evidencePlan(input: CompileInput): Plan | undefined {
    const { spec, data, probe, problems, seed, aids } = input;
    const fail = planFailure(problems, probe);
    const slot = slotFor(spec, data.tables, probe.relation ?? '');
    if (typeof slot === 'string') return fail('probe-data', slot);
    const rel = slot.relation;
    const table = slot.table;
    const settings = EVIDENCE_SETTINGS.read(probe.settings);
    const answerAttr = settings.answer;
    const answer = rel.attributes.find(a => a.name === answerAttr);
    if (!answer)
        return fail(
            'probe-needs-setting',
            `Evidence probe ${probe.name} needs 'answer ATTRIBUTE': the attribute of ${rel.name} that holds the gold answer (one of ${rel.attributes.map(a => a.name).join(', ')}).`,
        );
    const questionText = settings.question;
    const passageText = settings.passage;
    if (!questionText || !passageText)
        return fail(
            'probe-needs-setting',
            `Evidence probe ${probe.name} needs 'question "…"' and 'passage "…"' templates, e.g. question "Who directed {title}?" passage "{title} was directed by {${answer.name}}." (or "{evidence}" for a text column).`,
        );
    const perturb: EvidenceKind[] = settings.perturb.length ? settings.perturb : ['swap'];
    const enrichFrom = settings.enrich_from?.[0];
    const enrichColumn = enrichFrom ? table.column(enrichFrom) : undefined;
    if (enrichFrom && !enrichColumn)
        problems.push({
            location: probe.loc,
            severity: 'warning',
            code: 'probe-setting',
            message: `enrich_from ${enrichFrom}: ${rel.name} has no such attribute; related rows' passages are used instead.`,
        });
    const style: PromptStyle = settings.prompt;
    const demos = demonstrations(settings.demos);
    // The paper's model steps for enriching (select, summarise, merge) when a model is named; else the lexical path.
    const enrichWith = settings.enrich_with;
    const steps: readonly EnrichStep[] = settings.enrich_steps;
    // ReEval's two copies per seed (evidence-focused, question-focused), or one from both retrievals.
    const copies: readonly (EnrichFocus | undefined)[] =
        settings.enrich_copies === 'both' ? ['evidence', 'question'] : [undefined];
    const scope = new Scope([slot], [{ slot: 0 }]);
    const question: Compiled = scope.template(questionText);
    const passage: Compiled = scope.template(passageText);
    scope.need(0, answer.name);
    const column = table.column(answer.name)!;
    // Replacements: values of the same column, or (free text) other answers of the same type (typed when drawn).
    const typeOfCode = (code: number) => answerType(format(column.values[code] as TemplateValue));
    // Free text: an answer typed with its own question (the first row that has it), once per answer, with the noun
    // its question asks for ("which city" → city), so a city is swapped for a city before any other place.
    let rowOfCode: Int32Array | undefined;
    type Asked = { type: AnswerType; noun: ReturnType<typeof askedNoun>; question?: string };
    const askedTypes = new Map<number, Asked>();
    const typeInQuestion = (code: number): Asked => {
        let t = askedTypes.get(code);
        if (t === undefined) {
            if (!rowOfCode) {
                rowOfCode = new Int32Array(column.values.length).fill(-1);
                column.codes.forEach((c, r) => {
                    if (c >= 0 && rowOfCode![c] === -1) rowOfCode![c] = r;
                });
            }
            let asked: string | undefined;
            try {
                asked = render(question.parsed, scope.lookup(Int32Array.of(rowOfCode[code]!)));
            } catch {
                asked = undefined;
            }
            t = {
                type: answerType(format(column.values[code] as TemplateValue), asked),
                noun: asked === undefined ? undefined : askedNoun(asked),
                ...(asked === undefined ? {} : { question: asked }),
            };
            askedTypes.set(code, t);
        }
        return t;
    };
    // One column is one type: the commonest among (up to) 25 of its values, typed once.
    let ofColumn: AnswerType | undefined;
    const columnType = (): AnswerType => {
        if (ofColumn === undefined) {
            const counts = new Map<AnswerType, number>();
            const step = Math.max(1, Math.floor(column.values.length / 25));
            for (let c = 0; c < column.values.length; c += step) {
                const t = typeOfCode(c);
                counts.set(t, (counts.get(t) ?? 0) + 1);
            }
            ofColumn = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 'thing';
        }
        return ofColumn;
    };
    /**
     * The answer column is free text when fewer than 80 % of (up to) 25 of its values are of one kind — proper names
     * (person, place, organisation, other names) one kind, phrases another, each form (year, date, count …) its own.
     */
    const freeText = (): boolean => {
        const kind = (t: AnswerType) =>
            ['person', 'place', 'organisation', 'name', 'names'].includes(t) ? 'proper' : t.startsWith('thing') ? 'thing' : t;
        const counts = new Map<string, number>();
        const step = Math.max(1, Math.floor(column.values.length / 25));
        let n = 0;
        for (let c = 0; c < column.values.length; c += step, n++) {
            const k = kind(typeOfCode(c));
            counts.set(k, (counts.get(k) ?? 0) + 1);
        }
        return n > 0 && Math.max(...counts.values()) < 0.8 * n;
    };
    // Free text (the column's values of more than one kind) swaps by type unless the spec says otherwise: one column
    // is one type only where its values are.
    const sameColumn = (settings.swap_with ?? (freeText() ? 'same_type' : 'same_column')) === 'same_column';
    const repeated = keyOccurrences(table, rel.keys[0] ?? []);
    const formsOf = (value: string) => [
        value,
        unquote(value),
        ...keywordForms(spec, data, rel.name, answer.name, value).alternatives.map(a => a.text),
    ];

    const enrichCounts: EnrichStats = {
        valid: 0,
        'no-support': 0,
        'no-related': 0,
        'awaiting-model': 0,
        'select-invalid': 0,
        'summary-invalid': 0,
        'merge-invalid': 0,
    };
    const swapBy = settings.swap_by;
    const stats: SwapStats = {
        valid: 0,
        'awaiting-model': 0,
        'no-occurrence': 0,
        'old-answer-left': 0,
        'new-answer-missing': 0,
        'type-mismatch': 0,
        containment: 0,
        'extra-changes': 0,
        'same-answer': 0,
    };
    const plan: Plan = {
        probe,
        scope,
        system: '',
        constraints: [rel.loc],
        ...(demos ? { demos } : {}),
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
                ctx = plainText(render(passage.parsed, scope.lookup(rows)));
            } catch {
                return 'invalid';
            }
            const gold = format(table.value(row, answer.name) as TemplateValue);
            const forms = formsOf(gold);
            const base = { original: gold, aliases: forms, passage: ctx, asked: q };
            const items: Item[] = [item('seed', q, ctx, gold, base)];
            /** The swapped case of this seed, whoever made the swap (the data or a model). */
            const swapItem = (
                swapped: { passage: string; replacement: string; spans?: [number, number][]; type?: string },
                extra: { swappedBy?: string } = {},
            ) =>
                item('swap', q, swapped.passage, swapped.replacement, {
                    ...base,
                    passage: swapped.passage,
                    spans: swapped.spans,
                    type: swapped.type,
                    ...extra,
                });
            for (const kind of perturb) {
                if (kind === 'closed') items.push(item('closed', q, undefined, gold, { ...base, passage: '' }));
                if (kind === 'swap' && swapBy) {
                    const swapped = modelSwapCase({
                        question: q,
                        passage: ctx,
                        gold,
                        forms,
                        type: answerType(gold, q),
                        model: swapBy,
                        aids,
                    });
                    if (typeof swapped === 'string') stats[swapped]++;
                    else {
                        stats.valid++;
                        items.push(swapItem(swapped, { swappedBy: swapBy }));
                    }
                } else if (kind === 'swap') {
                    const swapped = swapCase(ctx, gold, forms, row, random, q);
                    if (swapped) items.push(swapItem(swapped));
                }
                if (kind === 'enrich') {
                    const candidates = enrichColumn
                        ? splitPassages(plainText(format(table.value(row, enrichColumn.attribute) as TemplateValue)))
                        : otherPassages(rows, random);
                    for (const focus of copies) {
                        const enriched = enrichWith
                            ? modelEnrichCase({
                                  question: q,
                                  passage: ctx,
                                  answer: unquote(gold),
                                  forms,
                                  candidates,
                                  random,
                                  max: 4,
                                  model: enrichWith,
                                  steps,
                                  aids,
                                  ...(focus ? { focus } : {}),
                              })
                            : enrichCase({
                                  question: q,
                                  passage: ctx,
                                  forms,
                                  candidates,
                                  random,
                                  max: 4,
                                  ...(focus ? { focus } : {}),
                              });
                        if (typeof enriched === 'string') enrichCounts[enriched]++;
                        else {
                            enrichCounts.valid++;
                            const by = enrichWith ? { enrichedBy: { model: enrichWith, steps: [...steps] } } : {};
                            items.push(
                                item('enrich', q, enriched.passage, gold, {
                                    ...base,
                                    passage: enriched.passage,
                                    ...(enriched.position === undefined ? {} : { position: enriched.position }),
                                    ...by,
                                    ...(focus ? { enrichedFor: focus } : {}),
                                }),
                            );
                        }
                    }
                }
            }
            // The fact behind the answer (docs/facts.md), with the passage that came with it: none, the data's, or swapped.
            for (const it of items) {
                const e = it.evidence!;
                const passage = e.kind === 'closed' ? 'none' : e.kind === 'swap' ? 'swapped' : 'given';
                const gold = it.gold as { answer: string };
                it.facts = rowFacts(scope, rows, 0, [answer.name], 'asked', {
                    passage,
                    ...(e.kind === 'swap' ? { shown: gold.answer } : {}),
                });
            }
            return items;
        },
        path: rows => starPath(scope, rows, rel.keys[0] ?? [], [answer.name]),
    };
    plan.summary = () => {
        const line = (name: string, counts: Record<string, number>) => {
            const dropped = Object.entries(counts).filter(([k, n]) => k !== 'valid' && n > 0);
            const tried = counts.valid! + dropped.reduce((s, [, n]) => s + n, 0);
            return tried
                ? `${name}: ${counts.valid} of ${tried} cases valid${dropped.length ? `; dropped: ${dropped.map(([k, n]) => `${k} ${n}`).join(', ')}` : ''}`
                : undefined;
        };
        const lines = [line('swap', stats), line('enrich', enrichCounts)].filter(Boolean);
        return lines.length ? lines.join('\n') : undefined;
    };
    return plan;

    function item(
        kind: EvidenceKind,
        q: string,
        context: string | undefined,
        answerText: string,
        e: Omit<NonNullable<Question['evidence']>, 'kind'>,
    ): Item {
        const asked = styledPrompt(style, q, context);
        // A model-enriched or model-swapped case is another question than the data-drawn one (its id says so).
        const focus = kind === 'enrich' && e.enrichedFor ? `\u0000for ${e.enrichedFor}` : '';
        const madeBy =
            (kind === 'enrich' && enrichWith
                ? `\u0000enrich_with ${enrichWith} ${steps.join(' ')}`
                : kind === 'swap' && swapBy
                  ? `\u0000swap_by ${swapBy}`
                  : '') + focus;
        return {
            phrasing: kind,
            template: `${questionText}\u0000${passageText}\u0000${kind}${style === 'paper' ? '' : `\u0000${style}`}${madeBy}`,
            question: asked.user,
            ...(asked.system ? { system: asked.system } : {}),
            gold: { answer: answerText },
            keywords: [],
            explain: '',
            group: { key: 'evidence', relation: 'evidence', role: kind },
            evidence: { kind, ...e },
        };
    }

    /**
     * Few-shot demonstrations from a relation of demonstration items (ReEval's nq_demo: question, answer, evidence),
     * each asked in the probe's prompt style and answered with its answer alone.
     */
    function demonstrations(name: string | undefined): Demo[] | undefined {
        if (!name) return undefined;
        const demo = spec.relations.find(r => r.name === name);
        const t = data.tables.get(name);
        const need = ['question', 'answer', 'evidence'];
        if (!demo || !t || need.some(a => !t.column(a))) {
            problems.push({
                location: probe.loc,
                severity: 'error',
                code: 'probe-setting',
                message: `demos ${name}: needs a relation with attributes ${need.join(', ')} (e.g. ReEval's nq_demo.json).`,
            });
            return undefined;
        }
        return Array.from({ length: t.rowCount }, (_, r) => {
            const get = (a: string) => unquote(format(t.value(r, a) as TemplateValue));
            const asked = styledPrompt(style, get('question'), plainText(get('evidence')));
            return { question: asked.user, gold: { answer: get('answer') }, explain: '', reply: get('answer') };
        });
    }

    /**
     * A validated swap of the answer in the passage, with the answers' type, or undefined (the case is dropped).
     * Free text draws other answers until one of the gold's type (typed with its question) comes up (40 draws, then
     * a scan of up to 2,000 answers; 8 validated at most), preferring one whose question asks for the same noun
     * phrase ("age group"), then for the same noun ("group"; a city for a city); those of the same type asked
     * otherwise are kept aside and tried only if none is. One column is one type.
     */
    function swapCase(ctx: string, gold: string, forms: string[], row: number, random: () => number, asked: string) {
        const truth = column.codes[row]!;
        // An answer the passage does not contain cannot be swapped, whatever the replacement.
        if (answerSpans(ctx, forms).length === 0) {
            stats['no-occurrence']++;
            return undefined;
        }
        const type: AnswerType = sameColumn ? columnType() : answerType(gold, asked);
        const noun = sameColumn ? undefined : askedNoun(asked);
        // A count counts the same thing: goals for goals, not people.
        const unit = !sameColumn && (type === 'count' || type === 'number') ? countUnit(gold, asked) : undefined;
        let last = 'same-answer' as SwapRejection;
        let tries = 0;
        // Candidates of the gold's type asked for the same noun in another phrase.
        const aside: number[] = [];
        const attempt = (code: number) => {
            tries++;
            const replacement = inFormOf(unquote(format(column.values[code] as TemplateValue)), gold, type);
            const swap = swapAnswer(ctx, forms, replacement);
            const rejected = validateSwap(ctx, swap, forms, gold, { old: type, fresh: type });
            if (rejected === undefined) return swap!;
            last = rejected;
            return undefined;
        };
        // 40 random draws, then (free text, a rare type) a scan of up to 2,000 answers from a random start.
        const values = column.values.length;
        const start = pick(random, values);
        const limit = sameColumn ? 40 : 40 + Math.min(values, 2000);
        for (let draws = 0; draws < limit && tries < 8; draws++) {
            const code = draws < 40 ? pick(random, values) : (start + draws - 40) % values;
            if (code === truth) continue;
            const fresh: Asked = sameColumn ? { type, noun } : typeInQuestion(code);
            if (
                fresh.type !== type ||
                (unit !== undefined && countUnit(format(column.values[code] as TemplateValue), fresh.question) !== unit)
            ) {
                last = 'type-mismatch';
                continue;
            }
            if (noun && fresh.noun?.phrase !== noun.phrase) {
                // The fine type is held: another noun phrase of the same noun (a US city for a city), never another noun.
                if (fresh.noun?.head !== noun.head) last = 'type-mismatch';
                else if (aside.length < 8) aside.push(code);
                continue;
            }
            const swap = attempt(code);
            if (swap) {
                stats.valid++;
                return { ...swap, type };
            }
            // An answer the passage does not contain cannot be swapped, whatever the replacement.
            if (last === 'no-occurrence') break;
        }
        for (const code of last === 'no-occurrence' ? [] : aside) {
            if (tries >= 8) break;
            const swap = attempt(code);
            if (swap) {
                stats.valid++;
                return { ...swap, type };
            }
        }
        stats[last]++;
        return undefined;
    }

    /** Other rows' passages (up to 12 of 24 random rows), the candidates of related passages without a text column. */
    function otherPassages(rows: Int32Array, random: () => number): string[] {
        const out: string[] = [];
        const other = new Int32Array(1);
        for (let tries = 0; tries < 24 && out.length < 12; tries++) {
            other[0] = pick(random, table.rowCount);
            if (other[0] === rows[0]) continue;
            try {
                out.push(plainText(render(passage.parsed, scope.lookup(other))));
            } catch {
                /* a row that cannot render is no passage */
            }
        }
        return out;
    }
}

const answerOf = (q: Question) => (typeof q.gold === 'object' ? q.gold.answer : '');

/**
 * A question with its passage and the same question with the passage perturbed (evidence probes): followed when
 * the swapped case is answered with the passage's new value, stale when with the original one.
 */
const evidenceRelation: GroupRelation = {
    name: 'evidence',
    title: 'a question with its passage and with the answer swapped in it: follow the passage, not the memory',
    outcomes: ['followed', 'stale', 'other', 'no-swap'],
    judge(members) {
        const swap = members.find(m => m.q.evidence?.kind === 'swap');
        if (!swap) return { outcome: 'no-swap', ok: null };
        const outcome = swapOutcome(swap.q, answerWords(swap.v));
        return { outcome, ok: outcome === 'followed' ? true : outcome === 'stale' ? false : null };
    },
};

export const evidenceFamily: ProbeFamily = {
    core: {
        kind: 'evidence',
        title: 'short answers with a passage, then with the passage perturbed (answer swapped, support buried) and without it',
        docs: 'probes.md#evidence-probes',
        target: 'relation',
        example: "write 'about <relation>' with question, answer and passage settings",
        members: [],
        readAs: 'short',
        settings: EVIDENCE_SETTINGS.decls,
        compile: evidencePlan,
        phrasings: (probe: ProbeDecl) => {
            const asked = EVIDENCE_SETTINGS.read(probe.settings).perturb;
            return ['seed', ...new Set(asked.length ? asked : ['swap'])];
        },
        pathPerItem: false,
        // The reader's short answer: an abstention ("I am not sure") or a refusal is no answer (M), a hedged one is.
        parse: (response, question) => {
            // The question with its passage: a value it already gives is no value of the answer's own.
            const r = readShort(response, { question: question.question });
            return {
                answer: r.label,
                // The answer's words: the whole response (the paper's check), or from a marked conclusion after reasoning.
                rationaleStart: r.label === 'answer' ? (r.from ?? 0) : r.rationaleStart,
                span: r.span,
                why: r.why,
                stance: r.stance,
            };
        },
        // The response states the gold (the paper's check); when the model reader decides, the words it read as the answer.
        // An abstention or refusal is no answer in any family (issue 41): never correct for naming the gold in passing.
        score: (q, parsed, response) => ({
            correct:
                parsed.answer === 'answer' &&
                states(parsed.text ?? response.slice(parsed.rationaleStart), [
                    answerOf(q),
                    ...(q.evidence?.kind === 'swap' ? [] : (q.evidence?.aliases ?? [])),
                ]),
        }),
        measured: true,
        decidesKnowledge: false,
        groupRelations: [evidenceRelation],
    },
    modelSteps: {
        generationModels: probe => {
            const s = EVIDENCE_SETTINGS.read(probe.settings);
            const swaps = s.perturb.length === 0 || s.perturb.includes('swap');
            return [
                ...(s.enrich_with !== undefined && s.perturb.includes('enrich') ? [s.enrich_with] : []),
                ...(s.swap_by !== undefined && swaps ? [s.swap_by] : []),
            ];
        },
        afterVerification: judgeEntailment,
    },
    figures: { extras: items => evidenceExtras(items) },
    report: { sections: groups => evidenceSections(groups) },
    simulator: {
        rates: [
            {
                name: 'trusts_memory',
                default: 0,
                doc: 'Evidence probes: the share of swapped passages the simulated model answers from memory (the original value).',
            },
        ],
        answerText: (q, gold, rates) => {
            // A model that trusts its memory answers the original value although the passage says otherwise.
            if (q.evidence?.kind === 'swap' && rates && draw(rates.seed, q.id, 'memory') < (rates.trusts_memory ?? 0))
                return q.evidence.original;
            return typeof gold === 'object' ? gold.answer : String(gold);
        },
        // Without the entity in memory: the passage still answers an open-book question; closed book, it guesses.
        guess: q => (q.evidence?.kind === 'closed' ? { answer: 'I am not sure' } : q.gold),
    },
};
