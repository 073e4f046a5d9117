/**
 * The reader's words for how a response stands to the question, and a claim as a model reader states it, as types
 * (a leaf: a verdict names them without loading the reader).
 */

export type Stance = 'answer' | 'hedged' | 'abstain' | 'refuse' | 'none';

/**
 * A claim as a model reader states it (structured JSON): the subject, relation phrase and object in the answer's
 * words, its polarity, and where it read it (the quote and its span in the answer, when found there).
 */
export interface StatedClaim {
    subject: string;
    relation: string;
    object: string;
    /** Polarity negative: the answer denies it ("X was not directed by Y"). */
    negated: boolean;
    quote?: string;
    span?: [number, number];
}
