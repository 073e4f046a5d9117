/**
 * A generated question: the contract between generation (probes), running (models, store), verification
 * (verify, report) and the faces. Plain JSON-serialisable data.
 */
import type { ProbeKind, SpecLocation } from '../spec/model.js';
import type { OpenQuestion } from '../families/open/types.js';
import type { RuleQuestion } from '../families/rule/types.js';

export interface ChatMessage { role: 'system' | 'user' | 'assistant'; content: string }

/**
 * yes / no for binary, path, knows and statement questions; a 1-based option number or 'none' for choice; the
 * expected short answer for evidence questions.
 */
export type Gold = 'yes' | 'no' | 'none' | number | { answer: string };

/** The gold as every face shows it: "yes", "option 2 (The director is …)", "none of the above", the answer. */
export function goldText(q: Pick<Question, 'gold' | 'options'>): string {
    const g = q.gold;
    if (typeof g === 'number') return `option ${g}${q.options?.[g - 1] ? ` (${q.options[g - 1]})` : ''}`;
    if (typeof g === 'object') return g.answer;
    return g === 'none' ? 'none of the above' : g;
}

/** A value the rationale must mention; `relation.attribute` selects the alias rules and the contradiction domain. */
export interface Keyword {
    relation: string;
    attribute: string;
    /** The value as it appears in the data, formatted as in questions. A list value is one keyword per item. */
    value: string;
}

/** A row a question was built from: where it is in the data. */
export interface RowRef {
    relation: string;
    /** Key attribute values, formatted. */
    key: string[];
    file: string;
    /** 1-based line of the row in its source file (the first line of a multi-line CSV record). */
    line: number;
}

export type { KgNode, KgEdge, KgPath } from '../kg/path.js';
import type { KgPath } from '../kg/path.js';

export interface QuestionSource {
    spec: string;
    /** The probe's declaration. */
    probe: SpecLocation;
    /** The FD (binary, choice) or the FKs (path) the question uses. */
    constraints: SpecLocation[];
    rows: RowRef[];
}

export interface QuestionGroupRef { id: string; relation: string; role: string }

export interface Question {
    /** Stable: a hash of what defines the question (probe, template text, row key, variant), not of positions. */
    id: string;
    probe: string;
    kind: ProbeKind;
    /** basic, negated, a user phrasing's name, or stem-N for choice questions. */
    phrasing: string;
    /** zero_shot, few_shot, cot, augment. */
    variant: string;
    /** The variant as written, with its parameters (`few_shot(2)`, `augment from Movie.plot`); tells groups apart. */
    variantId?: string;
    /** The question text as asked (without demonstrations or system prompt). */
    question: string;
    /** Exactly what is sent to the model. */
    messages: ChatMessage[];
    gold: Gold;
    /** One list of keywords per hop (single-hop questions have one hop). */
    keywords: Keyword[][];
    /** choice: the option texts in order. */
    options?: string[];
    /** The question group it is judged in with others (verify/groups.ts): group id, relation, its role. */
    group?: QuestionGroupRef;
    /** open questions: the retrieval, the context sent (perturbed or not) and the facts its claims are checked against. */
    open?: OpenQuestion;
    /**
     * statement questions: the attribute stated and, for a negative, how it was made ('tail', 'head' or 'relation')
     * with the true value (`from`) and what the statement claims instead (`to`); 'true' for the true statement.
     */
    statement?: { attribute: string; corruption: 'true' | 'tail' | 'head' | 'relation'; from: string; to: string };
    /**
     * evidence questions: which case it is, the passage given ('' closed book), the original answer and its
     * aliases, and for a swap the spans of the passage where the new answer was written.
     */
    evidence?: { kind: 'seed' | 'swap' | 'enrich' | 'closed'; passage: string; original: string; aliases: string[]; spans?: [number, number][] };
    /** path questions: how AR-ext is counted (`complete`: only over questions whose path has every hop); absent = per hop. */
    pathScoring?: { arExt: 'complete' };
    /** knows questions: how "known" is read from the answer (probes/knows.ts KNOWN_RULES); absent = only_yes. */
    knownIf?: 'only_yes' | 'no_word_no';
    /** rule questions: the derived fact, its proof, the premises the rationale should state, its role in the group. */
    rule?: RuleQuestion;
    /** The entity the question is about (for the knowledge filter): relation and key values. */
    entity: { relation: string; key: string[] };
    source: QuestionSource;
    path: KgPath;
}

/** The JSONL / preview shape: keywords as plain strings per hop. */
export function questionRecord(q: Question): Record<string, unknown> {
    return {
        id: q.id, probe: q.probe, kind: q.kind, phrasing: q.phrasing, variant: q.variant, variantId: q.variantId ?? q.variant, question: q.question,
        messages: q.messages, gold: q.gold, keywords: q.keywords.map(h => h.map(k => k.value)),
        options: q.options, group: q.group, open: q.open, statement: q.statement, evidence: q.evidence, rule: q.rule, entity: q.entity, source: q.source, path: q.path,
    };
}
