/**
 * The records the results store keeps and hands back: runs, answers, failures, counts. No SQL here.
 */
import type { Question } from '../probes/question.js';
import type { Verdict } from '../verify/types.js';
import type { GroupVerdict } from '../verify/types.js';

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

export interface StoredAnswer { questionId: string; model: string; sample: number; text: string }

export interface RunResults { run: RunRecord; questions: Question[]; answers: StoredAnswer[]; verdicts: Verdict[]; groupVerdicts: GroupVerdict[] }

export interface CacheEntry { text: string; tokensIn: number; tokensOut: number; finishReason: string; latencyMs: number | null }

/** Identifies one answer slot of a run. */
export interface Slot { run: string; question: string; model: string; sample: number }

export interface AnswerRecord extends Slot {
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

export interface FailureRecord extends Slot { hash: string; params: Record<string, unknown>; attempts: number; error: string; latencyMs: number }

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
