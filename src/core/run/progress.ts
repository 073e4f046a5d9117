/**
 * What a run reports while it goes: the progress counts and one event per answer.
 */
import type { Question } from '../probes/question.js';
import type { PacingStats } from './pacing.js';

/** One batch of a batch run (src/core/run/batch.ts), as progress shows it. */
interface BatchProgress {
    model: string;
    id: string;
    status: string;
    requests: number;
    done: number;
    failed: number;
}

export interface Progress {
    /** Slots in the run: questions × models × samples (so far, while `generating`). */
    total: number;
    /** The questions are still being generated: `total` grows until this is false. */
    generating: boolean;
    /** Questions generated (or read back) so far. */
    questions: number;
    /** Answered (including before a resume) + failed. */
    done: number;
    answered: number;
    cached: number;
    failed: number;
    /** Slots answered before this execution (resume). */
    resumed: number;
    tokensIn: number;
    tokensOut: number;
    /** USD spent by this execution. */
    cost: number;
    /** Answers per second in this execution. */
    rate: number;
    elapsedMs: number;
    /** Per model name: how it was paced (requests, 429s, pauses, tokens against the endpoint's limit). */
    pacing?: Record<string, PacingStats>;
    /** A batch run: every provider batch of the run and its state. */
    batches?: BatchProgress[];
    /** The store refused a write (why, as the user reads it): no new calls; `held` answers wait in memory to be written. */
    storeProblem?: string;
    held?: number;
}

export interface AnswerEvent {
    question: Question;
    model: string;
    sample: number;
    text?: string;
    cached?: boolean;
    error?: string;
}

/** The progress of a run whose questions are being generated before anything is asked (the estimate's pass). */
export function generatingProgress(questions: number): Progress {
    return {
        total: 0,
        generating: true,
        questions,
        done: 0,
        answered: 0,
        cached: 0,
        failed: 0,
        resumed: 0,
        tokensIn: 0,
        tokensOut: 0,
        cost: 0,
        rate: 0,
        elapsedMs: 0,
    };
}

/**
 * A run's progress, and how it is reported: `emit` stamps the time since this call and the rate of answers made
 * here (resumed ones left out), then hands the progress on.
 */
export function runProgress(
    initial: Partial<Progress>,
    onProgress?: (p: Progress) => void,
): { progress: Progress; emit: () => void } {
    const started = performance.now();
    const progress: Progress = { ...generatingProgress(0), ...initial };
    const emit = () => {
        progress.elapsedMs = performance.now() - started;
        progress.rate = progress.elapsedMs > 0 ? ((progress.answered - progress.resumed) * 1000) / progress.elapsedMs : 0;
        onProgress?.(progress);
    };
    return { progress, emit };
}
