/**
 * A generated question: the contract between generation (probes), running (models, store), verification
 * (verify, report) and the faces. Plain JSON-serialisable data.
 */
import type { ProbeKind, SpecLocation } from '../spec/model.js';

export interface ChatMessage {
    role: 'system' | 'user' | 'assistant';
    content: string;
}

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

/**
 * A fact a question tests (docs/facts.md): a relation's row, named by its key (the relation's first key, which
 * determines every attribute; or the FD's left-hand side when the key is every attribute), one attribute and the
 * value the data holds. `id` hashes `label` (relation, key, attribute; not the value, so an answer giving another value
 * is about the same fact) and is the same in every family, run, machine and store.
 */
export interface FactRef {
    id: string;
    /** `Movie(Avatar, 2009).director`: the entity as the graph panel names it, then the attribute. */
    label: string;
    relation: string;
    key: string[];
    attribute: string;
    /** The data's value, formatted as in questions (a derived fact: 'true'). */
    value: string;
    /**
     * How the question uses it: `asked` (the question rests on the true value), `shown` (it shows `shown` instead: a
     * falsified option, a corrupted statement; right is rejecting it), `hop` (one step of a multi-hop question),
     * `premise` / `conclusion` (a rule's proof and the derived fact), `claim` (a fact an open answer's claims may state).
     */
    role: 'asked' | 'shown' | 'hop' | 'premise' | 'conclusion' | 'claim';
    /** The false value the question shows (role `shown`, a swapped passage). */
    shown?: string;
    /** choice: the option (1-based) that states it. */
    option?: number;
    /** path: the hop (1-based). */
    hop?: number;
    /** What passage came with the question: none (closed book), the data's, or one with this fact swapped. */
    passage?: 'none' | 'given' | 'swapped';
    /** open: the claim edge ("head —relation→ tail") whose claims state it. */
    edge?: string;
    /** A derived fact: the labels of the base facts of its proof. */
    proof?: string[];
}

export interface QuestionGroupRef {
    id: string;
    relation: string;
    role: string;
}

/**
 * What a family's questions carry beyond the shared fields (open: the context; rule: the proof; statement,
 * evidence, knows, path: theirs). Each family declares its keys by augmenting this interface from its own folder
 * (\`declare module '../../probes/question.js' { interface QuestionData { … } }\`), so this room imports no family.
 * A plan's item carries them (\`Item\`), generation copies every one onto the question, the store keeps them in the
 * question's JSON, \`questionRecord\` writes them all, reports and the panel read them through the family.
 */
export interface QuestionData {}

export interface Question extends QuestionData {
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
    /**
     * How its keywords are looked for: absent = ours (whole words of the rationale, folded, contradictions);
     * 'paper' = the ERBench authors' check (lower-case substrings of the whole response; src/core/verify/paper-match.ts).
     */
    keywordMatch?: 'paper';
    /**
     * How its answer is read (`answer_rule` of closed families): absent = where the verdict is (src/core/reader/
     * verdict.ts); 'paper' = the paper's own rule (ERBench: the first word; GraphEval: don't-know first; MC:
     * `Option (\d)` in the first sentence).
     */
    answerRule?: 'paper';
    /**
     * Replay: when no recorded answer has this question's id or words, the recorded knowledge question (one with
     * no gold) at this position among those naming the same entity (every key value) answers it — a model asked
     * in other words whether it knows an entity (knowledge probes). Absent: only id or words match.
     */
    replayByEntity?: number;
    /**
     * Its data is dated (`as of 2019` on the relation or its source): the question asks in that time, and a wrong
     * answer placing its claim later is classed outdated (src/core/verify/outdated.ts).
     */
    asOf?: { text: string; year: number };
    /** The facts it tests (docs/facts.md), in the family's order; absent on questions stored before facts were recorded. */
    facts?: FactRef[];
    /** The entity the question is about (for the knowledge filter): relation and key values. */
    entity: { relation: string; key: string[] };
    source: QuestionSource;
    path: KgPath;
}

/** The JSONL / preview shape: keywords as plain strings per hop. */
export function questionRecord(q: Question): Record<string, unknown> {
    const {
        id,
        probe,
        kind,
        phrasing,
        variant,
        variantId,
        question,
        messages,
        gold,
        keywords,
        options,
        group,
        entity,
        source,
        path,
        ...data
    } = q;
    return {
        id,
        probe,
        kind,
        phrasing,
        variant,
        variantId: variantId ?? variant,
        question,
        messages,
        gold,
        keywords: keywords.map(h => h.map(k => k.value)),
        options,
        group,
        // Every family's own data (QuestionData), whatever its keys: none is dropped.
        ...data,
        entity,
        source,
        path,
    };
}
