/**
 * The model-steps capability of a probe family (optional): the models its generation reads, the calls its steps
 * make per answer (priced before a run), and the steps that ask models after verification. A leaf, types only.
 */
import type { ProbeDecl, SpecModel } from '../../spec/model.js';
import type { GroupVerdict, Verdict } from '../../verify/types.js';
import type { ChatMessage, Question } from '../question.js';
import type { AnswerRecord, CacheEntry, RunResults } from '../../store/types.js';
import type { ModelClient, ResolvedModel } from '../../models/types.js';
import type { Problem } from '../../problem.js';

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

/**
 * A run after verification, as a family's model steps see it (rule: `extract_with` claim extraction, `embeddings`
 * overlaps). Run by `runSpec` after verifying and by `loadReport` (so `run --no-verify` then `report` does them too).
 */
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

export interface ModelStepsCapability {
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
    /**
     * Steps that ask models after verification (rule: claim extraction, embeddings); returns its problems (code
     * `model-step`, warnings: the step falls back). Idempotent: answers already worked on come from the store's cache.
     */
    afterVerification?(run: ModelStepRun): Promise<Problem[]>;
}
