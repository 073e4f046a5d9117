/**
 * The core of a probe family: what every family must have (its kind, words, settings, how a probe compiles into
 * questions, how an answer is read and scored). A leaf, types only (`contract-is-a-leaf` in .dependency-cruiser.cjs).
 * What a family may add beyond it is a capability, each in its own module beside this one (report, simulator,
 * model-steps, estimate, graph, figures); `family.ts` puts them together.
 */
import type { LoadedData } from '../../data/types.js';
import type { ProbeDecl, SettingDecl, SpecModel } from '../../spec/model.js';
import type { HopVerdict, ParsedAnswer, ScoredClaim, Verdict } from '../../verify/types.js';
import type { ChatMessage, Question } from '../question.js';
import type { Plan } from '../plan-types.js';
import type { Problem } from '../../problem.js';

/** What follows the kind in `probe NAME <kind> …`: `using <fd>`, `along R.a -> S.b`, `about <relation>`, `using <rule>`. */
export type ProbeTarget = 'fd' | 'path' | 'relation' | 'rule';

/**
 * A setting a family reads (`probe p <kind> … { NAME VALUE }`), declared as every setting is (`SettingDecl`,
 * src/core/spec/model.ts): `check` and the editor validate every value against it (a located error with the closest
 * allowed value), completion offers its name and values, hover shows its doc. A family declares its settings with
 * `declareSettings('probe <kind>', { … })` (src/core/spec/settings.ts), gives the table's `decls` as `settings` and
 * reads a probe's values through the table's typed `read`; any other name is a warning.
 */
export type FamilySetting = SettingDecl;

/** Members a probe body may hold; a family names those it reads, the others are reported as unused. */
export type ProbeMemberKind = 'phrasing' | 'stem' | 'option' | 'ask';

export interface CompileInput {
    spec: SpecModel;
    data: LoadedData;
    probe: ProbeDecl;
    /** Problems found while compiling, anchored in the spec. */
    problems: Problem[];
    /** The suite's seed (falsification draws, demonstrations). */
    seed: number;
    /**
     * Compiled for the editor's diagnostics while the user types: work from estimates and bounded samples, never
     * deriving an unbounded set (the rule family derives at most EDITOR_FACT_LIMIT facts of a rule).
     */
    editor?: boolean;
    /** Model outputs the plan may read while it generates (see `ModelAids`); absent where no store is at hand. */
    aids?: ModelAids;
}

/**
 * Model outputs a plan reads while it generates (evidence `enrich_with`: the enriching steps; open `embeddings`:
 * question-aware prizes). Generation is synchronous and deterministic, so a plan never calls a model: it asks for
 * the output of a request, which comes from the store's cache; when it is not there the request is noted as wanted
 * and the plan does without it (and says so). Before a run generates, the engine (run/aids.ts) asks the models for
 * what the plans want (the family's `modelSteps.generationModels`), caches the answers, and generates again until
 * nothing more is wanted.
 */
export interface ModelAids {
    /** A declared chat model's answer to these messages (JSON mode with `json`), or undefined (wanted). */
    chat(model: string, messages: ChatMessage[], options?: { json?: boolean }): string | undefined;
    /** A declared embeddings model's vectors of these texts, in order, or undefined when any is missing (wanted). */
    embed(model: string, texts: readonly string[]): (readonly number[])[] | undefined;
}

/** How a family reads one response: the answer against the gold, plus what the family adds to the verdict. */
export interface FamilyScore {
    correct: boolean;
    /** Knowledge probes: the model knows the entity. */
    known?: boolean;
    /**
     * Families that score claims (open): each claim read, in the order read, with its status against the data and
     * the data's edge it rests on ("head —relation→ tail"). The model reader compares its claims' with the patterns'.
     */
    claims?: ScoredClaim[];
}

/**
 * What the model reader (`read_with`, src/core/verify/model-read.ts) reads in a family's answers: a label among
 * `readLabels` (yes / no / unsure by default), the option chosen (one, several, none of the above), a short answer's
 * words, or the claims an answer states (subject, relation phrase, object, polarity).
 */
export type ReadAs = 'labels' | 'option' | 'short' | 'claims';

/** Questions judged together (a fact and its twin, a passage and its swaps): see src/core/verify/groups.ts. */
export interface GroupMember {
    q: Question;
    v: Verdict;
}

export interface GroupJudgement {
    /** One of the relation's outcomes. */
    outcome: string;
    /** true: the members relate as they must; false: they do not; null: undecided (a member did not commit). */
    ok: boolean | null;
    detail?: string;
}

export interface GroupRelation {
    readonly name: string;
    /** What the relation demands, in the user's words (reports, hovers). */
    readonly title: string;
    readonly outcomes: readonly string[];
    judge(members: readonly GroupMember[]): GroupJudgement;
}

/** What every family has: its words, settings, plan, and how its answers are read, scored and judged together. */
export interface FamilyCore {
    /** The spec keyword: `probe NAME <kind> …`; also the question's `kind`. */
    readonly kind: string;
    /** One line in the user's words (hover, completion, docs). */
    readonly title: string;
    /** The target clause the family accepts, and an example for the error when it is missing. */
    readonly target: ProbeTarget;
    readonly example: string;
    /** The members it reads. */
    readonly members: readonly ProbeMemberKind[];
    /**
     * Where its user docs are: its section of docs/probes.md (`probes.md#…`), which links to a page of its own when
     * it has more to say. The kinds index in docs/language.md is written from the registry and links here.
     */
    readonly docs?: string;
    /** The settings it reads, with their types and allowed values (validated, completed and documented from here). */
    readonly settings: readonly FamilySetting[];
    /** What the model reader (`read_with`) reads in its answers; labels when absent. */
    readonly readAs?: ReadAs;
    /** The labels the model reader chooses among for this family's answers (`readAs` labels); yes / no / unsure when absent. */
    readonly readLabels?: readonly string[];

    /** Compiles a probe against the data: how rows bind and which questions a bound row gives. */
    compile(input: CompileInput): Plan | undefined;
    /** The phrasing names its questions carry, in order (Test Explorer tree, CodeLens). */
    phrasings(probe: ProbeDecl): string[];
    /** A question's graph depends on the item, not only on the row (choice: which option is false). */
    readonly pathPerItem: boolean;
    /**
     * Its questions must not state their keywords (binary: the fd's right-hand side is what the rationale has
     * to supply); `check`, `preview` and the editor warn at a phrasing whose question does.
     */
    readonly keywordsUnstated?: boolean;

    /** Reads the answer out of a response; the rest is the rationale. */
    parse(response: string, question: Question): ParsedAnswer;
    /** The answer against the gold. */
    score(question: Question, parsed: ParsedAnswer, response: string): FamilyScore;
    /**
     * Its questions are measured (A / R / AR / H, pass / fail). A knowledge probe is not: it records what a
     * model knows and decides the evaluation modes.
     */
    readonly measured: boolean;
    /** Its verdicts decide which entities a model knows (evaluation modes). */
    readonly decidesKnowledge: boolean;
    /**
     * The rationale's hops as the family's own claims read them, instead of keywords found anywhere (rule: each premise
     * as a point states it, denies it or states another value; issue 41). Absent or undefined: the keyword hops stand.
     * `rationale` is whether the rationale passes (a hop it does not need may be missing).
     */
    rationaleHops?(
        question: Question,
        verdict: Verdict,
    ): { hops: HopVerdict[]; rationale: boolean; failedHop?: number } | undefined;
    /**
     * The group relations its plans name (`item.group.relation`): how the answers of a group of its questions
     * must relate. `twins` is shared (src/core/verify/groups.ts); a relation's name is unique across families.
     */
    readonly groupRelations?: readonly GroupRelation[];
}
