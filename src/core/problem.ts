/**
 * The one error shape of the engine, as a type (a leaf: the family contract and other leaf type modules name it
 * without loading anything). `errors.ts` re-exports it with the helpers that make, throw and print problems.
 */
import type { Range } from './spec/model.js';

export interface Problem {
    severity: 'error' | 'warning';
    code: string;
    message: string;
    /** What the user can do; omitted only when the message already says it. */
    remedy?: string;
    location?: { file: string; range?: Range };
    /** Lines (1-based) of a data file the problem is about, e.g. ragged rows: the diagnostic's quick fix opens them. */
    lines?: number[];
}

/** A data reader's problem: about the whole source, or some of its lines (`lines`, empty for the whole source). */
export type SourceProblem = Problem & { lines: number[] };
