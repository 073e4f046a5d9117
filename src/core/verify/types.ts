/**
 * A verdict on one response: the contract between verification, the store, reports and the faces.
 * Extend additively; every field is plain JSON. A family's model steps add their own fields to `Verdict` from its
 * folder (module augmentation: rule's `extracted` and `similarity`). A leaf: it imports types of other leaves only.
 */
import type { Stance, StatedClaim } from '../reader/types.js';

/** How the answer was read: binary / statement classes, or a choice outcome. */
export type AnswerClass =
    | 'yes'
    | 'no'
    | 'unsure'
    | 'unparseable'
    | 'true'
    | 'false'
    | 'dont_know'
    | 'option'
    | 'none'
    | 'multiple'
    | 'binding'
    /** A free short answer was given (evidence probes). */
    | 'answer';

/** What a family's `parse` read out of a response (src/core/verify/answer.ts, through the reader). */
export interface ParsedAnswer {
    answer: AnswerClass;
    /** choice: the chosen option (1-based), for 'option' and 'binding'. */
    option?: number;
    /** Offset in the response where the rationale starts. */
    rationaleStart: number;
    /** What the reader read as the answer, and why (src/core/reader). */
    span?: [number, number];
    why?: string;
    stance?: Stance;
    /**
     * Every candidate verdict span the reader weighed (src/core/reader/verdict.ts): where, in which role (opening,
     * conclusion, later, statement, committed, decline), what it says, hedged or not. Reports carry it as `read`.
     */
    read?: { span: [number, number]; role: string; says: string; hedged: boolean }[];
    /**
     * Set by the model reader (`read_with`, when it decides): a short answer's words, and the claims it read. A family
     * that scores the answer's words or claims scores these instead of reading the response itself.
     */
    text?: string;
    claims?: ModelClaim[];
}

export type KeywordStatus = 'found' | 'missing' | 'contradicted';

export interface Span {
    start: number;
    end: number;
}

export interface KeywordVerdict {
    relation: string;
    attribute: string;
    value: string;
    status: KeywordStatus;
    /** Offsets into the response text of each match. */
    spans: Span[];
    /** What matched: 'exact', 'normalised', 'alias:<alternative>', 'name_parts', 'round(2)', 'lookup', ... */
    rule?: string;
    /** For 'contradicted': the other value stated, where, and the row it belongs to. */
    conflict?: { value: string; spans: Span[]; row?: { file: string; line: number } };
    /** For 'found': another value of the same attribute also stated (shown as a warning, not a failure). */
    alsoStated?: { value: string; spans: Span[]; row?: { file: string; line: number } };
}

export interface HopVerdict {
    hop: number;
    status: KeywordStatus;
    keywords: KeywordVerdict[];
}

/**
 * One response's verdict. Once made, a verdict is read, never changed in place: parts the same from verdict to verdict
 * of a run (a reading written alike, `read`; a keyword missing with nothing else stated) are one frozen object
 * shared by all of them (verify.ts). Derive a changed verdict as a copy (applyOverrides, rationaleHops do).
 */
export interface Verdict {
    questionId: string;
    model: string;
    /** 0-based sample index when k samples per question are asked. */
    sample: number;
    answer: AnswerClass;
    /** The chosen option for choice questions (1-based). */
    option?: number;
    /** answer == gold */
    correct: boolean;
    /** What the reader read as the answer (src/core/reader): the words, their span in the response, why, and the stance. */
    read?: {
        text: string;
        span: [number, number];
        why: string;
        stance: string;
        /** Every candidate verdict span the reader weighed (ParsedAnswer.read), with its words. */
        spans?: { span: [number, number]; role: string; says: string; hedged: boolean; text: string }[];
    };
    /** Every keyword of every hop found (and none contradicted). */
    rationale: boolean;
    /** The text after the answer word. */
    rationaleText: string;
    hops: HopVerdict[];
    /** The first hop that is missing or contradicted, if any (1-based). */
    failedHop?: number;
    /** knows questions: the model knows the entity (answered yes and said no "no"). */
    known?: boolean;
    /**
     * A dated question (`as of`) answered wrong with a claim the response itself places later (verify/outdated.ts):
     * the date asked, what dated it (a later year, "currently", …) and where, and the value stated instead if any.
     */
    outdated?: { asOf: string; said: string; span: [number, number]; value?: string };
    /**
     * Probes with `read_with MODEL`: what MODEL read as the answer (structured JSON), the words it quoted and where
     * they stand, or why it could not be read; `patterns` is the pattern reader's answer when the model decided.
     */
    modelRead?: ModelRead;
    /**
     * Families that score claims (open): each claim read, with its status against the data, its polarity, cause and
     * the span it was read from (the JSONL report carries them).
     */
    claims?: ScoredClaim[];
    /** A user's override, when one was recorded. */
    override?: { correct?: boolean; rationale?: boolean; by: string; at: string; why: string; read?: OverriddenRead };
}

/** A group's verdict for one model and sample. */
export interface GroupVerdict {
    group: string;
    relation: string;
    probe: string;
    variant: string;
    model: string;
    sample: number;
    outcome: string;
    ok: boolean | null;
    /** Member question ids, with their roles. */
    members: { questionId: string; role: string }[];
    detail?: string;
}

/**
 * A claim as the model reader read it (open answers): subject, relation phrase and object in the answer's words,
 * its polarity, the words it read it from and where they stand; then its status against the data, as the family
 * checks every claim (the pattern reader's go the same way).
 */
export interface ModelClaim extends StatedClaim {
    status?: 'supported' | 'contradicted' | 'unverifiable';
    /** The data's edge the status rests on: "head —relation→ tail". */
    edge?: string;
}

/**
 * What a verdict had read as the answer when a user overrode it: the words, their span in the response and which
 * reader read them (`patterns`, or the model reader's name when it decided). Stored with the override, so that it
 * still says what it overrode after the answer is read again.
 */
export interface OverriddenRead {
    text: string;
    span: [number, number];
    by: string;
}

/** The model reader's reading of one answer (src/core/verify/model-read.ts). */
export interface ModelRead {
    model: string;
    /** What it read (the family's \`readAs\`): a label, the option chosen, the short answer's words, the claims. */
    reads?: 'labels' | 'option' | 'short' | 'claims';
    /** The label, or for options option / multiple / none / unsure / binding, for short answers answer / unsure. */
    answer?: string;
    /** Options: the option chosen (1-based), and every option named when it chose several. */
    option?: number;
    options?: number[];
    /** Short answers: the words read as the answer. */
    text?: string;
    /** Open answers: the claims read, each with its status against the data. */
    claims?: ModelClaim[];
    quote?: string;
    span?: [number, number];
    /**
     * The two readers read alike: the same label; the same option(s); the same words (one reading inside the other);
     * the same facts supported and contradicted.
     */
    agree?: boolean;
    /** Whether the answer is right on each reading (they may read differently and still agree on the verdict). */
    correct?: { model: boolean; patterns: boolean };
    /** The model decided the verdict (`decide_by reader`); the pattern reader's answer was this. */
    patterns?: string;
    /** When the model decided: what the pattern reader read, in words ("option 2", "answer \"Rome\""). */
    patternsRead?: string;
    /**
     * `decide_by reader`, but the reading disagreed with the pattern reader's: held for review, in words (what each
     * read); the patterns decided the verdict.
     */
    held?: string;
    error?: string;
}

/** A user's correction of a verdict (the answer or the rationale), with who, when and why (overrides.ts). */
export interface Override {
    run: string;
    questionId: string;
    model: string;
    sample: number;
    /** The corrected answer verdict, if the answer was judged wrongly. */
    correct?: boolean;
    /** The corrected rationale verdict, if the rationale was judged wrongly. */
    rationale?: boolean;
    by: string;
    at: string;
    why: string;
    /** What the verdict had read as the answer when it was overridden (older overrides have none). */
    read?: OverriddenRead;
}

/** A claim as a family scored it: its status against the data, the edge it rests on, and (patterns) where it was read. */
export interface ScoredClaim {
    status: 'supported' | 'contradicted' | 'unverifiable';
    edge?: string;
    /** The claim's words and [start, end) in the response (absent for a claim a model stated in its own words). */
    text?: string;
    span?: [number, number];
    /** It denies what it states (a negated claim: "supported" then means the data agrees it is wrong). */
    negated?: boolean;
    /** Hedged, or advice on what to check: not stated as the answer's own, so it passes and fails nothing. */
    hedged?: boolean;
    /** The given facts' words the answer only describes ("the list says X"): the prompt's claim, it counts neither way. */
    described?: boolean;
    /** Open answers: grounded, followed-corrupted, invented or unverifiable. */
    cause?: string;
}
