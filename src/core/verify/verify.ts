/**
 * One verdict per response: the answer read against the gold, and the rationale checked keyword by keyword and
 * hop by hop — found (with the rule that matched), missing, or contradicted (another value of the same
 * attribute stated instead, with the row it belongs to).
 *
 * Contradiction rule (chosen to avoid false alarms; see docs/results.md): the keyword is missing and another
 * value V of its attribute is stated instead (when the keyword is written too, V is reported as `alsoStated`).
 * V counts only when
 *   - V is not the keyword, not one of its alternatives, and neither contains the other ("Avatar" / "Avatar 2");
 *   - V does not occur in the question (the question's own words are not claims);
 *   - V does not overlap where the keyword itself matched;
 *   - V is the whole of a double-quoted phrase ("V" or "The V"; a part of a longer quoted name is not a claim),
 *     or emphased ('V', *V*, _V_), or written capitalised, at least 4 characters long and, if one word only, at
 *     least 6 characters long, not at the start of a sentence and not a common word;
 *   - numbers (int / real attributes): V is a stand-alone number in the domain and the keyword is missing
 *     (a rationale cites many numbers; one counts as a conflicting claim only when the right one is absent).
 */
import type { LoadedData } from '../data/types.js';
import type { Keyword, Question } from '../probes/question.js';
import type { SpecModel } from '../spec/model.js';
import { keywordForms, type KeywordForms } from './aliases.js';
import { coreOf } from '../probes/registry.js';
import { buildDomain, canonicalNumber, scanHits, type Domain, type Tokens } from './domain.js';
import { deniedSpans, isDenied, partOfLongerName } from '../reader/index.js';
import { findWord, fold, stripText, stripValue, foldValue, toSpan, type Folded } from './normalise.js';
import { findPaperKeyword, paperText } from './paper-match.js';
import { outdatedOf } from './outdated.js';
import type { HopVerdict, KeywordStatus, KeywordVerdict, ParsedAnswer, Span, Verdict } from './types.js';

/** A keyword's spellings, normalised once per run. */
interface PreparedForms extends KeywordForms {
    candidates: { text: string; rule: string; folded: string; stripped: string }[];
    /** Stripped spellings of the keyword: domain values equal to, inside or around them are not conflicts. */
    mine: string[];
    /** Canonical numbers of the keyword's spellings. */
    mineNumbers: Set<string | undefined>;
    /**
     * The keyword's verdict when it is missing and nothing else is stated: the same for every response (frozen). Made
     * with the forms (set later, it changed the field's type under code already optimised for it).
     */
    missing: KeywordVerdict;
}

export interface VerifyContext {
    spec: SpecModel;
    data: LoadedData | undefined;
    /** relation → attribute → its indexed domain (built on first use, once per run). */
    domains: Map<string, Map<string, Domain | undefined>>;
    /**
     * Per attribute asked about (and per matching rule: ours, the paper's), value → prepared spellings. A spec asks
     * about a handful of attributes, so they are found by a scan that compares the strings the questions share.
     */
    forms: { relation: string; attribute: string; paper: boolean; byValue: Map<string, PreparedForms> }[];
    /** question text → its stripped form (its words are not claims), once per question per run. */
    questions: Map<string, string>;
    /**
     * Short strings verdicts keep that repeat from response to response (what the reader read, and why: `Yes`,
     * `opens with "Yes"`): one copy each, shared by every verdict of the run that holds it.
     */
    shared: Map<string, string>;
    /** Readings verdicts of the run hold, by a number made of their positions (readOf): each is shared by all alike. */
    reads: Map<number, NonNullable<Verdict['read']>[]>;
    /** Lists of one span found, by position (oneSpan): each is shared by every verdict that found a keyword there. */
    spans: Map<number, readonly Span[]>;
    /** Detect contradictions (default true). */
    contradictions: boolean;
}

export function createVerifyContext(
    spec: SpecModel,
    data?: LoadedData,
    options: { contradictions?: boolean } = {},
): VerifyContext {
    return {
        spec,
        data,
        domains: new Map(),
        // slot 0 is never matched: it makes the list one of objects from the start (a first push would change its
        // elements kind, and so throw away the code optimised for the list of an earlier run)
        forms: [{ relation: '', attribute: '', paper: false, byValue: new Map() }],
        questions: new Map(),
        shared: new Map(),
        reads: new Map(),
        spans: new Map(),
        contradictions: options.contradictions ?? true,
    };
}

/** The longest text a run shares between verdicts (longer ones rarely repeat). */
const SHARED_MAX = 60;

/** `text`, or the equal string an earlier verdict of the run keeps (for short texts). */
function shared(ctx: VerifyContext, text: string): string {
    if (text.length > SHARED_MAX) return text;
    const known = ctx.shared.get(text);
    if (known !== undefined) return known;
    if (ctx.shared.size > 50_000) ctx.shared.clear();
    ctx.shared.set(text, text);
    return text;
}

/** The question's text, stripped (cached per run: every model and sample asked it shares it). */
function strippedQuestion(ctx: VerifyContext, question: string): string {
    let out = ctx.questions.get(question);
    if (out === undefined) {
        out = stripText(question);
        if (ctx.questions.size > 200_000) ctx.questions.clear();
        ctx.questions.set(question, out);
    }
    return out;
}

function domainOf(ctx: VerifyContext, k: Keyword): Domain | undefined {
    let byAttribute = ctx.domains.get(k.relation);
    if (!byAttribute) {
        byAttribute = new Map();
        ctx.domains.set(k.relation, byAttribute);
    }
    if (!byAttribute.has(k.attribute)) {
        const table = ctx.data?.tables.get(k.relation);
        byAttribute.set(k.attribute, table ? buildDomain(table, k.attribute) : undefined);
    }
    return byAttribute.get(k.attribute);
}

function formsOf(ctx: VerifyContext, k: Keyword, paper = false): PreparedForms {
    let byValue: Map<string, PreparedForms> | undefined;
    for (let i = 1; i < ctx.forms.length; i++) {
        // The authors' spellings (keyword_match paper) are kept apart from ours.
        const at = ctx.forms[i]!;
        if (at.attribute === k.attribute && at.relation === k.relation && at.paper === paper) {
            byValue = at.byValue;
            break;
        }
    }
    if (!byValue) {
        byValue = new Map();
        ctx.forms.push({ relation: k.relation, attribute: k.attribute, paper, byValue });
    }
    let f = byValue.get(k.value);
    if (!f) {
        const base = keywordForms(ctx.spec, ctx.data, k.relation, k.attribute, k.value, { paper });
        // built field by field (not spread): one shape, whatever the rules made (code optimised for it stays); the
        // lists in plain loops (an array method inlined by the optimiser made arrays of another map than the
        // builtin had, and the code optimised for them was thrown away when each run started)
        const alternatives = base.alternatives;
        const candidates: PreparedForms['candidates'] = new Array(alternatives.length + 1);
        const mine: string[] = [];
        const mineNumbers = new Set<string | undefined>();
        for (let i = 0; i < candidates.length; i++) {
            const text = i === 0 ? k.value : alternatives[i - 1]!.text;
            const stripped = stripValue(text);
            candidates[i] = { text, rule: i === 0 ? '' : alternatives[i - 1]!.rule, folded: foldValue(text), stripped };
            if (stripped) mine.push(stripped);
            mineNumbers.add(canonicalNumber(text));
        }
        f = {
            alternatives,
            numbers: base.numbers,
            candidates,
            mine,
            mineNumbers,
            missing: Object.freeze({
                relation: k.relation,
                attribute: k.attribute,
                value: k.value,
                status: 'missing' as const,
                spans: NO_SPANS as Span[],
            }),
        };
        if (byValue.size > 200_000) byValue.clear();
        byValue.set(k.value, f);
    }
    return f;
}

/** The rationale in both normal forms, computed once per response. */
interface Rationale {
    text: string;
    offset: number;
    /** Stripped form (always needed: matching and the domain scan); folded form on first need. */
    s: Folded;
    f?: Folded;
    /** Tokens of the stripped form, shared by every domain scanned (on first need). */
    tokens?: Tokens;
    /** The question, stripped: its words are not claims (on first need). */
    question?: string;
    numbers?: { value: number; start: number; end: number }[];
    quoted?: { start: number; end: number; key: string }[];
    /** The whole response (the rationale is its tail from `offset`). */
    response: string;
    /**
     * Denied or corrected spans of the response (reader/denial.ts): a value there is neither found nor a conflict.
     * On first need (`deniedOf`): a response where no keyword and no other value is written needs none.
     */
    denied?: [number, number][];
}

function deniedOf(r: Rationale): [number, number][] {
    return (r.denied ??= deniedSpans(r.response));
}

function numbersIn(r: Rationale): { value: number; start: number; end: number }[] {
    if (!r.numbers) {
        r.numbers = [];
        for (const m of r.text.matchAll(/(?<![\w.])-?\d+(?:\.\d+)?(?![\w]|\.\d)/g)) {
            if (r.numbers.length > 500) break;
            r.numbers.push({ value: Number(m[0]), start: m.index + r.offset, end: m.index + m[0].length + r.offset });
        }
    }
    return r.numbers;
}

/** No spans: shared (and frozen) by every keyword not found. */
const NO_SPANS: readonly Span[] = Object.freeze([]);

/**
 * Every word-bounded occurrence of `needle` in a folded text (at most 50), as spans of the response. A single one is
 * the run's list for its position (`oneSpan`). `from`: where the needle first occurs, when the caller knows it.
 */
function wordSpans(ctx: VerifyContext, f: Folded, needle: string, offset: number, from = 0): readonly Span[] {
    let i = findWord(f.text, needle, from);
    if (i < 0) return NO_SPANS;
    const first = toSpan(f, i, i + needle.length, offset);
    i = findWord(f.text, needle, i + needle.length);
    if (i < 0) return oneSpan(ctx, first);
    const out = [first];
    for (; i >= 0 && out.length < 50; i = findWord(f.text, needle, i + needle.length))
        out.push(toSpan(f, i, i + needle.length, offset));
    return out;
}

/**
 * The list of the one span `span` (frozen with it): one per position for the run, shared by every verdict that found a
 * keyword there (a kept span list cost each verdict two objects). Keyed by the position alone, not by the response.
 */
function oneSpan(ctx: VerifyContext, span: Span): readonly Span[] {
    const { start, end } = span;
    // a small integer: positions up to a million, lengths under 1,024 (others are not shared)
    if (start >= 1 << 20 || end - start >= 1 << 10) return [span];
    const key = start * 1024 + (end - start);
    let out = ctx.spans.get(key);
    if (out === undefined) {
        out = Object.freeze([Object.freeze(span)]);
        if (ctx.spans.size > 50_000) ctx.spans.clear();
        ctx.spans.set(key, out);
    }
    return out;
}

/**
 * `spans` less those inside a longer written name (partOfLongerName): the same list when none is (an array method's
 * result, inlined by the optimiser, was of another map than the builtin's, and the optimised code was thrown away).
 */
function outsideLongerNames(r: Rationale, spans: readonly Span[], value: string): readonly Span[] {
    let out: Span[] | undefined;
    for (let i = 0; i < spans.length; i++) {
        const x = spans[i]!;
        const inside = partOfLongerName(r.text, x.start - r.offset, x.end - r.offset, value);
        if (inside && !out) out = spans.slice(0, i);
        else if (!inside && out) out.push(x);
    }
    return out ?? spans;
}

/** Finds the keyword: folded, then punctuation-stripped, then each alternative, then numeric rules. */
function findKeyword(ctx: VerifyContext, r: Rationale, k: Keyword, forms: PreparedForms): { spans: Span[]; rule?: string } {
    // Stripped first (it finds what folded finds, bar punctuation-made word boundaries), then folded; the
    // rule says how close the written text is to the value.
    for (const c of forms.candidates) {
        // The stripped text is the folded one with everything but letters, digits and spaces dropped, so a folded
        // spelling written there leaves its stripped form in it: absent that, the folded text (and its fold) is
        // not needed.
        // (where it first occurs: the search for its words starts there, not again from the start)
        const at = c.stripped ? r.s.text.indexOf(c.stripped) : 0;
        const near = at >= 0;
        let spans = near && c.stripped ? wordSpans(ctx, r.s, c.stripped, r.offset, at) : NO_SPANS;
        if (spans.length === 0 && near) {
            r.f ??= fold(r.text, false, true);
            spans = c.folded ? wordSpans(ctx, r.f, c.folded, r.offset) : NO_SPANS;
        }
        if (spans.length === 0) continue;
        // A name part ("James") inside a longer written name ("James Franco") names someone else.
        // The written name agrees with the keyword ("Jesse Lingard" for "J. Lingard": same surname, same initial)? Then it is the person.
        if (c.rule === 'name_parts') spans = outsideLongerNames(r, spans, k.value);
        if (spans.length === 0) continue;
        // (spans here are never the shared empty list: they have spans)
        if (c.rule) return { spans: spans as Span[], rule: c.rule };
        // written as the value is: compared in place (most are), else cut out and folded
        const from = spans[0]!.start - r.offset;
        const to = spans[0]!.end - r.offset;
        if (wordsAt(r.text, from, to, k.value)) return { spans: spans as Span[], rule: 'exact' };
        return { spans: spans as Span[], rule: foldValue(r.text.slice(from, to)) === c.folded ? 'normalised' : 'punctuation' };
    }
    for (const nr of forms.numbers) {
        const hits = numbersIn(r).filter(n => nr.matches(n.value));
        if (hits.length > 0) return { spans: hits.map(h => ({ start: h.start, end: h.end })), rule: nr.rule };
    }
    return NOT_FOUND;
}

const QUOTES = new Set(['"', "'", '*', '_', '`', '\u201c', '\u201d', '\u2018', '\u2019', '\u00ab', '(']);
const COMMON = new Set([
    'the',
    'this',
    'that',
    'there',
    'they',
    'then',
    'than',
    'these',
    'those',
    'what',
    'when',
    'where',
    'which',
    'while',
    'with',
    'however',
    'also',
    'yes',
    'unsure',
    'movie',
    'film',
    'director',
    'star',
    'released',
    'year',
    'about',
    'after',
    'before',
    'because',
    'since',
    'both',
    'although',
    'some',
    'many',
    'most',
    'other',
    'another',
    'here',
    'home',
    'none',
    'true',
    'false',
    'answer',
    'question',
]);

function quotedAt(text: string, start: number): boolean {
    let i = start - 1;
    while (i >= 0 && text[i] === ' ') i--;
    return i >= 0 && QUOTES.has(text[i]!);
}

function sentenceStart(text: string, start: number, rationaleStart: number): boolean {
    let i = start - 1;
    while (
        i >= 0 &&
        (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 10 || text.charCodeAt(i) === 9 || text.charCodeAt(i) === 13)
    )
        i--;
    return i < rationaleStart || '.!?:\n"'.includes(text[i]!);
}

/** The stripped text of the double-quoted phrase that contains `span`, if any. */
function quotedSegmentAround(r: Rationale, span: Span): string | undefined {
    if (!r.quoted) {
        r.quoted = [];
        for (const m of r.text.matchAll(
            /["\u201c\u201d\u00ab\u00bb]([^"\u201c\u201d\u00ab\u00bb\n]{1,200})["\u201c\u201d\u00ab\u00bb]/g,
        )) {
            r.quoted.push({ start: m.index + 1 + r.offset, end: m.index + 1 + m[1]!.length + r.offset, key: stripText(m[1]!) });
        }
    }
    for (const q of r.quoted) if (q.start <= span.start && span.end <= q.end) return q.key;
    return undefined;
}

interface Conflict {
    value: string;
    spans: Span[];
    row: { file: string; line: number };
}

function rowRef(domain: Domain, row: number): { file: string; line: number } {
    return { file: domain.file, line: domain.lines[row] ?? row + 1 };
}

/** Is `value` the keyword, one of its spellings, or a word-bounded part or whole around one of them? */
function isOwn(mine: string[], value: string): boolean {
    for (let i = 0; i < mine.length; i++) {
        const m = mine[i]!;
        if (m === value || findWord(m, value) >= 0 || findWord(value, m) >= 0) return true;
    }
    return false;
}

function overlaps(own: Span[], start: number, end: number): boolean {
    for (let i = 0; i < own.length; i++) if (own[i]!.start < end && start < own[i]!.end) return true;
    return false;
}

function numericConflict(
    domain: Domain,
    r: Rationale,
    response: string,
    question: Question,
    forms: PreparedForms,
    own: Span[],
    found: Found[],
    self: Found,
): Conflict | undefined {
    if (own.length > 0) return undefined;
    const asked = new Set((question.question.match(/-?\d+(?:\.\d+)?/g) ?? []).map(canonicalNumber));
    for (const n of numbersIn(r)) {
        const key = canonicalNumber(response.slice(n.start, n.end));
        if (
            key === undefined ||
            forms.mineNumbers.has(key) ||
            asked.has(key) ||
            overlapsOthers(found, self, n.start, n.end) ||
            isDenied(deniedOf(r), n.start, n.end)
        )
            continue;
        const e = domain.numbers.get(key);
        if (e) return { value: e.value, spans: [{ start: n.start, end: n.end }], row: rowRef(domain, e.row) };
    }
    return undefined;
}

/**
 * `found`: where the question's keywords were found (`self` is this one's). A value written where another keyword
 * was found is that keyword, stated for its own hop ("Île-de-France" for the region hop), never a conflict of this
 * one: the conflict is the value the model wrote instead ("Lombardy" for the continent hop).
 */
function conflictsOf(
    ctx: VerifyContext,
    r: Rationale,
    response: string,
    question: Question,
    k: Keyword,
    forms: PreparedForms,
    own: Span[],
    found: Found[],
    self: Found,
): Conflict | undefined {
    const domain = domainOf(ctx, k);
    if (!domain) return undefined;
    if (domain.numeric) return numericConflict(domain, r, response, question, forms, own, found, self);
    // a domain scanned word by word over the text needs no tokens; one looked up in the text's word index shares them
    const t = r.s.text;
    // (the shared hits: nothing below scans again before the loop ends)
    const hits = scanHits(domain, t, undefined, r);
    for (let h = 0; h < hits.count; h++) {
        const a = hits.starts[h]!;
        const b = hits.ends[h]!;
        const e = hits.entries[h]!;
        if (isOwn(forms.mine, e.key)) continue;
        if (findWord((r.question ??= strippedQuestion(ctx, question.question)), e.key) >= 0) continue;
        const span = toSpan(r.s, a, b, r.offset);
        if (
            overlaps(own, span.start, span.end) ||
            overlapsOthers(found, self, span.start, span.end) ||
            isDenied(deniedOf(r), span.start, span.end)
        )
            continue;
        const segment = quotedSegmentAround(r, span);
        if (segment !== undefined) {
            // Part of a longer quoted name ("Fantastic Four: Rise of ...") is not a claim of the shorter value.
            if (segment !== e.key && segment !== `the ${e.key}`) continue;
        } else if (!quotedAt(response, span.start)) {
            const first = response[span.start]!;
            if (e.key.length < 4 || first === first.toLowerCase()) continue;
            if (e.tokens === 1 && (e.key.length < 6 || COMMON.has(e.key) || sentenceStart(response, span.start, r.offset)))
                continue;
        }
        return { value: e.value, spans: [span], row: rowRef(domain, e.row) };
    }
    return undefined;
}

function verifyKeyword(
    ctx: VerifyContext,
    r: Rationale,
    response: string,
    question: Question,
    k: Keyword,
    forms: PreparedForms,
    found: Found,
    all: Found[],
    self: Found,
): KeywordVerdict {
    const conflict = ctx.contradictions ? conflictsOf(ctx, r, response, question, k, forms, found.spans, all, self) : undefined;
    // Written AND another value stated: on GPT-3.5's movie answers 15 of 17 such cases were other true facts
    // ("he also starred in RoboCop (1987)"), so the keyword stays found and the other value is reported beside it.
    const status: KeywordStatus = found.spans.length > 0 ? 'found' : conflict ? 'contradicted' : 'missing';
    // Built whole, in field order (fields added to a literal afterwards cost each verdict kept one more allocation).
    const { relation, attribute, value } = k;
    const { spans, rule } = found;
    if (!conflict) {
        if (status === 'missing' && !rule) return forms.missing;
        return rule ? { relation, attribute, value, status, spans, rule } : { relation, attribute, value, status, spans };
    }
    if (status === 'contradicted')
        return rule
            ? { relation, attribute, value, status, spans, rule, conflict }
            : { relation, attribute, value, status, spans, conflict };
    return rule
        ? { relation, attribute, value, status, spans, rule, alsoStated: conflict }
        : { relation, attribute, value, status, spans, alsoStated: conflict };
}

function hopStatus(keywords: KeywordVerdict[]): KeywordStatus {
    let status: KeywordStatus = 'found';
    for (let i = 0; i < keywords.length; i++) {
        const s = keywords[i]!.status;
        if (s === 'contradicted') return s;
        if (s === 'missing') status = s;
    }
    return status;
}

/** `keyword_match paper`: every keyword looked for as the authors did (paper-match.ts), found or missing. */
function paperHops(ctx: VerifyContext, question: Question, response: string): HopVerdict[] {
    const text = paperText(response);
    return question.keywords.map((list, i) => {
        const keywords = list.map((k): KeywordVerdict => {
            const found = findPaperKeyword(text, k.value, formsOf(ctx, k, true));
            const out: KeywordVerdict = {
                relation: k.relation,
                attribute: k.attribute,
                value: k.value,
                status: found.spans.length ? 'found' : 'missing',
                spans: found.spans,
            };
            if (found.rule) out.rule = found.rule;
            return out;
        });
        return { hop: i + 1, status: hopStatus(keywords), keywords };
    });
}

type Read = NonNullable<Verdict['read']>;

/** Does `response` hold exactly `words` at [from, to)? */
function wordsAt(response: string, from: number, to: number, words: string): boolean {
    return words.length === to - from && response.startsWith(words, from);
}

/** Is `known` the reading `readOf` would build for `parsed` (the same fields, the same words)? */
function sameRead(
    known: Read,
    parsed: ParsedAnswer,
    response: string,
    span: [number, number],
    end: number,
    stance: string,
): boolean {
    if (known.span[0] !== span[0] || known.span[1] !== span[1] || known.stance !== stance || known.why !== parsed.why)
        return false;
    if (!wordsAt(response, span[0], end, known.text)) return false;
    const items = parsed.read;
    const spans = known.spans;
    if (!items || items.length === 0) return spans === undefined;
    if (!spans || spans.length !== items.length) return false;
    for (let i = 0; i < items.length; i++) {
        const x = items[i]!;
        const y = spans[i]!;
        if (y.span[0] !== x.span[0] || y.span[1] !== x.span[1] || y.role !== x.role || y.says !== x.says || y.hedged !== x.hedged)
            return false;
        if (!wordsAt(response, x.span[0], Math.min(x.span[1], x.span[0] + READ_MAX), y.text)) return false;
    }
    return true;
}

/** The words read as the answer are cut at this length. */
const READ_MAX = 120;

/**
 * What the reader read as the answer, where it says where and why: its words (at most 120 characters), and every
 * candidate span it weighed. A reading equal to one an earlier verdict of the run holds (most answers open with
 * "Yes" or "No") is that verdict's, shared and frozen: verdicts are read, never changed, by their consumers. Readings
 * are looked up by a number made of their positions and lengths, then compared field by field (no key is built).
 */
function readOf(ctx: VerifyContext, parsed: ParsedAnswer, response: string): Verdict['read'] {
    const span = parsed.span;
    const why = parsed.why;
    if (!span || !why) return undefined;
    const end = Math.min(span[1], span[0] + READ_MAX);
    const stance = parsed.stance ?? 'answer';
    const items = parsed.read;
    let h = (((span[0] * 31 + span[1]) | 0) * 31 + why.length) | 0;
    let short = end - span[0] <= SHARED_MAX;
    if (items) {
        for (let i = 0; i < items.length; i++) {
            const x = items[i]!;
            h = (((h * 31 + x.span[0]) | 0) * 31 + x.span[1] + (x.hedged ? 7 : 0)) | 0;
            if (Math.min(x.span[1], x.span[0] + READ_MAX) - x.span[0] > SHARED_MAX) short = false;
        }
    }
    h &= 0x3fffffff;
    // readings with long words rarely repeat: they are not kept
    const bucket = short ? ctx.reads.get(h) : undefined;
    if (bucket) for (const known of bucket) if (sameRead(known, parsed, response, span, end, stance)) return known;
    const text = shared(ctx, response.slice(span[0], end));
    let read: Read;
    if (!items || items.length === 0) read = { text, span, why: shared(ctx, why), stance };
    else {
        // every candidate verdict span weighed (opening, conclusion, later …): JSONL and the panel carry them
        const spans: NonNullable<Read['spans']> = new Array(items.length);
        for (let i = 0; i < items.length; i++) {
            const x = items[i]!;
            const to = Math.min(x.span[1], x.span[0] + READ_MAX);
            // the span read as the answer is usually one of them: its words are shared, not sliced again
            const words = x.span[0] === span[0] && to === end ? text : shared(ctx, response.slice(x.span[0], to));
            // built whole, in the fields' order (a spread plus one more field kept a second store per item)
            spans[i] = { span: x.span, role: x.role, says: x.says, hedged: x.hedged, text: words };
        }
        read = { text, span, why: shared(ctx, why), stance, spans };
    }
    if (short) {
        if (ctx.reads.size > 50_000) ctx.reads.clear();
        // a number shared by many unlike readings keeps its first few (each lookup compares them all)
        if (!bucket) ctx.reads.set(h, [deepFreeze(read)]);
        else if (bucket.length < 8) bucket.push(deepFreeze(read));
    }
    return read;
}

/** `read` frozen with everything it holds (a reading shared by verdicts must not change under any of them). */
function deepFreeze(read: Read): Read {
    Object.freeze(read.span);
    if (read.spans) {
        for (const x of read.spans) Object.freeze(Object.freeze(x).span);
        Object.freeze(read.spans);
    }
    return Object.freeze(read);
}

/** Never throws: any response (empty, huge, binary, RTL, HTML) gives a verdict. */
export function verify(question: Question, responseText: string, ctx: VerifyContext, model: string, sample = 0): Verdict {
    const response = typeof responseText === 'string' ? responseText : String(responseText ?? '');
    const family = coreOf(question.kind);
    const parsed = family.parse(response, question);
    const score = family.score(question, parsed, response);
    const text = response.slice(parsed.rationaleStart);
    const hops =
        question.keywordMatch === 'paper'
            ? paperHops(ctx, question, response)
            : ourHops(ctx, question, response, text, parsed.rationaleStart);
    let failed: HopVerdict | undefined;
    for (let i = 0; i < hops.length && !failed; i++) if (hops[i]!.status !== 'found') failed = hops[i];
    const read = readOf(ctx, parsed, response);
    // The common verdict (a read answer, no option) is built whole, its fields in their order: fields added to an
    // object literal afterwards go to a separate store, one more allocation per verdict kept.
    let verdict: Verdict;
    if (read && parsed.option === undefined) {
        const questionId = question.id;
        const answer = parsed.answer;
        const correct = score.correct;
        const rationale = hops.length > 0 && !failed;
        verdict = failed
            ? { questionId, model, sample, answer, correct, rationale, rationaleText: text, hops, read, failedHop: failed.hop }
            : { questionId, model, sample, answer, correct, rationale, rationaleText: text, hops, read };
    } else {
        verdict = {
            questionId: question.id,
            model,
            sample,
            answer: parsed.answer,
            correct: score.correct,
            rationale: hops.length > 0 && !failed,
            rationaleText: text,
            hops,
        };
        if (parsed.option !== undefined) verdict.option = parsed.option;
        if (read) verdict.read = read;
        if (failed) verdict.failedHop = failed.hop;
    }
    // A family that reads its rationale as claims (rule premises) decides the hops; the paper's keyword rule stays as is.
    const refined = question.keywordMatch === 'paper' ? undefined : family.rationaleHops?.(question, verdict);
    if (refined) {
        verdict.hops = refined.hops;
        verdict.rationale = refined.rationale;
        if (refined.failedHop !== undefined) verdict.failedHop = refined.failedHop;
        else delete verdict.failedHop;
    }
    if (score.known !== undefined) verdict.known = score.known;
    if (score.claims) verdict.claims = score.claims;
    const outdated = outdatedOf(question, verdict, response);
    if (outdated) verdict.outdated = outdated;
    return verdict;
}

/** A keyword looked for: where it was found, and by which rule. */
interface Found {
    spans: Span[];
    rule?: string;
}

/** A keyword not found (shared: it is only read). */
const NOT_FOUND: Found = Object.freeze({ spans: NO_SPANS as Span[] });

/** Does [start, end) overlap where another keyword of the question than `self` was found? */
function overlapsOthers(found: Found[], self: Found, start: number, end: number): boolean {
    for (let a = 0; a < found.length; a++) if (found[a] !== self && overlaps(found[a]!.spans, start, end)) return true;
    return false;
}

function strictlyInside(names: readonly Span[], x: Span): boolean {
    for (let i = 0; i < names.length; i++) {
        const n = names[i]!;
        if (n.start <= x.start && x.end <= n.end && n.end - n.start > x.end - x.start) return true;
    }
    return false;
}

/** Is `x` denied, or strictly inside a longer name (a keyword's, found in `found`, or the question's entity)? */
function insideName(r: Rationale, found: Found[], entity: readonly Span[], x: Span): boolean {
    if (isDenied(deniedOf(r), x.start, x.end)) return true;
    for (let a = 0; a < found.length; a++) if (strictlyInside(found[a]!.spans, x)) return true;
    return strictlyInside(entity, x);
}

/** Our keyword check: whole words of the rationale, folded, alternatives, contradictions (the file comment). */
function ourHops(ctx: VerifyContext, question: Question, response: string, text: string, rationaleStart: number): HopVerdict[] {
    // every field set at once, so that the lazy ones (on first need) do not reshape it
    const r: Rationale = {
        text,
        offset: rationaleStart,
        s: fold(text, true, true),
        f: undefined,
        tokens: undefined,
        question: undefined,
        numbers: undefined,
        quoted: undefined,
        response,
        denied: undefined,
    };
    // Every keyword of every hop, hop after hop in one list: its spellings, and where it was found.
    const lists = question.keywords;
    let count = 0;
    for (let i = 0; i < lists.length; i++) count += lists[i]!.length;
    const forms: PreparedForms[] = new Array(count);
    const raw: Found[] = new Array(count);
    for (let i = 0, n = 0; i < lists.length; i++) {
        const list = lists[i]!;
        for (let j = 0; j < list.length; j++, n++) {
            forms[n] = formsOf(ctx, list[j]!);
            raw[n] = findKeyword(ctx, r, list[j]!, forms[n]!);
        }
    }
    // A keyword written only inside a longer name — another keyword's or the question's entity ("Barcelona" in
    // "FC Barcelona") — is not written (the reader's leftmost-longest rule).
    let entity = NO_SPANS;
    const keys = question.entity?.key;
    for (let i = 0; keys && i < keys.length; i++) {
        const s = stripValue(keys[i]!);
        const at = s.includes(' ') ? wordSpans(ctx, r.s, s, r.offset) : NO_SPANS;
        if (at.length > 0) entity = entity.length > 0 ? [...entity, ...at] : at;
    }
    // … and a keyword written only inside a denied or corrected span ("by X, not by Y") is not written either.
    const hops: HopVerdict[] = new Array(lists.length);
    for (let i = 0, n = 0; i < lists.length; i++) {
        const list = lists[i]!;
        const keywords: KeywordVerdict[] = new Array(list.length);
        for (let j = 0; j < list.length; j++, n++) {
            const f = raw[n]!;
            let kept: Found = f;
            for (let c = 0; c < f.spans.length; c++) {
                if (!insideName(r, raw, entity, f.spans[c]!)) continue;
                // the spans before this one are outside; of those after it, those outside (a loop, not filter: see
                // outsideLongerNames)
                const spans = f.spans.slice(0, c);
                for (let d = c + 1; d < f.spans.length; d++)
                    if (!insideName(r, raw, entity, f.spans[d]!)) spans.push(f.spans[d]!);
                kept = spans.length === 0 ? NOT_FOUND : f.rule ? { spans, rule: f.rule } : { spans };
                break;
            }
            keywords[j] = verifyKeyword(ctx, r, response, question, list[j]!, forms[n]!, kept, raw, f);
        }
        hops[i] = { hop: i + 1, status: hopStatus(keywords), keywords };
    }
    return hops;
}
