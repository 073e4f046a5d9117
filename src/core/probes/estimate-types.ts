/**
 * An estimate of a family's figure for an expensive model from a sample (`halluprobe estimate`; statement: T / I / C,
 * with a cheap model answering everything), as types. A leaf: the family contract names them; the run room's
 * `estimateProbe` runs the models and the family's `estimate` hook does the rest.
 */
import type { Question } from './question.js';
import type { Verdict } from '../verify/types.js';

/** What the user asked to estimate: the probe, both models, the budget and the figure. */
export interface EstimateRequest {
    probe: string;
    /** The model whose figure is wanted, and the cheap one that answers everything. */
    expensive: string;
    cheap: string;
    /** Expensive calls allowed: a count of the family's units (statement: triples), or a share (0 < share ≤ 1) of them. */
    budget: { count: number } | { share: number };
    /** Which of the family's figures (statement: T, I or C; its default when left out). */
    metric?: string;
    /** Stop once the 95 % interval's half-width is at most this. */
    target?: number;
    seed?: number;
    onRound?: (labelled: number, budget: number) => void;
}

/** A run as an estimate reads it: its id, its questions and their verdicts. */
export interface EstimateRun { id: string; questions: Question[]; verdicts: Verdict[] }

export interface Estimate {
    /** The estimate of the expensive model's mean score over every unit. */
    value: number;
    ci: [number, number];
    halfWidth: number;
    /** 'ppi' when the cheap model's answers narrowed the interval, else 'sample'. */
    method: 'ppi' | 'sample';
}

export interface EstimateResult {
    ppi: Estimate;
    sampleOnly: Estimate;
    /** The one to report: the narrower valid interval. */
    chosen: Estimate;
    /** Expensive calls spent (units labelled) and the population size. */
    labelled: number;
    population: number;
    /** Labelled units per stratum. */
    perStratum: Record<string, number>;
    /** Units asked whose expensive calls failed: left out of the estimate (not scored), counted here. */
    failed: number;
}

/** What `halluprobe estimate` reports: the estimate, the figure, what was measured, and the runs made. */
export interface FigureEstimate extends EstimateResult {
    metric: string;
    /** The cheap model's own (measured) figure over every unit. */
    cheapMeasured: number;
    /** The expensive model's figure over the units it answered (measured on the sample only). */
    sampleMeasured: number;
    /** Questions the expensive model was asked (statement: each triple is a true statement and its negatives). */
    expensiveQuestions: number;
    cheapRun: string;
    expensiveRuns: string[];
}
