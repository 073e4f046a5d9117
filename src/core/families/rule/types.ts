/** What a rule question carries (plain JSON): the derived fact, its proof and the premises the rationale should state. */
import type { Fact, Proof } from '../../rules/ir.js';
import type { Premise } from './questions.js';

declare module '../../probes/question.js' {
    interface QuestionData {
        /** rule questions: the derived fact, its proof, the premises the rationale should state, its role in the group. */
        rule?: RuleQuestion;
    }
}

export interface RuleQuestion {
    pred: string;
    /** The fact's arguments as shown. */
    args: string[];
    fact: Fact;
    proof: Proof;
    /** The proof's base facts in derivation order: hop i of the question's keywords is premise i. */
    premises: Premise[];
    /** fact, polarity, symmetric or inverse: its place in the metamorphic group. */
    role: string;
    /**
     * Temporal questions (temporal.ts): the operators (without windows), the formula as written, the anchor year, the
     * years it reads, and for and / or / until the other fact's arguments as shown.
     */
    temporal?: { op: string; formula?: string; year?: number; years: [number, number]; other?: string[] };
    /** The probe's `low_overlap`: below it a node / edge overlap is low (the paper's categories; claims.ts LOW_OVERLAP when absent). */
    lowOverlap?: number;
}
