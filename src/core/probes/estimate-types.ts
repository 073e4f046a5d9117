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
    /** What the expensive model may spend (EstimateBudget). */
    budget: EstimateBudget;
    /** Which of the family's figures (statement: T, I or C; its default when left out). */
    metric?: string;
    /** Stop once the 95 % interval's half-width is at most this. */
    target?: number;
    seed?: number;
    onRound?: (labelled: number, budget: number) => void;
}

/**
 * What the expensive model may spend: a count of the family's units (statement: triples), a share (0 < share ≤ 1) of
 * them, a number of calls, or dollars at the model's price.
 */
export type EstimateBudget = { count: number } | { share: number } | { calls: number } | { usd: number };

/** A run as an estimate reads it: its id, its questions and their verdicts, and the calls it made and paid. */
export interface EstimateRun {
    id: string;
    questions: Question[];
    verdicts: Verdict[];
    calls: number;
    cost: number;
}

/** The expensive model as the run resolves it: how often it is asked each question, and its price. */
export interface EstimateModel {
    samples: number;
    /** Dollars to ask these questions (each `samples` times) at the model's price; undefined when it has none. */
    usd(questions: readonly Question[]): number | undefined;
}

/** Units (the family's: statement triples), calls and dollars: what a budget allows, or what a full run costs. */
export interface Spending {
    units: number;
    calls: number;
    usd?: number;
}

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
    /** What the units are called (statement: triples). */
    unit: string;
    /** The budget in units, calls and (with a price) dollars, as asked. */
    budget: Spending;
    /** What the expensive model was actually asked (cache hits are free) and paid, over all its rounds. */
    spent: { calls: number; usd: number };
    /** The expensive model on every unit: the full run the estimate stands in for. */
    full: Spending;
    /** The cheap model's own (measured) figure over every unit. */
    cheapMeasured: number;
    /** The expensive model's figure over the units it answered (measured on the sample only). */
    sampleMeasured: number;
    /** Questions the expensive model was asked (statement: each triple is a true statement and its negatives). */
    expensiveQuestions: number;
    cheapRun: string;
    expensiveRuns: string[];
}
