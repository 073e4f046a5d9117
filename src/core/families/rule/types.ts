/** What a rule question carries (plain JSON): the derived fact, its proof and the premises the rationale should state. */
import type { Fact, Proof } from '../../rules/ir.js';
import type { Premise } from './questions.js';

declare module '../../probes/question.js' {
    interface QuestionData {
        /** rule questions: the derived fact, its proof, the premises the rationale should state, its role in the group. */
        rule?: RuleQuestion;
    }
}

// What the family's model steps add to a verdict (embed-run.ts, extract-run.ts), declared from here.
declare module '../../verify/types.js' {
    interface Verdict {
        /**
         * Rule probes with `extract_with MODEL`: the triples MODEL extracted from the rationale (JSON mode), or why its
         * answer could not be read (the claims then come from the patterns). Added after verification (extract-run.ts).
         */
        extracted?: {
            model: string;
            triples?: { subject: string; relation: string; object: string }[];
            error?: string;
            /** false under `decide_by patterns`: the triples are only compared. */ decides?: boolean;
        };
        /**
         * Rule probes with `embeddings MODEL`: the paper's node / edge overlap with elements matched when their
         * embeddings' cosine is at least `threshold` (embed-run.ts), or why it could not be computed.
         */
        similarity?: { model: string; threshold: number; nodeOverlap?: number; edgeOverlap?: number; error?: string };
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
