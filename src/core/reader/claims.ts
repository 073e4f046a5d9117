/**
 * Claims (issue 28 item 3). An answer is cut into sentences (`Intl.Segmenter`, plus line breaks and list
 * items), sentences into clauses (";", "but", "while", "whereas", ", and" — never inside a linked name).
 * A clause states a claim (subject, relation phrase, object) when it has one of the spec's relation phrasings
 * and linked entities of the relation's head and tail types around it; a clause with no phrasing of its own
 * that names an entity of the previous claim's object type continues it ("… but not FC Barcelona"); a clause
 * without a subject takes the previous claim's subject (the pronoun "he", "it", …).
 * Negation ("not", "n't", "never", "no longer", "neither … nor") in the clause before the object flips the
 * claim's polarity, as does an object inside a denied or corrected span (denial.ts: "… is incorrect", "X, not Y"). Each claim is checked against the data's facts:
 *   - supported: the data has the triple (positive claim), or a functional relation whose value is another
 *     one (negative claim: "Messi does not play for RCD Espanyol");
 *   - contradicted: a positive claim whose relation is functional and whose subject has another value (the
 *     row of that value is returned), or a negative claim of a triple the data has;
 *   - unverifiable: the data cannot decide (no value, not functional, the object not linked).
 */
import { deniedSpans, isDenied } from './denial.js';
import type { Linker, Mention } from './link.js';

export interface RelationPhrasing {
    name: string;
    /** How answers say it: "plays for", "is based in", "directed", "director of". */
    phrases: readonly string[];
    head: string;
    tail: string;
    /** Head → tail is a function (an FD): another value contradicts, a negated other value is supported. */
    functional?: boolean;
}

export interface FactRow {
    file: string;
    line: number;
}

/** The data's facts: objects of (subject, relation), each with the row it comes from. */
export interface FactIndex {
    objects(subject: string, relation: string): readonly { id: string; row?: FactRow }[];
}

export type ClaimStatus = 'supported' | 'contradicted' | 'unverifiable';

export interface ReadClaim {
    sentence: number;
    /** [start, end) of the clause in the answer. */
    span: [number, number];
    text: string;
    subject: Mention;
    relation: string;
    /** The relation phrase as written, with its span (absent when the clause continues the previous claim). */
    phrase?: { text: string; start: number; end: number };
    object: Mention;
    negated: boolean;
    status: ClaimStatus;
    /** contradicted / supported: the data row the decision rests on. */
    row?: FactRow;
    /** contradicted: what the data says instead. */
    dataObject?: string;
    why: string;
}

const segmenter = new Intl.Segmenter('en', { granularity: 'sentence' });

/** A full stop, ! or ? then white space: a sentence boundary candidate. */
const BOUNDARY = /[.!?]["')\]\u201d\u2019]*\s+/g;
/** Before the mark: a lower-case word of two letters or more, or a digit — no initial, no abbreviation. */
const PLAIN_END = /(?:[a-z]{2,}|\d)["')\]\u201d\u2019]*$/;
const ABBREVIATED = /\b(?:e\.g|i\.e|etc|vs|approx|ca|no|st|jr|sr|mr|mrs|ms|dr)$/i;
/**
 * A character outside ASCII that could end or separate a sentence (an ellipsis, a CJK full stop, a paragraph
 * separator …): anything but letters, marks, digits, dashes, quotes, spaces and symbols. Text without one takes
 * the direct cut; curly apostrophes, dashes and accented names do not send an answer to the segmenter.
 */
const UNICODE_BREAK = /[^\x00-\x7f\p{L}\p{M}\p{N}\p{Pd}\p{Pi}\p{Pf}\p{Zs}\p{S}]/u;
const LIST_NUMBER = /(?:^|\n)[\s*_>-]*\d{1,3}$/;

/**
 * Sentences as [start, end): line breaks and list items cut too; a lone initial ("L. Messi") does not.
 * `Intl.Segmenter` decides wherever a boundary is ambiguous; a text whose every candidate boundary follows a plain
 * lower-case word or a digit, with no other sentence mark, is cut at those marks directly (the same cuts, without
 * the segmenter's cost).
 */
export function sentences(text: string): [number, number][] {
    if (!UNICODE_BREAK.test(text)) {
        const cuts: number[] = [];
        let plain = true;
        BOUNDARY.lastIndex = 0;
        for (let m = BOUNDARY.exec(text); m; m = BOUNDARY.exec(text)) {
            const before = text.slice(Math.max(0, m.index - 12), m.index);
            // "1. Messi …": a list number opening a line is no sentence
            if (LIST_NUMBER.test(before)) continue;
            if (!PLAIN_END.test(before) || ABBREVIATED.test(before)) {
                plain = false;
                break;
            }
            cuts.push(m.index + m[0].length);
        }
        if (plain) {
            const out: [number, number][] = [];
            let from = 0;
            for (const c of [...cuts, text.length]) {
                for (const [a, b] of lines(text, from, c)) out.push([a, b]);
                from = c;
            }
            return out;
        }
    }
    return segmented(text);
}

function lines(text: string, a: number, b: number): [number, number][] {
    const out: [number, number][] = [];
    let at = a;
    for (const line of text.slice(a, b).split('\n')) {
        let x = at,
            y = at + line.length;
        at = y + 1;
        while (x < y && /\s/.test(text[x]!)) x++;
        while (y > x && /\s/.test(text[y - 1]!)) y--;
        if (y > x) out.push([x, y]);
    }
    return out;
}

function segmented(text: string): [number, number][] {
    const out: [number, number][] = [];
    let pending = -1;
    for (const s of segmenter.segment(text)) {
        const seg = s.segment;
        // The segmenter cuts after "L." (an initial): glue such a piece to the next one.
        let from = s.index;
        const lines = seg.split(/\n/);
        let at = from;
        for (const line of lines) {
            const a = at,
                b = at + line.length;
            at = b + 1;
            if (line.trim() === '') continue;
            const start = pending >= 0 ? pending : a;
            if (/(?:^|\s)[A-Z]\.\s*$/.test(line) && b === from + seg.length) {
                pending = start;
                continue;
            }
            pending = -1;
            out.push([start, b]);
        }
        from = at;
    }
    if (pending >= 0) out.push([pending, text.length]);
    return out
        .map(([a, b]) => {
            while (a < b && /\s/.test(text[a]!)) a++;
            while (b > a && /\s/.test(text[b - 1]!)) b--;
            return [a, b] as [number, number];
        })
        .filter(([a, b]) => b > a);
}

const CLAUSE_CUT =
    /\s*(?:;|,\s+(?=not\s)|,?\s+but\s+|,?\s+while\s+|,?\s+whereas\s+|,?\s+although\s+|,\s+and\s+|,\s+which\s+)\s*/gi;
const NEGATION = /\b(?:not|never|no\s+longer|neither|nor|cannot)\b|n't\b|n’t\b/gi;
const NOT_ONLY = /\bnot\s+only\b/i;
const NOT_ONLY_ALL = /\bnot\s+only\b/gi;
/** An answer word at the start of a sentence is no part of a claim ("No, Messi …"). */
const ANSWER_WORD_AT = /\s*(?:\d+[.)]\s*|[-*•]\s*)?(?:yes|no|true|false)\b[,.:!]?\s*/iy;

type Draft = Omit<ReadClaim, 'status' | 'why' | 'relation'> & { relation: RelationPhrasing };

interface Phrase {
    relation: RelationPhrasing;
    start: number;
    end: number;
    text: string;
}

/**
 * Compiled relation phrasings: one regular expression for all of them, run once over the whole answer (as are
 * the negation cues); clauses then take what falls inside them.
 */
export class ClaimReader {
    private readonly phraseRe: RegExp | undefined;
    /** A phrase as matched (lower case, single spaces) → the relations it says. */
    private readonly byPhrase = new Map<string, RelationPhrasing[]>();

    constructor(
        readonly linker: Linker,
        readonly relations: readonly RelationPhrasing[],
    ) {
        const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\s+/g, '\\s+');
        for (const r of relations)
            for (const ph of r.phrases) {
                const key = normalPhrase(ph);
                if (key === '') continue;
                const list = this.byPhrase.get(key);
                if (!list) this.byPhrase.set(key, [r]);
                else if (!list.includes(r)) list.push(r);
            }
        // Longest phrases first: at one place the alternation takes the first that matches.
        const all = [...this.byPhrase.keys()].sort((x, y) => y.length - x.length);
        if (all.length > 0) this.phraseRe = new RegExp(`\\b(?:${all.map(esc).join('|')})\\b`, 'gi');
    }

    /** The claims of one answer, checked against `facts`. `given`: ids of entities named before (the question's). */
    read(answer: string, facts: FactIndex, given: readonly string[] = []): ReadClaim[] {
        const mentions = this.linker.link(answer, given);
        const phrases = this.phrasesIn(answer, mentions);
        const cues = cuesIn(answer, mentions);
        // What a denial covers (denial.ts): an object inside a denied or corrected span is a negated claim.
        const denied = deniedSpans(answer);
        const out: ReadClaim[] = [];
        let previous: { subject: Mention; relation: RelationPhrasing } | undefined;
        let lastSubject: Mention | undefined;
        const all = sentences(answer);
        for (let si = 0; si < all.length; si++) {
            const [sa, sb] = all[si]!;
            for (const [ca, cb] of clauses(answer, sa, sb, mentions)) {
                const inClause = within(mentions, ca, cb);
                const negAt = cues.first(ca, cb);
                const here = within(phrases, ca, cb);
                if (here.length === 0) {
                    // "… but not FC Barcelona": continues the previous claim with a new object
                    if (previous && inClause.length === 1) {
                        const obj = inClause[0]!;
                        if (obj.type === previous.relation.tail && obj.id !== previous.subject.id) {
                            out.push(
                                this.check(
                                    {
                                        sentence: si,
                                        span: [ca, cb],
                                        text: answer.slice(ca, cb),
                                        subject: previous.subject,
                                        relation: previous.relation,
                                        object: obj,
                                        negated: (negAt >= 0 && negAt < obj.start) || isDenied(denied, obj.start, obj.end),
                                    },
                                    facts,
                                ),
                            );
                        }
                    }
                    continue;
                }
                for (const p of here) {
                    const r = p.relation;
                    let subject =
                        nearestOf(inClause, r.head, undefined, p.start, true, -1, p.start) ??
                        nearestOf(inClause, r.head, undefined, p.start, false);
                    if (!subject && lastSubject?.type === r.head && pronounAt(answer, ca)) subject = lastSubject;
                    if (!subject && previous && previous.subject.type === r.head && !inClause.some(m => m.type === r.head))
                        subject = previous.subject;
                    const object =
                        nearestOf(inClause, r.tail, subject, p.end, false, p.end) ??
                        nearestOf(inClause, r.tail, subject, p.start, true);
                    if (!subject || !object) continue;
                    const negated =
                        (negAt >= 0 && negAt < Math.max(object.start, p.start) && negAt >= Math.min(subject.end, p.start) - 1) ||
                        isDenied(denied, object.start, object.end);
                    out.push(
                        this.check(
                            {
                                sentence: si,
                                span: [ca, cb],
                                text: answer.slice(ca, cb),
                                subject,
                                relation: r,
                                phrase: { text: p.text, start: p.start, end: p.end },
                                object,
                                negated,
                            },
                            facts,
                        ),
                    );
                    previous = { subject, relation: r };
                    lastSubject = subject;
                }
            }
        }
        return out;
    }

    /** Every relation phrase of the answer outside the linked names ("Directed by Whoever" as a title is a name). */
    private phrasesIn(answer: string, mentions: readonly Mention[]): Phrase[] {
        const out: Phrase[] = [];
        const re = this.phraseRe;
        if (!re) return out;
        re.lastIndex = 0;
        for (let m = re.exec(answer); m; m = re.exec(answer)) {
            const start = m.index,
                end = start + m[0].length;
            if (inside(mentions, start, end)) continue;
            for (const relation of this.byPhrase.get(normalPhrase(m[0])) ?? []) out.push({ relation, start, end, text: m[0] });
        }
        return out;
    }

    private check(c: Draft, facts: FactIndex): ReadClaim {
        const known = facts.objects(c.subject.id, c.relation.name);
        let hit: (typeof known)[number] | undefined, other: (typeof known)[number] | undefined;
        for (const k of known) {
            if (k.id === c.object.id) hit ??= k;
            else other ??= k;
        }
        const rel = c.relation;
        if (hit)
            return c.negated
                ? claimOf(c, 'contradicted', 'denies a fact the data has', hit.row, hit.id)
                : claimOf(c, 'supported', 'the data has this fact', hit.row);
        if (other && rel.functional)
            return c.negated
                ? claimOf(c, 'supported', `denies it; the data has ${other.id}`, other.row)
                : claimOf(c, 'contradicted', `the data has ${other.id}`, other.row, other.id);
        return claimOf(
            c,
            'unverifiable',
            known.length === 0
                ? 'the data has no such fact about the subject'
                : 'the relation is not functional: another value does not decide',
        );
    }
}

function claimOf(c: Draft, status: ClaimStatus, why: string, row?: FactRow, dataObject?: string): ReadClaim {
    const out: ReadClaim = { ...c, relation: c.relation.name, status, why };
    if (row) out.row = row;
    if (dataObject !== undefined) out.dataObject = dataObject;
    return out;
}

function normalPhrase(p: string): string {
    return p.trim().toLowerCase().replace(/\s+/g, ' ');
}

/** The spans (sorted by start) that lie inside [a, b). */
function within<T extends { start: number; end: number }>(spans: readonly T[], a: number, b: number): T[] {
    const out: T[] = [];
    for (const x of spans) {
        if (x.start >= b) break;
        if (x.start >= a && x.end <= b) out.push(x);
    }
    return out;
}

/** Is [a, b) inside one of the mentions? */
function inside(mentions: readonly Mention[], a: number, b: number): boolean {
    for (const x of mentions) {
        if (x.start > a) return false;
        if (b <= x.end) return true;
    }
    return false;
}

const PRONOUN_AT = /\s*(?:he|she|it|they|this|the\s+latter)\b/iy;

function pronounAt(text: string, at: number): boolean {
    PRONOUN_AT.lastIndex = at;
    return PRONOUN_AT.test(text);
}

/** The negation cues of an answer outside its mentions, and the clauses a "not only" takes them from. */
function cuesIn(text: string, mentions: readonly Mention[]): { first(a: number, b: number): number } {
    const at: number[] = [];
    const notOnly: number[] = [];
    NEGATION.lastIndex = 0;
    for (let m = NEGATION.exec(text); m; m = NEGATION.exec(text)) {
        if (!inside(mentions, m.index, m.index + 1)) at.push(m.index);
    }
    if (at.length > 0) {
        NOT_ONLY_ALL.lastIndex = 0;
        for (let m = NOT_ONLY_ALL.exec(text); m; m = NOT_ONLY_ALL.exec(text)) notOnly.push(m.index);
    }
    return {
        first(a, b) {
            if (notOnly.some(x => x >= a && x < b)) return -1;
            for (const x of at) if (x >= a && x < b) return x;
            return -1;
        },
    };
}

/** A rationale's points: numbered or bulleted lines, else its sentences. */
export function rationalePoints(rationale: string): string[] {
    const lines = rationale
        .split(/\n+/)
        .map(l => l.trim())
        .filter(Boolean);
    const listed = lines.filter(l => /^(?:\d+[.):]|[-*•])\s*/.test(l));
    const items = listed.length > 0 ? listed.map(l => l.replace(/^(?:\d+[.):]|[-*•])\s*/, '')) : rationale.split(/(?<=[.!?])\s+/);
    return items.map(s => s.trim()).filter(s => s.length > 0);
}

/** The clauses of a sentence, never cut inside a mention. */
export function clauses(text: string, a: number, b: number, mentions: readonly Mention[]): [number, number][] {
    const out: [number, number][] = [];
    const push = (x: number, y: number) => {
        ANSWER_WORD_AT.lastIndex = x;
        const lead = ANSWER_WORD_AT.exec(text);
        if (lead) x = Math.min(x + lead[0].length, y);
        if (y > x) out.push([x, y]);
    };
    let from = a;
    CLAUSE_CUT.lastIndex = a;
    for (let m = CLAUSE_CUT.exec(text); m && m.index < b; m = CLAUSE_CUT.exec(text)) {
        const at = m.index;
        const to = Math.min(at + m[0].length, b);
        if (cuts(mentions, at)) continue;
        if (at > from) push(from, at);
        from = to;
    }
    if (from < b) push(from, b);
    return out;
}

/** Does a cut at `at` fall inside a mention? */
function cuts(mentions: readonly Mention[], at: number): boolean {
    for (const x of mentions) if (x.start < at && at < x.end) return true;
    return false;
}

/** "not sure", "don't recall": doubt about a claim, no negation of it. */
const NOT_HEDGE =
    /^\s*(?:(?:entirely|completely|totally|quite|fully|100\s*%?)\s+)?(?:sure|certain|positive|confident|aware|able|know|recall|remember)\b/i;

/** Offset of the first negation cue of a clause outside any mention (-1 if none); a hedge ("not sure") is none. */
export function negationAt(text: string, offset: number, inClause: readonly Mention[]): number {
    if (NOT_ONLY.test(text)) return -1;
    NEGATION.lastIndex = 0;
    for (const m of text.matchAll(NEGATION)) {
        if (NOT_HEDGE.test(text.slice(m.index + m[0].length))) continue;
        const at = offset + m.index;
        if (!inClause.some(x => x.start <= at && at < x.end)) return at;
    }
    return -1;
}

/**
 * The mention of `type` nearest to `at` (other than `not`): before it (by its end) or after it (by its start),
 * only among mentions starting at or after `from` and, for "before", ending at or before `to`.
 */
function nearestOf(
    ms: readonly Mention[],
    type: string,
    not: Mention | undefined,
    at: number,
    before: boolean,
    from = -1,
    to = Infinity,
): Mention | undefined {
    let best: Mention | undefined;
    let d = Infinity;
    for (const m of ms) {
        if (m.type !== type || m === not || m.start < from || m.end > to) continue;
        const dist = before ? Math.abs(at - m.end) : Math.abs(m.start - at);
        if (dist < d) {
            d = dist;
            best = m;
        }
    }
    return best;
}

// ---------------------------------------------------------------- aggregation

export interface Interval {
    value: number;
    low: number;
    high: number;
    n: number;
}

/**
 * FActScore's aggregation: the share of supported claims per answer, then the mean over answers (answers
 * with no claim are left out and counted), with a 95 % interval over answers (normal approximation of the
 * mean of per-answer shares, clipped to [0, 1]) — never over pooled claims.
 */
export function factScore(perAnswer: readonly (readonly ClaimStatus[])[]): Interval & { withoutClaims: number } {
    const shares = perAnswer.filter(c => c.length > 0).map(c => c.filter(s => s === 'supported').length / c.length);
    const n = shares.length;
    const withoutClaims = perAnswer.length - n;
    if (n === 0) return { value: 0, low: 0, high: 1, n, withoutClaims };
    const mean = shares.reduce((s, x) => s + x, 0) / n;
    const variance = n > 1 ? shares.reduce((s, x) => s + (x - mean) ** 2, 0) / (n - 1) : 0;
    const half = 1.96 * Math.sqrt(variance / n);
    return { value: mean, low: Math.max(0, mean - half), high: Math.min(1, mean + half), n, withoutClaims };
}
