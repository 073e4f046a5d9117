/**
 * The offline-simulator capability of a probe family (optional): how the simulated model answers its questions. A
 * family without it has no offline answers (the simulator says so for each of its questions). A leaf, types only.
 */
import type { Gold, Question } from '../question.js';

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
 * registered family's own (`SimulatorCapability.rates`, at their defaults unless the model block sets them). A
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

export interface SimulatorCapability {
    /**
     * The rates its answers read (open: how much of the context the simulated model follows, how much it invents;
     * rule: wrong premises, wrong inferences, flipped twins), each a setting of an `offline` model block.
     */
    readonly rates?: readonly SimulatorRate[];
    /**
     * How an answer with this gold begins. `simulator` carries the simulated model's rates (its seed and `rates` by
     * name) for families whose answers depend on them.
     */
    answerText(question: Question, gold: Gold, simulator?: SimulatorRates): string;
    /** The gold a guessing model picks. */
    guess(question: Question, draw: Draw): Gold;
    /**
     * The whole answer of a model that knows the entity, for families whose answers carry their own reasoning (rule:
     * numbered knowledge points, with wrong premises and inferences at set shares). Without it the simulator words
     * the answer (`answerText`) and states the keywords.
     */
    simulate?(
        question: Question,
        rates: SimulatorRates,
        draw: KeyedDraw,
        domain?: (relation: string, attribute: string) => readonly string[],
    ): string;
}
