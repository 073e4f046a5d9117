/**
 * The reader's words for how a response stands to the question, as a type (a leaf: a verdict's parsed answer
 * names it without loading the reader).
 */

export type Stance = 'answer' | 'hedged' | 'abstain' | 'refuse' | 'none';
