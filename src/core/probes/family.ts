/**
 * A probe family: everything one kind of probe means (binary, choice, path, knows; later statement, rule,
 * evidence, open), behind one interface. Generation, verification, metrics, reports, the offline simulator and
 * every face ask the family of a question what to do; nothing outside the family modules switches on a kind.
 *
 * To add a family: write one module that exports a `ProbeFamily`, add it to `BUILTIN_FAMILIES` in
 * `families.ts` (the compiler then checks every hook), document it in its section of docs/probes.md (its `docs` field names it). See docs/architecture.md.
 *
 * A leaf, types only: it imports nothing but the types of other leaf modules (plan-types, estimate-types, question, spec/model,
 * data/types, verify/types, verify/figures, store/types, models/types, problem, protocol/webview), so it loads no
 * code and no engine room can reach a family through it (`contract-is-a-leaf` in .dependency-cruiser.cjs).
 */
import type { LoadedData } from '../data/types.js';
import type { ProbeDecl, SettingDecl, SpecModel } from '../spec/model.js';
import type { GroupMetrics } from '../verify/figures.js';
import type { GroupVerdict, HopVerdict, ParsedAnswer, Verdict } from '../verify/types.js';
import type { ChatMessage, Gold, Question } from './question.js';
import type { Plan } from './plan-types.js';
import type { EstimateModel, EstimateRequest, EstimateRun, FigureEstimate } from './estimate-types.js';
import type { QuestionGraph } from '../../protocol/webview.js';
import type { AnswerRecord, CacheEntry, RunResults } from '../store/types.js';
import type { ModelClient, ResolvedModel } from '../models/types.js';
import type { Problem } from '../problem.js';

/** What follows the kind in `probe NAME <kind> …`: `using <fd>`, `along R.a -> S.b`, `about <relation>`, `using <rule>`. */
export type ProbeTarget = 'fd' | 'path' | 'relation' | 'rule';

export type { SettingType } from '../spec/model.js';

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
 * what the plans want, caches the answers, and generates again until nothing more is wanted.
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

/** A claim as a family scored it: its status against the data, the edge it rests on, and (patterns) where it was read. */
export interface ScoredClaim {
    status: 'supported' | 'contradicted' | 'unverifiable';
    edge?: string;
    /** The claim's words and [start, end) in the response (absent for a claim a model stated in its own words). */
    text?: string;
    span?: [number, number];
    /** It denies what it states (a negated claim: "supported" then means the data agrees it is wrong). */
    negated?: boolean;
    /** Open answers: grounded, followed-corrupted, invented or unverifiable. */
    cause?: string;
}

/**
 * What the model reader (\`read_with\`, src/core/verify/model-read.ts) reads in a family's answers: a label among
 * \`readLabels\` (yes / no / unsure by default), the option chosen (one, several, none of the above), a short answer's
 * words, or the claims an answer states (subject, relation phrase, object, polarity).
 */
export type ReadAs = 'labels' | 'option' | 'short' | 'claims';

/** A line chart of a report section: one line per series, points with their intervals (the HTML report draws them). */
export interface ReportCurve {
    title: string;
    x: string;
    y: string;
    series: { name: string; points: { x: number; y: number; ci: [number, number] | null }[] }[];
}

/** A table a family adds to the reports (rendered by every format the same way), with optional curves. */
export interface ReportSection {
    title: string;
    columns: string[];
    rows: string[][];
    curves?: ReportCurve[];
}

/** One bar chart of the HTML report: a bar group per label (the label's lines under it), each bar with its interval. */
export interface BarChart {
    title: string;
    groups: { lines: string[]; bars: { name: string; value: number | null; ci: [number, number] | null }[] }[];
}

/** Bar charts a family adds to the HTML report under one heading, with the legend of its bars (path: per hop). */
export interface ChartSet {
    title: string;
    legend: string[];
    charts: BarChart[];
}

/** One column block of the ERBench paper's tables (BN(Y), BN(N), MC) with its cells, already written as figures. */
export interface PaperColumn {
    column: string;
    cells: { label: string; text: string }[];
}

/**
 * A rate of the offline simulator that a family reads (a setting of an `offline` model block, a share in [0, 1]):
 * open's `follows`, rule's `wrong_premises` … The model block's check and completion, and the simulator's
 * defaults, read it from here.
 */
export interface SimulatorRate {
    /** The model block's setting name, e.g. `wrong_premises`; also the key in `SimulatorRates`. */
    readonly name: string;
    /** Its value when the model block does not set it. */
    readonly default: number;
    /** One line in the user's words: what the simulated model does more of as it grows. */
    readonly doc: string;
}

/**
 * The simulated model's seed and every rate of the offline simulator by its setting name: the shared ones and each
 * registered family's own (`ProbeFamily.simulatorRates`, at their defaults unless the model block sets them). A
 * hook reads its own with its default as the fallback (`rates.doubts ?? 0`): rates made by hand may leave it out.
 */
export interface SimulatorRates {
    readonly seed: number;
    readonly [rate: string]: number | undefined;
}

/** A draw in [0, 1) keyed by the simulated model's seed and the given parts only (e.g. one per derived fact). */
export type KeyedDraw = (...parts: (string | number)[]) => number;

/** A random draw in [0, 1) named by what it decides; the offline simulator's source of randomness. */
export type Draw = (what: string) => number;

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

/**
 * A run after verification, as a family's model steps see it (rule: `extract_with` claim extraction, `embeddings`
 * overlaps). Run by `runSpec` after verifying and by `loadReport` (so `run --no-verify` then `report` does them too).
 */
/** What a family's model steps use of the results store (the engine's `Store` is one). */
export interface ModelStepStore {
    loadRunResults(runId: string): Promise<Pick<RunResults, 'questions' | 'verdicts' | 'answers'> | undefined>;
    /** A cached answer by request hash. */
    cached(hash: string): Promise<CacheEntry | undefined>;
    /** Records a call made for the run beside its questions' answers (and caches `entries` by hash). */
    recordSideCall(call: Omit<AnswerRecord, 'cacheable'>, entries?: { hash: string; text: string }[]): Promise<void>;
    saveVerdicts(runId: string, verdicts: Verdict[]): Promise<void>;
    /** Replaces the run's question-group verdicts (judged again when a model's reading decides its members). */
    saveGroupVerdicts(runId: string, verdicts: readonly GroupVerdict[]): Promise<void>;
}

export interface ModelStepRun {
    store: ModelStepStore;
    runId: string;
    spec: SpecModel;
    /** The key for a model, only where it is bound (the engine's resolveKey with the face's confirmation). */
    keyFor(model: ResolvedModel): Promise<{ ok: true; key: string } | { ok: false; message: string }>;
    /** A chat client for a resolved model (the engine's createClient: offline simulator, replay or OpenAI-compatible). */
    client(model: ResolvedModel, key: string): ModelClient;
    signal?: AbortSignal;
}

/** One figure of a family's groups as a column: CSV, JUnit properties and the md / html "figures" table show it. */
export interface FigureColumn {
    /** Column name (CSV header, JUnit property, table column): short, no spaces, e.g. `echo_rate`. */
    readonly name: string;
    /** Its value for a group (usually read from the group's figure slot); null when it does not apply. */
    value(group: GroupMetrics): number | string | null; /**
     * The part of the figure slot it shows, as a dotted path (`statements.T`, or `statements.byRelation` for all under
     * it): CSV and JUnit, which also carry every slot figure by path, then leave those out instead of repeating them.
     */
    readonly slot?: string;
}

/** A family figure measured on each question (`compare` pairs it): its name, its direction, one verdict's outcome. */
export interface QuestionFigure {
    /** Short, no spaces (a matrix title, a JSON and CSV value): e.g. `factscore`. */
    readonly name: string;
    readonly higherIsBetter: boolean;
    /** Its outcome is a 0/1 per question (a proportion: Tango and McNemar may apply); absent: a score, always bootstrapped. */
    readonly proportion?: boolean;
    /** The verdict's outcome (0/1 or a score in [0, 1]); null where the question has none. */
    outcome(question: Question, verdict: Verdict): number | null;
}

export interface ProbeFamily {
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
    /** What the model reader (\`read_with\`) reads in its answers; labels when absent. */
    readonly readAs?: ReadAs;
    /** The labels the model reader chooses among for this family's answers (\`readAs\` labels); yes / no / unsure when absent. */
    readonly readLabels?: readonly string[];

    /** Compiles a probe against the data: how rows bind and which questions a bound row gives. */
    compile(input: CompileInput): Plan | undefined;
    /**
     * The models a probe's generation reads through `ModelAids` (evidence: `enrich_with`; open: `embeddings`); a
     * run fetches their outputs before it generates. None (or no hook): generation asks no model.
     */
    generationModels?(probe: ProbeDecl): string[];
    /**
     * The calls its model steps will make for each answer of a probe's questions (open: `judge_with`, one per G-Eval
     * criterion), each as the model named and the messages sent; the cost gate counts and prices them before the run
     * with a stand-in answer of the expected length. Undefined (or no hook): the probe's steps ask nothing per answer.
     */
    answerSteps?(
        probe: ProbeDecl,
    ): ((question: Question, answer: string) => { model: string; messages: ChatMessage[] }[]) | undefined;
    /** The phrasing names its questions carry, in order (Test Explorer tree, CodeLens). */
    phrasings(probe: ProbeDecl): string[];
    /** A question's graph depends on the item, not only on the row (choice: which option is false). */
    readonly pathPerItem: boolean;

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
    /** Figures beyond A / R / AR / M / H for a group of its verdicts (path: R-ext per hop; choice: error rates). */
    metricExtras(items: readonly { v: Verdict; q: Question }[]): Partial<GroupMetrics>;
    /**
     * Its questions must not state their keywords (binary: the fd's right-hand side is what the rationale has
     * to supply); `check`, `preview` and the editor warn at a phrasing whose question does.
     */
    readonly keywordsUnstated?: boolean;
    /** Its phrasings are alternatives of one question (choice stems): metrics add their mean. */
    readonly meanOverPhrasings: boolean;
    /**
     * The group relations its plans name (`item.group.relation`): how the answers of a group of its questions
     * must relate. `twins` is shared (src/core/verify/groups.ts); a relation's name is unique across families.
     */
    readonly groupRelations?: readonly GroupRelation[];
    /**
     * The graph panel's question view, refined with what its questions carry (open: the answer's claims; rule:
     * the proof with each premise's status). Gets the generic view (path, hops, rationale spans), returns it.
     */
    questionGraph?(
        graph: QuestionGraph,
        question: Question,
        verdict: Verdict | undefined,
        response: string | undefined,
    ): QuestionGraph;
    /**
     * The rationale's hops as the family's own claims read them, instead of keywords found anywhere (rule: each premise
     * as a point states it, denies it or states another value; issue 41). Absent or undefined: the keyword hops stand.
     * \`rationale\` is whether the rationale passes (a hop it does not need may be missing).
     */
    rationaleHops?(
        question: Question,
        verdict: Verdict,
    ): { hops: HopVerdict[]; rationale: boolean; failedHop?: number } | undefined;
    /**
     * Why a verdict of this family failed, in its own terms (open: which claim the data contradicts and by which
     * edge; none supported), from the reader's spans; every face shows these lines. Absent or empty: the generic
     * "answer X, expected Y" and the failed hops say it.
     */
    explainFailure?(question: Question, verdict: Verdict, response: string): string[];
    /**
     * Steps that ask models after verification (rule: claim extraction, embeddings); returns problems in words
     * (warnings: the step falls back). Idempotent: answers already worked on come from the store's cache.
     */
    modelSteps?(run: ModelStepRun): Promise<string[]>;
    /**
     * Its figures as named columns: every report format shows them without knowing them (CSV columns, JUnit
     * properties per suite, a figures table in md / html, and JSON through the group's figure slot).
     */
    readonly figureColumns?: readonly FigureColumn[];
    /**
     * Its figures that have an outcome per question (a 0/1 or a score), so `compare` pairs them question by question
     * beside A / H / R / AR (a 0/1 outcome per single question gets Tango's interval and McNemar's test; a score
     * the cluster bootstrap). Absent: its group figures are only shown, not paired.
     */
    readonly questionFigures?: readonly QuestionFigure[];
    /** Tables it adds to the reports, from its metric groups. */
    reportSections(groups: readonly GroupMetrics[]): ReportSection[];
    /**
     * Its figures that are fields of the group (added to `GroupMetrics` from its folder, not in the figure slot:
     * path's `rExt` and `hops`, choice's `multiple` and `binding`) as fields of the group's JSON, rounded as
     * the JSON report rounds (`round4`, `roundCi` in report/numbers.ts). The figure slot needs nothing here.
     */
    groupJson?(group: GroupMetrics): Record<string, unknown>;
    /** Bar charts it adds to the HTML report after the metrics (path: R and AR-ext per hop). */
    charts?(groups: readonly GroupMetrics[]): ChartSet | undefined;
    /**
     * `halluprobe estimate` over one of its probes, optional (statement: T / I / C of an expensive model from a
     * sample): given the cheap model's run of the probe and a way to ask the expensive model chosen questions (each
     * ask a run of the engine), the estimate. The run room's `estimateProbe` runs the models and calls it.
     */
    estimate?(
        request: EstimateRequest,
        cheap: EstimateRun,
        askExpensive: (questionIds: string[]) => Promise<EstimateRun>,
        expensive: EstimateModel,
    ): Promise<FigureEstimate>;
    /**
     * Its blocks of the ERBench paper's table (`report --format erbench`), from the groups of one model, probe,
     * variant and mode; families the paper has no column for leave it out.
     */
    paperColumns?(groups: readonly GroupMetrics[]): PaperColumn[];

    /**
     * Offline simulator, optional: the rates its answers read (open: how much of the context the simulated model
     * follows, how much it invents; rule: wrong premises, wrong inferences, flipped twins), each a setting of an
     * `offline` model block.
     */
    readonly simulatorRates?: readonly SimulatorRate[];
    /**
     * Offline simulator: how an answer with this gold begins. `simulator` carries the simulated model's
     * rates (its seed and `simulatorRates` by name) for families whose answers depend on them.
     */
    answerText(question: Question, gold: Gold, simulator?: SimulatorRates): string;
    /** Offline simulator: the gold a guessing model picks. */
    guess(question: Question, draw: Draw): Gold;
    /**
     * Offline simulator, optional: the whole answer of a model that knows the entity, for families whose answers
     * carry their own reasoning (rule: numbered knowledge points, with wrong premises and inferences at set shares).
     * Without it the simulator words the answer (`answerText`) and states the keywords.
     */
    simulate?(
        question: Question,
        rates: SimulatorRates,
        draw: KeyedDraw,
        domain?: (relation: string, attribute: string) => readonly string[],
    ): string;
}
