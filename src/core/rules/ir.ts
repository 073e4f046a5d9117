/**
 * The rules room's contract: a Datalog program as plain data, the facts it runs on, and what evaluation returns.
 *
 * The spec language (`rule same_director(a: Movie, b: Movie) :- a.director = b.director, a != b`, FK properties
 * `symmetric` / `transitive` / `inverse NAME`) is translated into this form by `src/core/rules/translate.ts`;
 * `src/core/rules/evaluate.ts` runs it (semi-naive, stratified, with a proof for every derived fact);
 * `src/core/rules/prolog.ts` writes the same program and facts as Prolog for the reference check.
 *
 * Base facts come from the data, one predicate per attribute and one per FK edge (see `translate.ts`):
 *   `R.a(key, value)`         — row with key `key` of relation R has value `value` in attribute a
 *   `fk:From.a->To.b(k1, k2)` — the From row k1 references the To row k2
 * A composite key is one value: its parts joined by KEY_SEPARATOR.
 */

/** A value in a fact: data values are text, numbers or booleans (dates are ISO text). */
export type Value = string | number | boolean;

export type Term = { var: string } | { const: Value };

export interface Atom {
    pred: string;
    args: Term[];
}

export type Comparison = '=' | '!=' | '<' | '<=' | '>' | '>=';

/**
 * A body literal. Negation is only ever sound here:
 * - `fd`: the atom's predicate is functional in its first argument (an FD X -> Y), so `not p(x, y')` holds when
 *   `p(x, y)` holds with y != y' — it is evaluated as "p(x, _) exists and its value differs";
 * - `complete`: the predicate is declared complete (closed world), so absence means false.
 */
export type Literal =
    | { kind: 'atom'; atom: Atom }
    | { kind: 'not'; atom: Atom; sound: 'fd' | 'complete' }
    | { kind: 'compare'; op: Comparison; left: Term; right: Term };

/** Where a rule is written, for errors and hovers (absolute file, 0-based line/character). */
export interface RuleLocation {
    file: string;
    line: number;
    character: number;
}

export interface Rule {
    /** The spec's rule name (several clauses may share it: a recursive rule has a base and a step clause). */
    name: string;
    head: Atom;
    body: Literal[];
    loc?: RuleLocation;
}

export interface PredicateDecl {
    name: string;
    arity: number;
    /** Closed world: absence of a fact means it is false (declared `complete` in the spec). */
    complete?: boolean;
    /** Functional in argument 0 (one value per key): FD negation is sound on it. */
    functional?: boolean;
}

export interface Program {
    /** Base (extensional) predicates, with their facts supplied separately. */
    base: PredicateDecl[];
    rules: Rule[];
    /**
     * Per derived predicate: at most this many facts are kept (a seeded sample beyond it, drawn in bounded work:
     * eval-sample.ts); unbounded when absent. Written `cap N` or `sample N` in the spec.
     */
    caps?: Record<string, number>;
    /** The predicates whose bound was written `sample N`: a sample is what was asked for, not a cut. */
    sampled?: string[];
}

export interface Fact {
    pred: string;
    args: Value[];
}

/** Facts for the base predicates, grouped by predicate name. */
export type FactBase = ReadonlyMap<string, readonly (readonly Value[])[]>;

/** How a fact came to be: a base fact, or a rule clause applied to premises (each with its own proof). */
export type Proof =
    | { kind: 'base'; fact: Fact }
    | { kind: 'rule'; fact: Fact; rule: string; clause: number; premises: Proof[]; bindings: Record<string, Value> };

export interface EvaluateOptions {
    /** Seed for sampling when a cap is reached. */
    seed?: number;
    /** Stop after this many derived facts in total (a guard; reported in `stats.truncated`). */
    maxFacts?: number;
    /** Cancellation: checked between iterations. */
    signal?: AbortSignal;
}

export interface EvaluateStats {
    iterations: number;
    derived: Record<string, number>;
    /** Predicates whose cap (or maxFacts) cut the fixpoint short. */
    truncated: string[];
    /** Candidate rows looked at by the joins (and the walks of a sampled predicate): the evaluation's work. */
    examined: number;
    /** Whole evaluation, and the part of it spent taking in the base facts (interning, dedupe). */
    millis: number;
    loadMillis: number;
}

export interface Derivation {
    /** Every derived fact per predicate, in a deterministic order. */
    facts(pred: string): readonly Fact[];
    /** How many facts a predicate holds, and the i-th of them (in the order of `facts`), without listing them all. */
    size(pred: string): number;
    factAt(pred: string, index: number): Fact | undefined;
    /** Is this fact derived (or a base fact)? */
    has(fact: Fact): boolean;
    /** The proof of a derived or base fact; undefined when it does not hold. */
    proof(fact: Fact): Proof | undefined;
    stats: EvaluateStats;
}

/** Joins the parts of a composite key into one value. */
export const KEY_SEPARATOR = '\u241f';
