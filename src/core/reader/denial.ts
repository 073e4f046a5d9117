/**
 * What a denial covers (issue 41): one rule, shared by every family. A value written inside a denied or corrected
 * span is never *found* (a keyword check), never *followed* (an evidence answer) and never a positive claim; where
 * the family can tell, it is a negated claim (supported when the data agrees the value is wrong). The spans:
 *   - a correction after a comma, parenthesis, dash, colon or sentence start: "X, not Y", "X (not Y, as the passage
 *     claims)", "— not Y", "X and not Y", "X rather than Y", "X instead of Y": Y up to the end of its phrase;
 *   - "not Y but X" (one sentence): Y, between the "not" and the "but";
 *   - "neither Y nor Z": both, up to the end of the phrase;
 *   - a value called wrong: "Y is incorrect / wrong / false / a mistake / an error / inaccurate / not correct",
 *     "Y, which is wrong": Y, from the start of its phrase (after "that" when written: "the claim that Avatar came
 *     out in 2012 is wrong" denies what follows "that"); "it is not true / false / not the case that Y": Y up to the
 *     end of its phrase;
 *   - a passage's (context's, facts') reported value the answer sets against its own: "the passage says Y, but …",
 *     "although the passage says Y, …", "contrary to the passage's Y": Y up to the end of its phrase.
 *   - a value attributed to the passage that the answer then sets its own word against: "According to the context, Y.
 *     That's incorrect — …", "Based on the facts you gave, Y; in fact …": Y up to the end of its phrase.
 * A phrase ends at , ; ! ? ) a line break, a dash between spaces, "but", or a full stop that ends a sentence (not an
 * initial's or an abbreviation's: "J. Lingard", "S.W.A.T."). A hedge is no denial: "not sure, but", "not only …
 * but also", "not entirely certain".
 * Measured against wink-nlp's negation scope (issue 41, the report): patterns read the denial forms above and
 * wink's lite model marks plain negation only ("not Y, as the passage claims" yes, "Y, which is wrong", "contrary
 * to" and "the passage says Y, but" no; "No — by X, not by Y" marks X too) at a fifth of the claim reader's rate.
 */
import { isSpace } from './text.js';

// (expressions used inside functions: one object each, not one per call)
const BUT_NEXT = /^\s+but\b/i;
const CLAUSE_NEXT = /^\s+(?:and|as|which|who|because|since|so)\b/i;
const CLOSE_QUOTE = /["'\u201d\u2019]/;
const INITIAL_BEFORE = /(?:^|[\s.(])\p{Lu}$/u;
const ABBREVIATION_BEFORE = /\b(?:st|jr|sr|mr|mrs|ms|dr|vs|no|co|inc|ltd|fc|cf|ac)$/i;
const UP_TO_THAT = /^.*\bthat\s+/is;
const NOT = /\bnot\s/i;
const RATHER = /rather\s+than|instead\s+of/i;
const SPACED_BUT = /\sbut\s/i;
const NEITHER_WORD = /neither/i;
const NOR = /^[^.;!?\n]*?\bnor\s+/i;
const ONLY_IT = /^\s*it\s*$/i;
const THAT = /\bthat\s/i;
const ATTRIBUTION_WORDS = /according|based\s+on|going\s+by|judging\s+by|\bper\b/i;
const CONTRARY_WORD = /contrary/i;
const CONTRAST_NEXT = /^,\s*(?:but|however|though|yet)\b/i;
const THEY = /\bthey\b/i;
const LAST_SENTENCE = /[^.!?\n]*$/;
const AS_END = /\bas\s+$/i;
const SPACED_AS = /\sas\s/i;
const ITEM_AS = /^[^\n]{1,60}?\sas\s/;
const NEXT_SENTENCE = /[.!?\n][^.!?\n]*[.!?\n]/;

/** Hedges after "not": no denial of a value. */
const HEDGE =
    /^(?:only|just|sure|certain|aware|familiar|able|entirely|completely|totally|quite|fully|100|positive|confident|clear|known|possible|necessarily|really|exactly|much|many|enough|available|listed|mentioned|provided|given|specified|stated|included|found|in\s+(?:the|my)\s+(?:passage|context|data|knowledge))\b/i;

/** A correction: "not" (or "rather than", "instead of") opening a phrase (LEAD: what comes before it). */
const CORRECTION = /\b(not|rather\s+than|instead\s+of)\s+/gi;
const LEAD = /(?:^|[,;(:\u2014\u2013]|\s-|[.!?]|\n|\b(?:and|but))\s*$/i;
/** "not Y but X" inside one sentence (Y has no sentence mark). */
const NOT_BUT = /\bnot\s+([^.;!?\n]*?)\s*,?\s+but\s+/gi;
const NEITHER = /\bneither\s+/gi;
/** Y called wrong, after it. */
const CALLED_WRONG =
    /(?:,\s*which\s+)?\s*(?:is|was|are|were)\s+(?:(?:simply|actually|clearly|definitely|also)\s+)?(?:incorrect|wrong|false|mistaken|inaccurate|an?\s+(?:error|mistake)|not\s+(?:correct|right|accurate|true))\b/gi;
/** A reported value of the passage / context / facts. */
const REPORTED =
    /\b(?:(although|though|while|even\s+though|despite)\s+)?(?:the\s+)?(?:(?:provided|given|retrieved|supplied|listed)\s+)?(?:passage|context|text|facts?|information|evidence|source|triples?|list|entries)(?:\s+(?:provided|given|supplied|above|(?:that\s+)?you(?:['\u2019]ve|\s+have)?\s+(?:shared|given|gave|provided|supplied)))?(?:\s+here)?(?:'s|\u2019s)?(?:,\s*which)?\s+(?:(?:incorrectly|wrongly|mistakenly|also)\s+)?(?:says?|said|claims?|claimed|states?|stated|suggests?|suggested|lists?|listed|mentions?|mentioned|gives?|gave|reports?|reported|names?|named|has|shows?|puts?|credits?|credited|attributes?|attributed|pairs?|paired|describes?|described)\s+(?:that\s+)?|\b(?:is|are|was|were)\s+(?:listed|given|shown|credited|named)\s+(?:as|with)\s+/gi;
const CONTRARY = /\bcontrary\s+to\s+(?:what\s+)?/gi;
/** "It is not true that Y", "it's false that Y", "it isn't the case that Y": Y, the clause after "that". */
const IT_IS_WRONG_THAT =
    /\bit(?:'s|\u2019s|\s+is|\s+was)\s+(?:not\s+(?:true|correct|accurate|right|the\s+case)|untrue|false|incorrect|wrong|inaccurate)\s+that\s+|\bit\s+(?:is|was)n['\u2019]t\s+(?:true|correct|accurate|right|the\s+case)\s+that\s+/gi;
/** A value the answer attributes to the passage: "According to the context, Y", "Based on the facts you gave, Y". */
const ATTRIBUTED =
    /\b(?:according\s+to|based\s+on|going\s+by|judging\s+by|per)\s+(?:the\s+)?(?:(?:provided|given|retrieved|supplied)\s+)?(?:passage|context|text|facts?|information|evidence|source)(?:\s+(?:(?:that\s+)?you(?:['\u2019]ve|\s+have)?\s+(?:shared|given|gave|provided|supplied)|provided|given|above))?\s*,\s*/gi;
/** The answer's own word against it, in what follows: "That's incorrect", "it's actually", "in fact", "In reality". */
const SET_AGAINST =
    /^[^]{0,80}?\b(?:(?:that|this)(?:'s|\u2019s|\s+is|\s+was)\s+(?:(?:simply|actually|clearly)\s+)?(?:incorrect|wrong|false|inaccurate|mistaken|not\s+(?:right|correct|true|accurate)|an?\s+(?:error|mistake))|(?:it's|it\u2019s|it\s+is|it\s+was|was)\s+actually|in\s+(?:fact|reality|truth)|actually,)/i;
/**
 * Doubt about the passage's (context's, facts') values near a reported one: "which conflicts with my
 * understanding", "None of that matches", "clearly off:", "a correction to the facts:", "is a mix-up".
 */
const DOUBT =
    /\b(?:(?:by|from|to|in)\s+my\s+(?:own\s+)?(?:recollection|memory|knowledge|understanding),?\s+(?:though|however)|(?:though|however),?\s+(?:by|from|to|in)\s+my\s+(?:own\s+)?(?:recollection|memory|knowledge|understanding)|conflicts?\s+with|contradicts?|(?:does|do)\s*(?:n't|not)\s+(?:match|make\s+sense|add\s+up)|none\s+of\s+(?:that|this|these|them)\s+match(?:es)?|(?:clearly|obviously|seem\s+to\s+be|seems?|appears?\s+to\s+be)\s+(?:off|wrong|incorrect|mistaken|garbled|jumbled|scrambled|swapped)|(?:is|are)\s+(?:a\s+)?(?:mix-?up|mistake|typo|garbled|jumbled|scrambled|swapped|inconsistent)|correction\s+to\s+the\s+(?:facts|passage|context)|(?:facts|passage|context)\s+(?:are|is)\s+(?:wrong|off|incorrect|garbled|jumbled|scrambled|inconsistent))\b/i;
/** A contrast after a reported value: it is set against the answer's own. */
const CONTRAST_AFTER =
    /^[^.;!?\n]*?(?:,\s*but\b|;\s*however\b|,\s*however\b|\bwhich\s+is\s+(?:incorrect|wrong|false|inaccurate|a\s+mistake|an\s+error)\b|\bbut\s+(?:in\s+fact|actually|in\s+reality)\b)/i;

/** The end of the phrase that starts at `from`. */
function phraseEnd(text: string, from: number, stopAtAnd = false): number {
    const n = text.length;
    let depth = 0;
    for (let i = from; i < n; i++) {
        const c = text[i]!;
        // A parenthesis opened inside the phrase ("2012 (2009) was …") is part of it; one closed, that the phrase
        // did not open, ends it ("(not W, …)").
        if (c === '(') {
            depth++;
            continue;
        }
        if (c === ')' && depth > 0) {
            depth--;
            continue;
        }
        if (depth > 0) continue;
        if (c === ',' || c === ';' || c === '!' || c === '?' || c === ')' || c === '\n' || c === '\u2014') return i;
        if (c === '\u2013' && text[i - 1] === ' ') return i;
        if (c === '-' && text[i - 1] === ' ' && text[i + 1] === ' ') return i;
        if (c === '.' && sentenceStop(text, i)) return i;
        if (c === ' ' && BUT_NEXT.test(text.slice(i, i + 6))) return i;
        if (stopAtAnd && c === ' ' && CLAUSE_NEXT.test(text.slice(i, i + 9))) return i;
    }
    return n;
}

/** Does the full stop at `i` end a sentence (not an initial, an abbreviation or a dotted name)? */
function sentenceStop(text: string, i: number): boolean {
    // A closing quote after the full stop ('… "2014." Nolan …') still ends the sentence.
    const close = CLOSE_QUOTE.test(text[i + 1] ?? '') ? 1 : 0;
    const next = text[i + 1 + close];
    if (next !== undefined && !isSpace(next.charCodeAt(0))) return false;
    const before = text.slice(Math.max(0, i - 6), i);
    if (INITIAL_BEFORE.test(before)) return false;
    if (ABBREVIATION_BEFORE.test(before)) return false;
    return true;
}

/** The start of the phrase that ends at `to` (after "that" when the phrase has one). */
function phraseStart(text: string, to: number): number {
    let i = to;
    while (i > 0) {
        const c = text[i - 1]!;
        if (c === ',' || c === ';' || c === '!' || c === '?' || c === '(' || c === '\n' || c === ':' || c === '\u2014') break;
        if (c === '.' && sentenceStop(text, i - 1)) break;
        i--;
    }
    const phrase = text.slice(i, to);
    const that = UP_TO_THAT.exec(phrase);
    return that ? i + that[0].length : i;
}

const WRONG_WORDS = /incorrect|wrong|false|mistake|error|inaccurate|not\s+(?:correct|right|accurate|true)/i;
const REPORT_WORDS = /passage|context|fact|information|evidence|source|triple|text|list|entries|given|shown|credited|named/i;

function scan(text: string, re: RegExp, each: (m: RegExpExecArray) => void): void {
    re.lastIndex = 0;
    for (let m = re.exec(text); m; m = re.exec(text)) {
        each(m);
        if (m[0].length === 0) re.lastIndex++;
    }
}

/**
 * Any word one of deniedSpans's forms needs (the union of the expressions it tests each form's words with): a text with
 * none has no denied span, found by one pass over it instead of eight (most answers have none of these words).
 */
const ANY_FORM_WORD = new RegExp(
    [NOT, RATHER, NEITHER_WORD, WRONG_WORDS, THAT, REPORT_WORDS, ATTRIBUTION_WORDS, CONTRARY_WORD].map(x => x.source).join('|'),
    'i',
);

/** The denied spans [start, end) of a text, sorted and merged. */
export function deniedSpans(text: string): [number, number][] {
    if (!ANY_FORM_WORD.test(text)) return [];
    // Each form is looked for only where its words occur: most answers have none.
    const not = NOT.test(text);
    const out: [number, number][] = [];
    if (not || RATHER.test(text)) {
        for (const m of text.matchAll(CORRECTION)) {
            const from = m.index + m[0].length;
            if (!LEAD.test(text.slice(Math.max(0, m.index - 8), m.index))) continue;
            if (m[1]!.length === 3 && HEDGE.test(text.slice(from))) continue;
            addTrimmed(text, out, from, phraseEnd(text, from, true));
        }
    }
    if (not && SPACED_BUT.test(text))
        scan(text, NOT_BUT, m => {
            const from = m.index + m[0].indexOf(m[1]!, 3);
            if (HEDGE.test(m[1]!) || m[1]!.trim() === '') return;
            addTrimmed(text, out, from, from + m[1]!.length);
        });
    if (NEITHER_WORD.test(text))
        scan(text, NEITHER, m => {
            const from = m.index + m[0].length;
            const nor = NOR.exec(text.slice(from));
            if (nor) addTrimmed(text, out, from, phraseEnd(text, from + nor[0].length, true));
        });
    if (WRONG_WORDS.test(text))
        scan(text, CALLED_WRONG, m => {
            const from = phraseStart(text, m.index);
            // "It is false that Y": the "it" holds no value; what is denied follows "that" (IT_IS_WRONG_THAT)
            if (!ONLY_IT.test(text.slice(from, m.index))) addTrimmed(text, out, from, m.index);
        });
    if (THAT.test(text))
        scan(text, IT_IS_WRONG_THAT, m => {
            const from = m.index + m[0].length;
            addTrimmed(text, out, from, phraseEnd(text, from));
        });
    if (REPORT_WORDS.test(text))
        scan(text, REPORTED, m => {
            const from = m.index + m[0].length;
            const items = reportItems(text, m, from);
            const end = items[items.length - 1]![1];
            // Set against the answer's own: "although the passage says Y, …", "the passage says Y, but …", or with doubt
            // about the passage's values nearby (the sentence before, this one, the next). The passive "X is listed as Y"
            // is denied whole, from X (as reportedSpans reports it): the claim set against is X's.
            if (
                m[1] ||
                CONTRAST_AFTER.test(text.slice(from)) ||
                DOUBT.test(text.slice(Math.max(0, m.index - 160), Math.min(text.length, end + 160)))
            )
                items.forEach(([a, b], i) => addTrimmed(text, out, i === 0 ? (passiveStart(text, m) ?? a) : a, b));
        });
    // "According to the context, Y. That's incorrect — …": a passage's value the answer then sets its own word against.
    if (ATTRIBUTION_WORDS.test(text))
        scan(text, ATTRIBUTED, m => {
            const from = m.index + m[0].length;
            const end = phraseEnd(text, from);
            if (SET_AGAINST.test(text.slice(end)) || DOUBT.test(text.slice(from, Math.min(text.length, end + 160))))
                addTrimmed(text, out, from, end);
        });
    if (CONTRARY_WORD.test(text))
        scan(text, CONTRARY, m => {
            const from = m.index + m[0].length;
            addTrimmed(text, out, from, phraseEnd(text, from));
        });
    return merged(out);
}

/** Spans sorted and merged where they overlap. */
function merged(out: [number, number][]): [number, number][] {
    if (out.length < 2) return out;
    out.sort((x, y) => x[0] - y[0]);
    const all: [number, number][] = [out[0]!];
    for (const r of out.slice(1)) {
        const last = all[all.length - 1]!;
        if (r[0] <= last[1]) last[1] = Math.max(last[1], r[1]);
        else all.push(r);
    }
    return all;
}

/** "they claim Y", "they list Y": the given facts' words, where the facts were named just before. */
const THEY_REPORT =
    /\bthey\s+(?:(?:incorrectly|wrongly|mistakenly|also)\s+)?(?:say|said|claim|claimed|list|listed|give|gave|name|named|credit|credited|attribute|attributed|state|stated|show|put|pair|paired)\s+(?:that\s+)?/gi;
const SOURCE = /\b(?:passage|context|facts?|list|information|data|triples|entries)\b/i;

/** The end of the clause an attribution ("According to the facts, …") covers: its sentence, or a contrast. */
function clauseEnd(text: string, from: number): number {
    for (let i = from; i < text.length; i++) {
        const c = text[i]!;
        if (c === ';' || c === '\n' || c === '!' || c === '?') return i;
        if (c === '.' && sentenceStop(text, i)) return i;
        if (c === ',' && CONTRAST_NEXT.test(text.slice(i, i + 12))) return i;
    }
    return text.length;
}

/**
 * What the answer attributes to the given passage / context / facts (reported speech), whether or not it sets its own
 * word against it: "the facts list Y", "The passage attributes X to Y", "Per the facts given, Y", "they claim Y" (after
 * the facts were named), "X is listed as Y" (in a sentence about the facts). It is the source's claim, not the
 * answer's: no claim and no commitment of its own; set against the answer's own word it is also denied (deniedSpans).
 */
export function reportedSpans(text: string): [number, number][] {
    if (!REPORT_WORDS.test(text) && !ATTRIBUTION_WORDS.test(text) && !THEY.test(text)) return [];
    const out = describing(text);
    scan(text, ATTRIBUTED, m => {
        const from = m.index + m[0].length;
        addTrimmed(text, out, from, clauseEnd(text, from));
    });
    return merged(out);
}

/** text[a, b) trimmed (white space before, white space and full stops after) into `out`, unless nothing is left. */
function addTrimmed(text: string, out: [number, number][], a: number, b: number): void {
    while (a < b && isSpace(text.charCodeAt(a))) a++;
    while (b > a && (isSpace(text.charCodeAt(b - 1)) || text.charCodeAt(b - 1) === 46)) b--;
    if (b > a) out.push([a, b]);
}

/** The reports whose speaker is the given facts ("the facts say Y", "they list Y", "X is listed as Y"), unmerged. */
function describing(text: string): [number, number][] {
    const out: [number, number][] = [];
    scan(text, REPORTED, m => {
        const from = m.index + m[0].length;
        // the passive "X is listed as Y": the whole clause, and only in a sentence about the given facts
        const start = PASSIVE.test(m[0]) ? passiveStart(text, m) : from;
        if (start !== undefined) reportItems(text, m, from).forEach(([a, b], i) => addTrimmed(text, out, i === 0 ? start : a, b));
    });
    scan(text, THEY_REPORT, m => {
        if (!SOURCE.test(text.slice(Math.max(0, m.index - 100), m.index))) return;
        const from = m.index + m[0].length;
        addTrimmed(text, out, from, phraseEnd(text, from));
    });
    return out;
}

/** The answer agrees with what it just reported: "That matches my memory", "which is right", "that's correct". */
const CONFIRMS =
    /\b(?:that|this|which|it)(?:\s+(?:also\s+)?(?:matches|fits|agrees\s+with)|(?:'s|\u2019s|\s+is|\s+was)\s+(?:(?:also|indeed)\s+)?(?:right|correct|accurate)\b)/i;

/**
 * What the answer describes the given facts as saying, with the facts as the speaker ("The list says Y", "the facts
 * you've provided say Y", "they state that Y", "X is listed as Y"), unless it then agrees ("That matches my memory"):
 * the facts' claim, not the answer's — it neither supports nor contradicts the answer, whether the answer goes on to
 * set it against its own or leaves it. An attribution the answer makes its own ("According to the facts, Y") is not
 * one: Y is what the answer says, on the facts' word.
 */
export function describedSpans(text: string): [number, number][] {
    if (!REPORT_WORDS.test(text) && !THEY.test(text)) return [];
    return merged(
        describing(text).filter(([, b]) => {
            const end = NEXT_SENTENCE.exec(text.slice(b));
            const after = text.slice(b, end ? b + end.index + end[0].length : text.length);
            return !(CONFIRMS.test(after) && !REJECTS.test(after));
        }),
    );
}

/**
 * A sentence that rejects what was just reported as a whole: "None of that fits what I know", "That's wrong",
 * "This doesn't match …", "… conflicts with …".
 */
const REJECTS =
    /\b(?:none\s+of\s+(?:that|this|these|those|it|them)\s+(?:fits?|matches|is\s+(?:right|correct|accurate))|(?:that|this|these|those|it)(?:'s|\u2019s|\s+is|\s+are)\s+(?:wrong|incorrect|mistaken|not\s+(?:right|correct|accurate))|(?:does\s*n[o'\u2019]?t|do\s*n[o'\u2019]?t)\s+(?:match|fit)|conflicts?\s+with|contradicts?)\b/i;

/**
 * The reported spans (`reportedSpans`) the answer rejects whole in the rest of their sentence or the next one ("The
 * facts claim X. None of that fits what I know."): what they report is the facts', no claim of the answer's.
 */
export function rejectedReports(text: string, reported: readonly [number, number][] = reportedSpans(text)): [number, number][] {
    return reported.filter(([, b]) => {
        const end = NEXT_SENTENCE.exec(text.slice(b));
        return REJECTS.test(text.slice(b, end ? b + end.index + end[0].length : text.length));
    });
}

const PASSIVE = /^\s*\b(?:is|are|was|were)\s/i;

/** The passive report "X is listed as Y" starts at X, in a sentence about the given facts (else none). */
function passiveStart(text: string, m: RegExpExecArray): number | undefined {
    if (!PASSIVE.test(m[0])) return undefined;
    const start = phraseStart(text, m.index);
    const sentence = text.slice(Math.max(0, start - 120), start);
    return SOURCE.test(sentence.slice(sentence.search(LAST_SENTENCE))) ? start : undefined;
}

/** After a report's phrase, a further item of its list: a comma (and "and"), then a name or a number. */
const NEXT_ITEM = /^["'\u201d\u2019]*,["'\u201d\u2019]*\s+(?:and\s+)?(?=["'\u201c]?[\p{Lu}\d])/u;

/**
 * What a report covers, item by item: its phrase, then each further item of a list that leaves the report's verb out
 * ("X is given as a star of Y, 1957 as something he directed, and Z as a release year"): an item "A as B" after a
 * report "… as". Each item is a claim of its own (its own relation words).
 */
function reportItems(text: string, m: RegExpExecArray, from: number): [number, number][] {
    let end = phraseEnd(text, from);
    const items: [number, number][] = [[from, end]];
    if (!AS_END.test(m[0]) && !SPACED_AS.test(text.slice(from, end))) return items;
    for (let item = NEXT_ITEM.exec(text.slice(end)); item; item = NEXT_ITEM.exec(text.slice(end))) {
        const start = end + item[0].length;
        const next = phraseEnd(text, start);
        if (!ITEM_AS.test(text.slice(start, next))) break;
        items.push([start, next]);
        end = next;
    }
    return items;
}

/** Is [a, b) inside one of the denied spans? */
export function isDenied(spans: readonly (readonly [number, number])[], a: number, b: number): boolean {
    for (const [x, y] of spans) {
        if (x > a) return false;
        if (a >= x && b <= y) return true;
    }
    return false;
}

const CUE_BEFORE = /(?:\b(?:not|neither|rather\s+than|instead\s+of)\s+(?:by\s+)?)$/i;
const CUE_AFTER =
    /^\s*,?\s*(?:which\s+)?(?:is|was|are|were)\s+(?:(?:simply|actually|clearly|definitely|also)\s+)?not\s+(?:correct|right|accurate|true)\b/i;

/**
 * The text with its denied spans blanked (same length: positions carry over), and with them the words that deny
 * them ("not" before a correction, "is not correct" after a value called wrong): what is left is what the text
 * asserts, its own negations included.
 */
export function withoutDenied(text: string, spans: readonly (readonly [number, number])[] = deniedSpans(text)): string {
    if (spans.length === 0) return text;
    let out = '';
    let at = 0;
    for (const [a0, b0] of spans) {
        let a = a0,
            b = b0;
        const before = CUE_BEFORE.exec(text.slice(Math.max(at, a - 24), a));
        if (before) a -= before[0].length;
        const after = CUE_AFTER.exec(text.slice(b, b + 40));
        if (after) b += after[0].length;
        out += text.slice(at, a) + ' '.repeat(b - a);
        at = b;
    }
    return out + text.slice(at);
}
