/**
 * The records the results store keeps and hands back (runs, answers, failures, counts) and the store itself as
 * every caller sees it: one promise-returning interface, the same over a SQLite file and a PostgreSQL server.
 * No SQL here.
 */
import type { FactRef, Question } from '../probes/question.js';
import type { Verdict } from '../verify/types.js';
import type { GroupVerdict } from '../verify/types.js';
import type { Override } from '../verify/types.js';

export type RunStatus = 'running' | 'completed' | 'cancelled' | 'failed';

/** A model as a run records it (never a key). */
export interface RunModelRecord {
    name: string;
    provider: string;
    id?: string;
    endpoint?: string;
    /** The client's display name ("gpt-4o-mini", "simulator (offline simulator)"). */
    display?: string;
    params?: Record<string, unknown>;
    samples?: number;
}

/** What a run records about how it was asked for (never a key). */
export interface RunSettings {
    limit?: number;
    seed?: number;
    probe?: string;
    /** Who started it: 'cli', 'vscode', … */
    from?: string;
    models?: RunModelRecord[];
    /** Answer slots in the run: questions × models × samples (set once every question is stored). */
    slots?: number;
    /** A selection (Test Explorer, estimation rounds): only these questions. */
    questionIds?: string[];
    /** Its questions are still being generated and stored: a resume generates them again (the stored ones are kept). */
    generating?: boolean;
    [other: string]: unknown;
}

export interface RunRecord {
    id: string;
    spec: string;
    suite: string;
    started: string;
    finished: string | null;
    status: RunStatus;
    settings: RunSettings;
}

export interface StoredAnswer {
    questionId: string;
    model: string;
    sample: number;
    text: string;
}

export interface RunResults {
    run: RunRecord;
    questions: Question[];
    answers: StoredAnswer[];
    verdicts: Verdict[];
    groupVerdicts: GroupVerdict[];
}

export interface CacheEntry {
    text: string;
    tokensIn: number;
    tokensOut: number;
    finishReason: string;
    latencyMs: number | null;
}

/** Identifies one answer slot of a run. */
interface AnswerSlot {
    run: string;
    question: string;
    model: string;
    sample: number;
}

export interface AnswerRecord extends AnswerSlot {
    hash: string;
    params: Record<string, unknown>;
    text: string;
    tokensIn: number;
    tokensOut: number;
    latencyMs: number;
    cost: number;
    attempts: number;
    finishReason: string;
    /** Answered from the cache: no call was made. */
    cached: boolean;
    /** Put the answer in the cache (network models only). */
    cacheable: boolean;
}

export interface FailureRecord extends AnswerSlot {
    hash: string;
    params: Record<string, unknown>;
    attempts: number;
    error: string;
    latencyMs: number;
}

export interface RunCounts {
    questions: number;
    slots: number;
    answered: number;
    cached: number;
    failed: number;
    tokensIn: number;
    tokensOut: number;
    cost: number;
    calls: number;
}

export const slotKey = (question: string, model: string, sample: number) => `${question}\u0000${model}\u0000${sample}`;

/** The last error of an unanswered slot. */
export interface FailureSummary {
    question: string;
    model: string;
    sample: number;
    error: string;
    attempts: number;
}

/** A claimed range of a run's questions (by `seq`), held by one worker until its lease lapses. */
/** A claimed chunk; `fence`: the claim's fencing token (chunks.ts). */
export interface WorkChunk {
    chunk: number;
    first: number;
    last: number;
    takenOver: boolean;
    fence: string;
}

/** Where a shared run's chunks stand. */
export interface ChunkState {
    total: number;
    done: number;
    held: number;
    free: number;
}

/**
 * The results store. Every method returns a promise (a server answers over the network); each answer is committed
 * before its promise resolves, so a killed run loses nothing it received. Keys never reach the store.
 */
export interface Store {
    /** Where it is, as shown to the user: a file path, or a server URL (never with a password). */
    readonly location: string;
    readonly engine: 'sqlite' | 'postgres';
    readonly schemaVersion: number;
    /** The provider batches of batch runs. */
    readonly batches: BatchStore;
    /** The chunks of shared runs (several workers on one run). */
    readonly chunks: ChunkStore;
    /** Releases this store's run leases and chunks, then closes it. */
    close(): Promise<void>;

    /** Takes the one-writer lease of a run; the live holder when another process writes it. */
    acquireLease(runId: string): Promise<LeaseHolder | undefined>;
    releaseLease(runId: string): Promise<void>;
    /**
     * Runs `fn` with a store whose every step is one exclusive transaction (across processes and machines):
     * choosing or creating a run and taking its lease happen at once. `fn` awaits only the store it is given.
     */
    exclusive<T>(fn: (store: Store) => Promise<T>): Promise<T>;

    createRun(spec: string, suite: string, settings: RunSettings): Promise<RunRecord>;
    getRun(id: string): Promise<RunRecord | undefined>;
    setStatus(id: string, status: RunStatus): Promise<void>;
    updateSettings(id: string, settings: RunSettings): Promise<void>;
    /** Every run, newest first. */
    listRuns(): Promise<RunRecord[]>;
    latestRun(spec?: string, suite?: string): Promise<RunRecord | undefined>;
    /** The latest run of this spec and suite that did not complete: what `halluprobe run` continues. */
    resumableRun(spec: string, suite: string): Promise<RunRecord | undefined>;

    /** Adds the run's questions (already stored ones are kept), in one transaction; how many were new. */
    saveQuestions(runId: string, questions: Iterable<Question>): Promise<number>;
    /** Stores a batch of questions numbered from `seq` on, in one transaction; which were new (a stored id keeps its version). */
    addQuestions(runId: string, questions: readonly Question[], seq: number): Promise<boolean[]>;
    questionCount(runId: string): Promise<number>;
    storedQuestion(runId: string, id: string): Promise<Question | undefined>;
    /** The run's questions page by page in the order they were stored (one page held at a time). */
    questionPages(runId: string, size?: number): AsyncGenerator<Question[]>;
    questions(runId: string): Promise<Question[]>;
    /** The facts the run's questions test (docs/facts.md), question by question; of the named fact ids only, when given. */
    questionFacts(runId: string, factIds?: readonly string[]): Promise<{ question: string; fact: FactRef }[]>;

    cached(hash: string): Promise<CacheEntry | undefined>;
    /** The cache entries of many request hashes at once (those the cache has). */
    cachedMany(hashes: readonly string[]): Promise<Map<string, CacheEntry>>;
    /**
     * Caches answers asked before their run exists (the models a probe's generation reads: run/aids.ts); their calls
     * are recorded with the run once it is made (`recordSideCall`, which leaves these entries as they are).
     */
    cacheAnswers(entries: readonly ({ hash: string } & CacheEntry)[]): Promise<void>;
    /**
     * A synchronous read of the cache where the engine has one (a SQLite file): what synchronous question generation
     * reads. Undefined on a server: read ahead with `cachedMany` instead.
     */
    cacheReader(): ((hash: string) => CacheEntry | undefined) | undefined;
    /** The (question, model) pairs of a run answered from the cache, as "question\0model". */
    cachedAnswers(runId: string): Promise<Set<string>>;
    /** Commits one answer: the call, the cache entry and the response, atomically. */
    recordAnswer(a: AnswerRecord): Promise<void>;
    /** Commits many answers in one transaction: only answers durable elsewhere already (cache hits). */
    recordAnswers(answers: AnswerRecord[]): Promise<void>;
    /** Commits a call made on the way to a verdict (claim extraction, embeddings): the call and its cache entries, no response. */
    recordSideCall(a: Omit<AnswerRecord, 'cacheable'>, entries?: { hash: string; text: string }[]): Promise<void>;
    recordFailure(f: FailureRecord): Promise<void>;
    /** The answer slots of a run that have a response (`slotKey`). */
    answered(runId: string): Promise<Set<string>>;
    /** Average output tokens of the model's answered calls, for estimates; undefined when there are none. */
    averageOutputTokens(model: string): Promise<number | undefined>;
    counts(runId: string): Promise<RunCounts>;
    /** The last error of each unanswered slot of a run. */
    failures(runId: string): Promise<FailureSummary[]>;

    saveVerdicts(runId: string, verdicts: Verdict[]): Promise<void>;
    loadRunResults(runId: string): Promise<RunResults | undefined>;
    /** Replaces the run's group verdicts (they are derived from all its verdicts at once). */
    saveGroupVerdicts(runId: string, verdicts: readonly GroupVerdict[]): Promise<void>;
    groupVerdicts(runId: string): Promise<GroupVerdict[]>;
    /** Records (or replaces) a user's override of one verdict; `at` defaults to now. */
    recordOverride(o: Omit<Override, 'at'> & { at?: string }): Promise<Override>;
    overrides(runId: string): Promise<Override[]>;
    /** Records (or replaces) one reviewer's label of one answer; `at` defaults to now. */
    recordLabel(l: Omit<ReviewLabel, 'at'> & { at?: string }): Promise<ReviewLabel>;
    /** Removes one reviewer's label of one answer (undo); whether there was one. */
    removeLabel(run: string, questionId: string, model: string, sample: number, reviewer: string): Promise<boolean>;
    /** Every review label of a run, every reviewer's, oldest first. */
    labels(runId: string): Promise<ReviewLabel[]>;
}

export type ReviewLabelValue = 'pass' | 'fail' | 'unsure' | 'unreadable';

/**
 * A person's label of one answer (src/core/review): `pass` the answer is right, `fail` it states a wrong answer,
 * `unreadable` no answer can be read from it (it declines, does not know, or is garbled: counted in M), `unsure` the
 * reviewer cannot tell (left out of every figure). `rationale` whether the rationale names what the data says it must
 * (questions with keywords); `claims` each open-answer claim's status. `read` is what the reader had read when the
 * label was made: its answer class, whether that was correct, the words and span it read, why, and which reader.
 */
export interface ReviewLabel {
    run: string;
    questionId: string;
    model: string;
    sample: number;
    reviewer: string;
    at: string;
    label: ReviewLabelValue;
    rationale?: boolean;
    claims?: { index: number; status: 'supported' | 'contradicted' | 'unverifiable' }[];
    read?: { answer: string; correct: boolean; text?: string; span?: [number, number]; why?: string; by: string };
}

/** Who holds a run's one-writer lease. */
export interface LeaseHolder {
    run: string;
    pid: number;
    host: string;
    started: string;
    heartbeat: number;
}

export interface BatchRecord {
    /** Our id, sent with the batch as metadata. */
    local: string;
    run: string;
    model: string;
    /** The provider's batch id, once created. */
    id: string | null;
    /** The endpoint it was submitted to (the model's then): it is polled there only (null: stored before this was kept). */
    endpoint: string | null;
    inputFile: string;
    status: string;
    outputFile: string | null;
    errorFile: string | null;
    requests: number;
    done: number;
    failed: number;
    created: string;
    updated: string;
    collected: boolean;
}

export interface BatchSlot {
    customId: string;
    question: string;
    sample: number;
    hash: string;
    attempt: number;
}

/** The provider batches of batch runs: stored before they are created at the provider, found again on resume. */
export interface BatchStore {
    addBatch(
        b: { local: string; run: string; model: string; inputFile: string; endpoint: string },
        slots: readonly BatchSlot[],
    ): Promise<void>;
    updateBatch(
        local: string,
        u: { id?: string; status: string; outputFile?: string | null; errorFile?: string | null; done?: number; failed?: number },
    ): Promise<void>;
    markCollected(local: string): Promise<void>;
    /** Every batch of a run (of one model), oldest first. */
    batches(run: string, model?: string): Promise<BatchRecord[]>;
    batchSlots(local: string): Promise<BatchSlot[]>;
    /** Per slot of the run and model (`slotKey`): how many times it was sent in a batch, and whether one is still open. */
    batchAttempts(run: string, model: string): Promise<Map<string, { attempts: number; open: boolean }>>;
}

/** A shared run's chunks, as the workers see them (chunks.ts). */
export interface ChunkStore {
    /** This process as a worker. */
    readonly worker: { token: string; pid: number; host: string };
    addChunks(runId: string, questions: number, size?: number): Promise<number>;
    claim(runId: string, leaseMs: number): Promise<WorkChunk | undefined>;
    renew(runId: string, leaseMs: number, fences: readonly string[]): Promise<Set<string>>;
    send(runId: string, chunk: number, fence: string, leaseMs: number): Promise<boolean>;
    finish(runId: string, chunk: number, fence: string): Promise<boolean>;
    drop(runId: string, chunk: number, fence: string): Promise<void>;
    release(runId: string): Promise<void>;
    reopen(runId: string): Promise<void>;
    state(runId: string): Promise<ChunkState>;
    questions(runId: string, first: number, last: number): Promise<Question[]>;
    answered(runId: string, first: number, last: number): Promise<Set<string>>;
    complete(runId: string): Promise<boolean>;
}
