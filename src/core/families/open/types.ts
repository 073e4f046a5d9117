/** Plain data of the open family's engine: context graphs, perturbations and claim verdicts (issue 17). */

declare module '../../probes/question.js' {
    interface QuestionData {
        /** open questions: the retrieval, the context sent (perturbed or not) and the facts its claims are checked against. */
        open?: OpenQuestion;
    }
}

export type RetrievalForm = 'triplets' | 'paths' | 'subgraph';

export interface ContextNode {
    /** As in the graph panel: `Movie(Avatar, 2009)` or `Movie.year=2009`. */
    id: string;
    label: string;
    /** As written in a prompt: an entity keyed by several values reads "Avatar (2009)"; else the label. */
    display?: string;
    /** The entity's relation, or `Relation.attribute` for a value. */
    type: string;
    entity: boolean;
    /** Personalised PageRank score in the question's neighbourhood. */
    ppr: number;
    prize: number;
    /** One of the question's entities. */
    seed: boolean;
}

export type PerturbationKind = 'swap' | 'replace' | 'rewire' | 'delete';

/**
 * How an edge of a perturbed context differs from the retrieved one; a relation replaced by the least plausible one
 * by embeddings (ATS-style) carries that plausibility (the cosine of the new triple's text with the old one's).
 */
interface PerturbationMark {
    kind: PerturbationKind;
    relation?: string;
    tail?: string;
    plausibility?: number;
}

export interface ContextEdge {
    head: string;
    /** The edge relation's name (`Movie.year`, an FK id). */
    relation: string;
    /** Its words in the prompt. */
    label: string;
    tail: string;
    prize: number;
    cost: number;
    /** Set on a perturbed edge: what it was before. */
    perturbed?: PerturbationMark;
}

export interface ContextGraph {
    form: RetrievalForm | 'scored';
    nodes: ContextNode[];
    edges: ContextEdge[];
    /** paths form: each path as indices into `edges`, in order. */
    paths?: number[][];
    /** Deleted edges of a perturbed context (never shown to the model). */
    deleted?: ContextEdge[];
}

type ClaimLabel = 'supported' | 'contradicted' | 'unverifiable';

/** Why a claim is what it is, from its labels against the data and against the context given. */
export type ClaimCause = 'grounded' | 'followed-corrupted' | 'invented' | 'unverifiable';

export interface ClaimCheck {
    label: ClaimLabel;
    /** The edge that supports or contradicts the claim (for contradicted: the conflicting fact). */
    edge?: { head: string; relation: string; tail: string; perturbed?: boolean };
}

export interface ClaimVerdict {
    text: string;
    /** [start, end) of the claim in the answer (absent for a claim a model extracted in its own words). */
    span?: [number, number];
    /** Node ids the claim mentions, subject first. */
    mentions: string[];
    relations: string[];
    /** The claim denies what it states ("does not", or the denied part of "2009, not 2012": reader/denial.ts). */
    negated?: boolean;
    /** Hedged in its clause, or advice on what to check: not stated as the answer's own (it passes and fails nothing). */
    hedged?: true;
    /** The given facts' words (reported speech), followed or set against: no answer of the answer's own. */
    reported?: true;
    /** The given facts' claim as the answer describes it ("the list says X"), not agreed with: it counts neither way. */
    described?: true;
    data: ClaimCheck;
    context: ClaimCheck;
    cause: ClaimCause;
}

/** A fact of the data, as claim checking reads it. */
interface StoredFact {
    head: string;
    relation: string;
    tail: string;
}

/** An edge relation of the data graph, as the claim linker reads it. */
export interface StoredRelation {
    name: string;
    label: string;
    headType: string;
    tailType: string;
    words: string[];
    /**
     * One of many: a list attribute (`star: list<text>`), whose values the data holds some of — never a functional
     * value, however many it stores for a row (check.ts).
     */
    many?: true;
}

/** What an open question carries (preview JSONL shows it whole): enough to check its answer without the data. */
export interface OpenQuestion {
    /** none: the zero-context baseline; clean: the context as retrieved; else a perturbation kind. */
    condition: 'none' | 'clean' | PerturbationKind;
    /** Share of the context's edges perturbed (0 for none and clean). */
    level: number;
    form: RetrievalForm;
    retrieval: {
        seeds: string[];
        neighbourhood: { nodes: number; edges: number };
        pprIterations: number;
        graph: ContextGraph;
        /** Where the prizes came from: the question's embeddings (\`embeddings MODEL\`), BM25, or PageRank alone. */
        prizesFrom?: 'embeddings' | 'bm25' | 'ppr';
    };
    /** The context sent; absent for the zero-context baseline. */
    context?: ContextGraph;
    /** The context as retrieved, for perturbed questions (and the baseline: what a model may know from memory). */
    clean?: ContextGraph;
    similarity?: { sc2d: number; sd2: number };
    /** The data's facts about the neighbourhood's entities (claims are checked against them). */
    facts: StoredFact[];
    relations: StoredRelation[];
    /** Other spellings of the neighbourhood's nodes, from the spec's aliases (claims may use them). */
    aliases: Record<string, string[]>;
}
