/**
 * A probe compiled against the loaded data, as a type: what a family's `compile` returns and generation reads (how
 * to bind a row, what questions a bound row gives, the knowledge-graph path behind them). A leaf: it imports
 * types of other leaves only, so the family contract can name it; the helpers that build plans are in plan.ts.
 */
import type { AttributeDecl, ProbeDecl, RelationDecl, SpecLocation } from '../spec/model.js';
import type { RelationTable } from '../data/types.js';
import type { FactRef, Gold, KgPath, Keyword, QuestionData, RowRef } from './question.js';
import type { Problem } from '../problem.js';

/**
 * What generation asks of a plan's scope (src/core/probes/scope.ts's `Scope` is one): the bound relations, the
 * templates' problems, names resolved to attributes, and the rows a question rests on.
 */
export interface PlanScope {
    /** One relation and its loaded table per bound row (binary / choice / knows: one; path: one per hop). */
    readonly slots: readonly { relation: RelationDecl; table: RelationTable }[];
    /** A template cannot be rendered: the probe gives no questions. */
    readonly failed: boolean;
    /** The templates' problems, each located by `locate(text)` (the member that holds the template text). */
    problems(locate: (text: string) => SpecLocation): Problem[];
    /** The attribute a name in a template means (qualified by a relation or not), or null. */
    resolve(name: string, qualifier?: string): { slot: number; attribute: AttributeDecl } | null;
    /** Marks an attribute as read (rows with a null there give no questions). */
    need(slot: number, attribute: string): unknown;
    /** The source row behind a slot of the bound rows. */
    /** `key`: the slot's key values when the caller has read them already (keyValues), else read here. */
    rowRef(rows: Int32Array, slot: number, key?: string[]): RowRef;
}

/** A demonstration a prompt variant shows (few_shot, cot): another row's question, gold and why. */
export interface Demo {
    question: string;
    gold: Gold;
    explain: string;
    /** The assistant turn verbatim, when the family's demonstrations answer with the answer alone (evidence). */
    reply?: string;
}

export type SkipReason = 'null' | 'violating' | 'dangling' | 'cycle' | 'invalid' | 'underived';

/** One question's content, before a prompt variant turns it into messages; a family's own data (QuestionData) rides along. */
export interface Item extends QuestionData {
    phrasing: string;
    /** The template text that defines the question (part of its stable id). */
    template: string;
    question: string;
    gold: Gold;
    keywords: Keyword[][];
    options?: string[];
    /** The rationale a demonstration of this item gives (few-shot, chain of thought). */
    explain: string;
    /** The facts it tests (Question.facts; probes/facts.ts builds them). */
    facts?: FactRef[];
    /** Values shown as options but false (choice), for the graph. */
    falsified?: { attribute: string; value: string };
    /**
     * The question group of this item among the row's items: items of one row (and prompt variant) with the same
     * `key` form one group judged by `relation` (verify/groups.ts); `role` names the item in it.
     */
    group?: { key: string; relation: string; role: string };
    /** This item's system prompt when it is not the plan's (an evidence closed-book case under `prompt chat`). */
    system?: string;
    /** How its keywords are looked for (Question.keywordMatch). */
    keywordMatch?: 'paper';
    /** Replay may answer it by entity key (Question.replayByEntity). */
    replayByEntity?: number;
    /** When its data was true (Question.asOf; src/core/probes/as-of.ts). */
    asOf?: { text: string; year: number };
}

export interface Plan {
    probe: ProbeDecl;
    scope: PlanScope;
    system: string;
    /** The FD or FKs the questions rest on. */
    constraints: SpecLocation[];
    /** Fills one row index per slot; a reason when the row cannot give questions. */
    bind(row: number, rows: Int32Array): SkipReason | undefined;
    /**
     * The questions of a bound row, in phrasing order; 'invalid' when a condition cannot be evaluated. `only`
     * 'questions': only each item's phrasing, question and keywords are read (the editor's answer-in-question check),
     * so a family may leave out what costs and is not read (facts and their hashed ids, rationales).
     */
    items(rows: Int32Array, only?: 'questions'): Item[] | 'invalid';
    path(rows: Int32Array, item: Item): KgPath;
    /** What the family wants said about the generation once it is done (e.g. evidence cases dropped by validation). */
    summary?(): string | undefined;
    /** Demonstrations of the family's own (evidence `demos RELATION`), used by few_shot(n) instead of other rows'. */
    demos?: Demo[];
}
