/**
 * Where the verdict of a closed answer is (issue 41, rule 1) — one rule for every family whose answer is a
 * yes / no / unsure, a true / false / don't know, or (through the same markers) an option.
 *
 * Candidate verdict spans are read anywhere in the answer, each with its polarity, hedge and position:
 *   - the opening: the first sentence that is not boilerplate (a polite preamble "Sure! I'd be happy to help.",
 *     a restated question, "Let me think.") when it opens with a verdict ("Yes", "True.", "Correct —", "That's
 *     incorrect.", "I don't believe so.", "Absolutely not.", "Of course!", "Not anymore: …");
 *   - marked conclusions: a verdict after "so", "therefore", "in conclusion", "the answer is", "**Answer:**" …;
 *   - later sentences that are a verdict on their own ("… in 2009. No.") and "the statement is false" anywhere;
 *   - the committed statement after a refusal or doubt ("As an AI I cannot browse, but there was no such player
 *     in 2019." commits to no) or in place of a verdict word ("There is no such film.").
 * One rule decides: the last marked conclusion over everything else; then the opening, unless an unmarked
 * verdict of the other polarity follows (conflicting unmarked verdicts → unreadable, both spans recorded); then
 * later verdicts that agree; a verdict after a refusal or doubt is a hedged verdict; an opening that only
 * declines is unsure. Every candidate is returned (`read`), so a face can show what was weighed.
 */
import type { Stance } from './types.js';
import { statesProposition, type Proposition } from './proposition.js';
import {
    after as afterSpan,
    byFirstLetter,
    DECLINE_HINT_WORDS,
    endsSentenceAt,
    firstSentenceEnd,
    hinted,
    isSpace,
    leadEnd,
    notAnswering,
    within,
} from './text.js';

export type Polarity = 'pos' | 'neg' | 'unsure';
type VerdictRole = 'opening' | 'conclusion' | 'later' | 'statement' | 'committed' | 'decline';

/** One candidate verdict span: what it says, where, how it was found. */
export interface VerdictRead {
    polarity: Polarity;
    span: [number, number];
    role: VerdictRole;
    /** Said with a caveat, after a refusal, or after "I think" / "probably". */
    hedged: boolean;
}

export interface VerdictFinding {
    /** The verdict the rule chose; undefined when unreadable (conflict) or nothing was found. */
    chosen?: VerdictRead;
    /** 'conflict' when unmarked verdicts disagree; 'decline' when the answer only declines; 'none' when nothing. */
    outcome: 'verdict' | 'conflict' | 'decline' | 'none';
    stance: Stance;
    why: string;
    read: VerdictRead[];
    /** Where the rationale starts (after the chosen verdict when it opens the answer, else the answer's start). */
    rationaleStart: number;
}

export interface VerdictContext {
    /** The question asked: a negated one ("Is it true that there are no …?") turns a committed "there is no …" into yes. */
    question?: string;
    /** The question's proposition (its entities and relation), when the family knows it: an answer with no verdict word that asserts it answers (proposition.ts). */
    proposition?: Proposition;
}

// Verdict phrases at the start of a sentence (after decoration). Longer forms first.
const NEG_AT = new RegExp(
    '^(?:' +
        [
            String.raw`(?:absolutely|certainly|definitely|of\s+course|surely)\s+not\b`,
            String.raw`not\s+(?:anymore|any\s+more|really|at\s+all|true|correct|quite|exactly|so|that\s+i\s+know\s+of)\b`,
            String.raw`i\s+(?:do\s*n[o']?t|don'?t|dont)\s+(?:believe|think)\s+(?:so\b|(?:that|this|it)(?:'s|\u2019s|\s+is)\s+(?:quite\s+)?(?:true|right|correct|accurate|the\s+case)\b)`,
            String.raw`i'?m\s+afraid\s+not\b`,
            String.raw`i\s+(?:do\s*n[o']?t|don'?t)\s+(?:believe|think)\s+(?:that|this|it|the\s+(?:statement|claim))\s+(?:holds(?:\s+up)?|is\s+(?:quite\s+)?(?:true|right|correct|accurate))\b`,
            String.raw`(?:that|this|it|the)(?:\s+(?:statement|claim))?(?:'s|\u2019s|\s+is|\s+was)\s+(?:actually\s+|definitely\s+|simply\s+)?(?:not\s+(?:quite\s+|entirely\s+)?(?:true|correct|right|accurate|the\s+case)|(?:isn'?t|incorrect|false|untrue|inaccurate|wrong))\b`,
            String.raw`(?:that|this|it|the)(?:\s+(?:statement|claim))?\s+(?:isn'?t|is\s*n't)\s+(?:quite\s+|entirely\s+)?(?:true|correct|right|accurate|the\s+case)\b`,
            String.raw`(?:incorrect|false|nope|nah|negative)\b`,
            String.raw`no\b`,
        ].join('|') +
        ')',
    'i',
);
const POS_AT = new RegExp(
    '^(?:' +
        [
            String.raw`(?:yes|yeah|yep|yup)\b`,
            String.raw`i\s+(?:believe|think)\s+so\b`,
            String.raw`i'?m\s+afraid\s+so\b`,
            String.raw`(?:that|this|it|the)(?:\s+(?:statement|claim))?(?:'s|\u2019s|\s+is)\s+(?:actually\s+|indeed\s+|definitely\s+|entirely\s+|completely\s+)?(?:true|correct|right|accurate|the\s+case)\b`,
            String.raw`(?:true|correct|right|indeed|affirmative|absolutely|certainly|definitely|of\s+course)\b(?=\s*(?:[,.!:;\u2013\u2014)*_-]|$))`,
        ].join('|') +
        ')',
    'i',
);
const UNSURE_AT = /^(?:unsure|uncertain|(?:yes|no)\s*\/\s*unsure|don'?t\s+know|dont\s+know|i\s+don'?t\s+know|not\s+sure)\b/i;
/**
 * A verdict withdrawn: "I can't commit either way", "I cannot say one way or the other". After the chosen verdict
 * it leaves the answer unsure (a careful reader does not hold the model to a verdict it takes back).
 */
const WITHDRAW =
    /\b(?:can(?:no|['\u2019])?t|cannot|won['\u2019]?t|(?:am\s+|'m\s+)?(?:unable|not\s+able)\s+to)\s+(?:really\s+|fully\s+|honestly\s+|definitively\s+|confidently\s+)?(?:commit|say|decide|tell|answer)(?:\s+(?:for\s+(?:sure|certain)|with\s+certainty|definitively|confidently))?\s+(?:either\s+way|one\s+way\s+or\s+the\s+other)\b/i;
/** "Yes and no": both verdicts at once, which is none. */
const BOTH = /^(?:both\s+)?(?:yes\s+and\s+no|no\s+and\s+yes)\b/i;
/** After a verdict word, what makes it a verdict on its own rather than the start of a sentence ("No movie …"). */
const ALONE = /^\s*(?:[,.!:;\u2013\u2014)*_"'`\u201d\u2019-]|$)/;

/** "the statement is (not) true", anywhere — not inside "whether / if the statement is true". */
const STATEMENT =
    /\b(whether|if)?\s*(?:the\s+(?:given\s+|above\s+|original\s+)?statement|this\s+statement|the\s+claim|this\s+claim)\s+(?:is|appears\s+to\s+be|seems\s+to\s+be|remains)\s+(not\s+)?(?:entirely\s+|completely\s+|factually\s+|historically\s+)?(true|false|correct|incorrect|accurate|inaccurate)\b/gi;

const STATEMENT_HINT = /statement|claim/i;
/** A sentence that may open with a verdict: a cheap test before reading every later sentence. */
const LATER_WORDS = String.raw`[\s*_#>"'${'`'}\u2022-]*(?:yes|yeah|yep|yup|no|nope|nah|negative|true|false|correct|incorrect|right|indeed|affirmative|absolutely|certainly|definitely|of\s+course|not|i\s+(?:do|don|believe|think)|i'?m\s+afraid|(?:that|this|it)(?:'s|\u2019s|\s+is|\s+was|\s+isn)|unsure|uncertain|don'?t|dont)\b`;
const LATER_HINT = new RegExp(`(?:^|[.!?\\n:;\\u2013\\u2014-]\\s*)${LATER_WORDS}`, 'i');
/** A verdict tagged onto a sentence's end may start here (LATER_WORDS, sticky). */
const TAG_WORDS_Y = new RegExp(LATER_WORDS, 'iy');
/** What may follow a tagged verdict to the end of its sentence. */
const TAG_END = /^[\s.!*_"'`)\]\u201d\u2019]*$/;

/** Words that mark a conclusion; a verdict follows (decoration, "the answer is" again allowed in between). */
const MARKER =
    /(?:(?:^|[.!?:;,\n\u2013\u2014()"'*_#>-]\s*|\b(?:and|but)\s+)(?:so|then|therefore|thus|hence|consequently|in\s+conclusion|in\s+summary|to\s+(?:sum\s+up|summari[sz]e|conclude)|overall|in\s+short|final(?:ly)?|either\s+way|in\s+any\s+case|all\s+in\s+all)\b|(?:^|[^a-z])(?:the|my)\s+(?:final\s+|short\s+|correct\s+|overall\s+|honest\s+|best\s+|most\s+likely\s+)?(?:answer|verdict|conclusion|guess|pick|bet)(?:\s+(?:to|for)\s+(?:the|this|your)\s+question)?\s+(?:is|would\s+be|remains)|\b(?:final\s+|short\s+)?(?:answer|verdict|conclusion)[*_]*\s*[:\-\u2013\u2014]|\bi(?:'d|\s+would|'ll|\s+will)\s+(?:answer|go\s+with)\b)/gi;
/** Every marker holds one of these words: a cheap test before MARKER. */
const MARKER_HINT =
    /\b(?:so|then|therefore|thus|hence|consequently|conclu|summar|sum\s+up|overall|short|final|either\s+way|any\s+case|all\s+in\s+all|answer|verdict|guess|pick|bet|go\s+with)/i;
const GLUE =
    /^[\s,:*_"'`#>\u201c\u2018()[\]-]*(?:(?:(?:most\s+|very\s+)?likely|probably|almost\s+certainly|possibly|perhaps|maybe)[\s,]+)?(?:(?:i'?d|i\s+would)\s+say\s+|i\s+(?:think|believe)\s+)?(?:(?:the\s+)?(?:final\s+)?answer\s+(?:is|would\s+be)\s*:?[\s*_"'`\u201c\u2018(]*)?/i;

/** Sentences that only introduce the answer: politeness, a restated question, "let me think". */
const BOILERPLATE =
    /^(?:(?:sure|certainly|of\s+course|absolutely|great|good|excellent|interesting)(?:\s+question)?\s*[!.,]\s*(?=i'?d|i\s+would|i\s+can|i'?ll|let|here|happy|glad)|sure\s*[!.,]?\s*$|i'?d\s+be\s+(?:happy|glad)|i\s+would\s+be\s+(?:happy|glad)|(?:i'?m\s+)?happy\s+to\s+help|glad\s+to\s+help|thanks?\b|thank\s+you|(?:great|good|interesting)\s+question|(?:hmm+|well|okay|ok|alright)\b[\s,.!]*(?:(?:that|this)(?:'s|\s+is)\s+an?\s+(?:good|great|interesting|tricky)\s+(?:question|one)[.!]?\s*)?$|(?:that|this)(?:'s|\s+is)\s+an?\s+(?:good|great|interesting|tricky)\s+(?:question|one)|let(?:'s|\s+me|\s+us)\s+(?:think|see|check|break|look|consider|analy[sz]e|verify|examine|go|reason|work|recall|start|review|evaluate|figure)|to\s+answer\s+(?:this|your|the)|you(?:'re|\s+are)\s+asking|the\s+question\s+(?:is|asks)|(?:here(?:'s|\s+is)|below\s+is)\s+(?:the|my|what|a)|(?:step\s+\d|first(?:ly)?,?\s+(?:let|we|i)\b))/i;
const HEDGE_WORDS =
    /\b(?:(?:fairly|reasonably|quite|pretty|mostly|largely)\s+(?:confident|sure|certain)|probably|likely|i\s+(?:think|believe|guess|suspect)|best\s+guess|it\s+(?:seems|appears)|possibly|perhaps|maybe|to\s+my\s+knowledge|as\s+far\s+as\s+i\s+know|if\s+i\s+recall|i'?m\s+not\s+(?:entirely\s+|completely\s+|100%\s+)?(?:sure|certain))\b/i;
/**
 * Every decline (notAnswering) and every match of HEDGE_WORDS holds one of these: one scan where there is neither (most
 * verdicts), instead of one for each.
 */
const MAYBE_HEDGED = byFirstLetter(
    [
        ...DECLINE_HINT_WORDS,
        ...'confident|sure|certain|probably|likely|think|believe|guess|suspect|seems|appears|possibly|perhaps|maybe'.split('|'),
        String.raw`as\s+far`,
        'recall',
    ],
    'gi',
);
/** Words that soften a verdict that follows ("I believe yes", "my best guess is no"). */
const HEDGE_LEAD =
    /^(?:(?:i\s+(?:think|believe|guess|suspect)|(?:my\s+)?best\s+guess\s+(?:is|would\s+be)|probably|likely|it\s+(?:seems|appears)|i\s+would\s+(?:say|lean(?:\s+towards)?))(?:\s+that)?[\s,:]*)+/i;
/** After a decline: the clause that commits anyway ("…, but there was no such player"). */
const BUT = /(?:,|;|\.|\u2014|-)?\s*(?:but|however|that\s+said|nonetheless|still)\b[,:]?\s*/i;
/** Every match of BUT holds one of these: a cheap test before it (BUT may start at any character). */
const BUT_HINT = /but|however|that\s+said|nonetheless|still/i;

/** Committed statements that say the thing asked about does (not) exist, in place of a verdict word. */
const EXISTS_NOT =
    /\b(?:there\s+(?:is|was|are|were)\s+no\b|there\s+(?:is|was|are|were)\s*n[o']?t\s+(?:a|any)\b|there\s+(?:isn'?t|wasn'?t|aren'?t|weren'?t)\s+(?:a|any)\b|no\s+such\b|(?:does|did)\s*(?:not|n't)\s+exist|never\s+(?:existed|played|starred|appeared|directed|was|were|had|won|managed|coached|worked)|(?:has|have|had)\s+never\b)/i;
/** Every match of EXISTS_NOT or EXISTS holds one of these: a cheap test before the two. */
const EXISTS_HINT = /there|such|exist|never/i;
const EXISTS = /\b(?:there\s+(?:is|was|are|were)\s+(?:indeed\s+(?:a|an|one|such)|such\s+an?|one\s+such|at\s+least\s+one)\b)/i;
/** A question that asks about a negation: "Is it true that there are no …", "… did not …". */
const NEGATED_QUESTION = /\b(?:no|not|never|none)\b|n't\b/i;

interface Unit {
    start: number;
    end: number;
}

/**
 * The answer's sentences and lines, as [start, end) spans with the decoration before each skipped — cut only as
 * far as they are asked for (most answers are decided in their first two), at most 60.
 */
class Units {
    /** `list`: the first units as get cuts them, when the caller has cut them already; `at`: where get goes on after them. */
    constructor(
        private readonly text: string,
        private readonly list: Unit[] = [],
        private at = 0,
    ) {}
    /** The i-th unit, if the answer has one. */
    get(i: number): Unit | undefined {
        const text = this.text;
        while (this.list.length <= i && this.list.length < 60 && this.at < text.length) {
            const window = Math.min(text.length, this.at + 200);
            const s = leadEnd(text, this.at, window, window);
            if (s >= text.length) {
                this.at = text.length;
                break;
            }
            const e = firstSentenceEnd(text, s);
            if (e > s) this.list.push({ start: s, end: e });
            this.at = Math.max(e, s + 1);
        }
        return this.list[i];
    }
    /** The unit holding offset `at`, among the first `max`. */
    holding(at: number, max: number): Unit | undefined {
        for (let i = 0; i < max; i++) {
            const u = this.get(i);
            if (!u) return undefined;
            if (u.start <= at && at < u.end) return u;
        }
        return undefined;
    }
}

/**
 * Words before a verdict that do not change it: interjections ("Actually,", "Oh,", "Well —") and softeners ("I
 * believe", "almost certainly"), which make the verdict hedged.
 */
const OPENER =
    /^(?:(?:actually|well|oh|hmm+|ok(?:ay)?|so|sure|honestly|in\s+short|short\s+answer|nope,?\s+wait)[\s,:\u2013\u2014-]+|i(?:'m|\u2019m|\s+am)\s+(?:(?:fairly|reasonably|quite|pretty|very|mostly|largely|almost)\s+)?(?:confident|sure|certain)(?:\s*,[^,.;!?]{1,50},)?(?:\s+that)?\s+|(?:i\s+(?:think|believe|guess|suspect|would\s+say)|(?:almost|most\s+likely|very\s+likely|quite\s+possibly)\s*(?=certainly|yes|no\b)|almost\s+certainly|most\s+likely|probably|likely|to\s+my\s+knowledge|as\s+far\s+as\s+i\s+know|if\s+i\s+recall(?:\s+correctly)?)[\s,:]+)+/i;

const COLON = /[:\u2013\u2014]\s*[*_]*/;
/** "It's true that …": a concession, not a verdict, when it opens a later sentence. */
const CONCEDES = /^(?:that|this|it|the)[^.!?]{0,30}?\b(?:true|correct|right|false|incorrect|wrong)\s+that\b/i;
const YES_OR_NO = /^(?:no|yes)$/i;
/** After a bare "no" / "yes" of a conclusion, what makes it a verdict on a subject ("so no, it …"). */
const SUBJECT_NEXT = /^\s+(?:it|there|he|she|they|this|that|the\s+statement)\b/i;
const IS_IT_TRUE = /^\s*is\s+it\s+true\s+that\s+/i;
const HEADING = /^#{1,6}\s/;

/**
 * verdictAt's expressions in its order, as one sticky expression (one call, not four): the group that matched
 * (1 BOTH, 2 UNSURE_AT, 3 CONCEDES, 4 NEG_AT, 5 POS_AT) is the first of them to match, as when they are read in turn.
 * CONCEDES is read only for a verdict that stands alone (VERDICT_AT_ALONE).
 */
const VERDICT_AT = atOnce([BOTH, UNSURE_AT, /^(?!)/, NEG_AT, POS_AT]);
const VERDICT_AT_ALONE = atOnce([BOTH, UNSURE_AT, CONCEDES, NEG_AT, POS_AT]);
function atOnce(res: RegExp[]): RegExp {
    return new RegExp(res.map(re => `(${sticky(re).source})`).join('|'), 'iy');
}
const ALONE_Y = sticky(ALONE);
const GLUE_Y = sticky(GLUE);

/** A verdict right after a colon or dash in the opening sentence ("I'm fairly confident here: no, …"). */
function verdictAfterColon(text: string, u: Unit): { polarity: Polarity; start: number; end: number } | undefined {
    const stop = Math.min(u.end, u.start + 100);
    // (COLON starts with one of its three characters: most sentences have none, and are spared the slice)
    if (!within(text, ':', u.start, stop) && !within(text, '\u2013', u.start, stop) && !within(text, '\u2014', u.start, stop))
        return undefined;
    const m = COLON.exec(text.slice(u.start, stop));
    if (!m) return undefined;
    const at = u.start + m.index + m[0].length;
    const v = verdictAt(text, at, true);
    return v && v.polarity !== 'unsure' ? v : undefined;
}

/** A verdict phrase at `at`; `alone`: only one that stands alone (followed by punctuation or the end). */
function verdictAt(text: string, at: number, alone: boolean): { polarity: Polarity; start: number; end: number } | undefined {
    // (most sentences that are no verdict are spared the expression)
    if (!mayStartAt(VERDICT_START, text, at)) return undefined;
    const head = text.slice(at, at + 80);
    const re = alone ? VERDICT_AT_ALONE : VERDICT_AT;
    re.lastIndex = 0;
    // (test, not exec: no match array; which expression matched is told apart below)
    if (!re.test(head)) return undefined;
    const n = re.lastIndex;
    const g = matchedAt(head, n, alone);
    // "yes and no": none; a later "It's true that …" concedes a part of the argument: no verdict
    if (g === BOTH_G || g === CONCEDES_G) return undefined;
    if (g === UNSURE_G) return { polarity: 'unsure', start: at, end: at + n };
    if (g === NEG_G)
        // (the only two-letter match of NEG_AT is "no"; POS_AT matches nothing that starts so)
        // "No" opening a sentence about something else ("No movie matches") is a verdict only at the opening.
        return alone && n === 2 && !alonePast(head, n) ? undefined : { polarity: 'neg', start: at, end: at + n };
    // (the only matches of POS_AT that start with "y" are yes / yeah / yep / yup)
    return alone && (head.charCodeAt(0) | 32) === 121 && !alonePast(head, n)
        ? undefined
        : { polarity: 'pos', start: at, end: at + n };
}

const BOTH_G = 1;
const UNSURE_G = 2;
const CONCEDES_G = 3;
const NEG_G = 4;
const POS_G = 5;
const BOTH_Y = sticky(BOTH);
const UNSURE_Y = sticky(UNSURE_AT);
const CONCEDES_Y = sticky(CONCEDES);
const NEG_Y = sticky(NEG_AT);

/**
 * Which of verdictAt's expressions matched `head` from its start (VERDICT_AT: the first of them, in order, that
 * matches there), the match being `n` characters long. The phrases' first letters and lengths tell most apart
 * without reading again: only BOTH starts with "b" ("both yes and no"), only UNSURE_AT with "u", only NEG_AT with
 * "f" ("false") or "s" ("surely not"), only POS_AT with "r" ("right"); BOTH and UNSURE_AT match 8 characters at
 * least ("not sure"), so a match of "y" in at most 4 is POS_AT's (yes, yeah, yep, yup) and one of "n" in at most 7
 * NEG_AT's (no, nope, nah, not so …). The rest are read in order.
 */
function matchedAt(head: string, n: number, alone: boolean): number {
    switch (head.charCodeAt(0) | 32) {
        case 98:
            return BOTH_G;
        case 117:
            return UNSURE_G;
        case 102:
        case 115:
            return NEG_G;
        case 114:
            return POS_G;
        case 121:
            if (n <= 4) return POS_G;
            break;
        case 110:
            if (n <= 7) return NEG_G;
            break;
    }
    if (matchLength(BOTH_Y, head) >= 0) return BOTH_G;
    if (matchLength(UNSURE_Y, head) >= 0) return UNSURE_G;
    if (alone && matchLength(CONCEDES_Y, head) >= 0) return CONCEDES_G;
    return matchLength(NEG_Y, head) >= 0 ? NEG_G : POS_G;
}

/**
 * The first two characters (lower case; ' for an apostrophe, ' ' for a space) a phrase of an expression anchored at
 * its start may have, as a table for mayStartAt: a cheap test before the expression, where most sentences fail it.
 */
function firstTwo(pairs: string): Uint8Array {
    const table = new Uint8Array(128 * 128);
    for (const p of pairs.split('|')) {
        if (p.length !== 2) throw new Error(`verdict.ts: "${p}" is not two characters`);
        table[(p.charCodeAt(0) << 7) | p.charCodeAt(1)] = 1;
    }
    return table;
}

/** Whether text[at, at + 2) is a pair of `table` (firstTwo): letters of either case, any apostrophe, any space. */
function mayStartAt(table: Uint8Array, text: string, at: number): boolean {
    if (at + 1 >= text.length) return false;
    const a = text.charCodeAt(at) | 32;
    if (a >= 128) return false;
    const c = text.charCodeAt(at + 1);
    const b = c < 128 ? (c === 32 || (c >= 9 && c <= 13) ? 32 : c | 32) : c === 0x2019 ? 39 : isSpace(c) ? 32 : -1;
    return b >= 0 && table[(a << 7) | b] === 1;
}

/**
 * Where a phrase of BOTH, UNSURE_AT, CONCEDES, NEG_AT or POS_AT may start: ab(solutely) af(firmative) bo(th)
 * ce(rtainly) co(rrect) de(finitely) do(n't know) fa(lse) "i " i' im in(deed, correct) it na(h) ne(gative) no of
 * ri(ght) su(rely) th(at, is, e) tr(ue) un(sure, certain) ye(s) yu(p).
 */
const VERDICT_START = firstTwo("ab|af|bo|ce|co|de|do|fa|i |i'|im|in|it|na|ne|no|of|ri|su|th|tr|un|ye|yu");
/** Where OPENER may match: actually, well, oh, hmm, ok, so, sure, honestly, in short, short answer, nope, I'm, I am, I think …, almost, most / very likely, quite possibly, probably, likely, to my knowledge, as far as, if I recall. */
const OPENER_START = firstTwo("ac|we|oh|hm|ok|so|su|ho|in|sh|no|i'|i |al|mo|ve|qu|pr|li|to|as|if");
/** Where BOILERPLATE may match: its words' first two characters (sure, certainly, of course, …, first). */
const BOILERPLATE_START = firstTwo("su|ce|of|ab|gr|go|ex|in|i'|id|i |im|ha|gl|th|hm|we|ok|al|le|to|yo|he|be|st|fi");

/** An expression anchored at its start ("^…") as a sticky one, read at lastIndex (matchLength). */
function sticky(re: RegExp): RegExp {
    if (!re.source.startsWith('^')) throw new Error(`not anchored: ${re.source}`);
    return new RegExp(re.source.slice(1), `${re.flags}y`);
}

/** The length of `re`'s match at `at` in `s` (re sticky), or -1. */
function matchLength(re: RegExp, s: string, at = 0): number {
    re.lastIndex = at;
    return re.test(s) ? re.lastIndex - at : -1;
}

/** ALONE.test(head.slice(n)): the verdict word of length n stands alone. */
function alonePast(head: string, n: number): boolean {
    ALONE_Y.lastIndex = n;
    return ALONE_Y.test(head);
}

/**
 * A verdict tagged onto the end of a sentence after a dash or colon, standing alone to the sentence's end ("… the
 * claim that it came out in 2012 is false — No."): the sentence's own verdict, as if it were a sentence of its own.
 */
function taggedVerdict(text: string, u: Unit): { polarity: Polarity; start: number; end: number } | undefined {
    let i = u.end - 1;
    // the last dash or colon of the sentence, after its first character
    for (; i > u.start; i--) {
        const c = text.charCodeAt(i);
        if (c === 0x2014 || c === 0x2013 || c === 58 || (c === 45 && isSpace(text.charCodeAt(i - 1)))) break;
    }
    if (i <= u.start) return undefined;
    let at = i + 1;
    while (at < u.end && isSpace(text.charCodeAt(at))) at++;
    TAG_WORDS_Y.lastIndex = at;
    if (!TAG_WORDS_Y.test(text)) return undefined;
    const v = verdictAt(text, at, true);
    return v && v.polarity !== 'unsure' && TAG_END.test(text.slice(v.end, u.end)) ? v : undefined;
}

/** "the statement is false" style verdicts in [a, b). */
function statementVerdicts(text: string, a: number, b: number, hint = STATEMENT_HINT.test(text)): VerdictRead[] {
    const out: VerdictRead[] = [];
    if (!hint) return out;
    STATEMENT.lastIndex = 0;
    const piece = text.slice(a, b);
    for (let v = STATEMENT.exec(piece); v; v = STATEMENT.exec(piece)) {
        if (v[1]) continue;
        const w = v[3]!.toLowerCase();
        const positive = (w === 'true' || w === 'correct' || w === 'accurate') !== !!v[2];
        const lead = v[0].length - v[0].trimStart().length;
        out.push({
            polarity: positive ? 'pos' : 'neg',
            span: [a + v.index + lead, a + v.index + v[0].length],
            role: 'statement',
            hedged: false,
        });
    }
    return out;
}

/**
 * Where a marked conclusion's verdict would start: after each marker ("so", "therefore", "the answer is",
 * "**Answer:**", "I'd go with" …) and its glue, in order. Choice reads the option named there (answer.ts readChoice),
 * a short answer the value named there (answer.ts readShort). `markers`, when given, receives where each start's
 * marker begins (the marked words are text[markers[i], starts[i]]: "so the answer is probably ").
 */
export function conclusionStarts(text: string, hint = MARKER_HINT.test(text), markers?: number[]): number[] {
    const out: number[] = [];
    if (!hint) return out;
    MARKER.lastIndex = 0;
    // exec, not matchAll: matchAll copies the expression on every call
    for (let m = MARKER.exec(text); m; m = MARKER.exec(text)) {
        const markerEnd = m.index + m[0].length;
        if (THEN_END.test(m[0]) && !conditionBefore(text, m.index)) continue;
        const glue = glueLength(text, markerEnd);
        const at = markerEnd + (glue > 0 ? glue : 0);
        if (out[out.length - 1] !== at) {
            out.push(at);
            markers?.push(m.index);
        }
    }
    return out;
}

/** A marker that is "then": a conclusion only as the consequent of a condition. */
const THEN_END = /then$/i;
/** A condition ("if", "when", "since", "assuming", "given", "provided") opens the clause "then" concludes. */
const CONDITION = /\b(?:if|when(?:ever)?|since|as\s+long\s+as|assuming|given|provided)\b/i;
/** Is there a condition earlier in the sentence that holds `at` ("If we count the loan, then yes")? */
function conditionBefore(text: string, at: number): boolean {
    let start = at;
    while (start > 0 && !endsSentenceAt(text, start - 1)) start--;
    return CONDITION.test(text.slice(start, at));
}

/**
 * `matchLength(GLUE_Y, text.slice(at, at + 80))` without the slice: GLUE has no look-around, \b or $, so a match in
 * the whole text that ends inside the 80 characters is the one the slice gives (every path tried before it fails
 * there too); a longer one is read in the slice.
 */
function glueLength(text: string, at: number): number {
    const n = matchLength(GLUE_Y, text, at);
    return n <= 80 ? n : matchLength(GLUE_Y, text.slice(at, at + 80));
}

/** A sentence that only introduces the answer (politeness, "let me think", a restated question). */
export function introduces(sentence: string): boolean {
    const s = sentence.trim();
    return s.endsWith('?') || BOILERPLATE.test(s);
}

/** Marked conclusions anywhere in the text, in order; `known`: the verdict at `knownAt` (verdictAt), when read already. */
function conclusions(text: string, hint: boolean, knownAt = -1, known?: { polarity: Polarity; end: number }): VerdictRead[] {
    const out: VerdictRead[] = [];
    for (const at of conclusionStarts(text, hint)) {
        const v = (at === knownAt ? known : verdictAt(text, at, false)) ?? statementAtConclusion(text, at);
        if (!v) continue;
        // "so no one …", "therefore no movie …": a verdict only when it stands alone or is a whole phrase
        if (
            v.end - at <= 3 &&
            YES_OR_NO.test(text.slice(at, v.end)) &&
            !ALONE.test(text.slice(v.end, v.end + 3)) &&
            !SUBJECT_NEXT.test(text.slice(v.end, v.end + 20))
        )
            continue;
        out.push({ polarity: v.polarity, span: [at, v.end], role: 'conclusion', hedged: false });
    }
    return out;
}

function statementAtConclusion(text: string, at: number): { polarity: Polarity; end: number } | undefined {
    const s = statementVerdicts(text, at, Math.min(text.length, at + 80))[0];
    return s && s.span[0] - at < 4 ? { polarity: s.polarity, end: s.span[1] } : undefined;
}

/** A committed statement of (non-)existence in [a, b): the verdict it implies for the question asked. */
function committed(text: string, a: number, b: number, ctx: VerdictContext): VerdictRead | undefined {
    const piece = text.slice(a, b);
    if (!EXISTS_HINT.test(piece)) return undefined;
    const not = EXISTS_NOT.exec(piece);
    const yes = not ? undefined : EXISTS.exec(piece);
    const m = not ?? yes;
    if (!m) return undefined;
    let polarity: Polarity = not ? 'neg' : 'pos';
    const q = ctx.question?.replace(IS_IT_TRUE, ' ');
    if (q !== undefined && NEGATED_QUESTION.test(q)) polarity = polarity === 'neg' ? 'pos' : 'neg';
    return { polarity, span: [a + m.index, a + m.index + m[0].length], role: 'committed', hedged: false };
}

/** "Certainly!" alone, before a sentence that offers help: politeness, not a verdict. */
const POLITE = /^(?:certainly|of\s+course|absolutely|great|good|excellent)\s*[!.,]?\s*$/i;
const HELP = /^(?:i'?d\s+be|i\s+would\s+be|i\s+can|i'?ll|let(?:'s|\s+me)|here(?:'s|\s+is)|happy\s+to|glad\s+to)\b/i;

function isBoilerplate(text: string, u: Unit, next: Unit | undefined): boolean {
    const s = text.slice(u.start, u.end).trim();
    if (next && POLITE.test(s) && HELP.test(text.slice(next.start, next.end))) return true;
    // (s is trimmed: "?" at its end is /\?\s*$/)
    if (s.endsWith('?')) return true;
    if (
        hashBefore(text, u.start) &&
        HEADING.test(text.slice(Math.max(0, u.start - 7), u.start + 1).trimStart()) &&
        !verdictAt(text, u.start, false)
    )
        return true;
    return mayStartAt(BOILERPLATE_START, s, 0) && BOILERPLATE.test(s);
}

/** A "#" in the eight characters a heading's marks would take before `at` (and at it): a cheap test before HEADING. */
function hashBefore(text: string, at: number): boolean {
    for (let i = Math.max(0, at - 7), e = Math.min(text.length, at + 1); i < e; i++) if (text.charCodeAt(i) === 35) return true;
    return false;
}

/** A caveat in text[a, b): a decline or a hedge word. */
export function hedgedNear(text: string, a: number, b: number): boolean {
    const piece = text.slice(a, b);
    return hinted(MAYBE_HEDGED, piece) && (notAnswering(piece) !== undefined || HEDGE_WORDS.test(piece));
}

/** `/\?\s*$/.test(text.slice(a, b))`: the piece ends with a question mark (spaces after it aside). */
function asksAt(text: string, a: number, b: number): boolean {
    let i = Math.min(b, text.length) - 1;
    while (i >= a && isSpace(text.charCodeAt(i))) i--;
    return i >= a && text.charCodeAt(i) === 63;
}

/**
 * The words a plain opening verdict starts with: "Yes", "No", "True", "False", and the plain abstentions
 * ("Unsure", "Not sure", "I don't know"). None of them starts an opener ("Actually,", "I think") or a sentence
 * of boilerplate, so when one opens the answer its first sentence is the opening and the verdict stands there.
 */
const PLAIN_OPENING = /^(?:yes|no|true|false|unsure|uncertain|not\s+sure|(?:i\s+)?don'?t\s+know|dont\s+know)\b/i;
const PLAIN_OPENING_Y = sticky(PLAIN_OPENING);
/** The letters a plain opening starts with (lower case; `code | 32` folds an upper-case letter onto them). */
const PLAIN_START: Record<number, true> = Object.fromEntries([...'yntfuid'].map(c => [c.charCodeAt(0), true]));
/** Whatever may make a marked conclusion (MARKER_HINT), a statement verdict (STATEMENT_HINT) or a withdrawal ("either way", "one way or the other"), in one test. */
/** STATEMENT_HINT (group 1) or MARKER_HINT, in one scan. */
const STATEMENT_OR_MARKER = new RegExp(`(${STATEMENT_HINT.source})|${MARKER_HINT.source}`, 'i');
const STATEMENT_HINT_G = new RegExp(STATEMENT_HINT.source, 'gi');
const MARKER_HINT_G = new RegExp(MARKER_HINT.source, 'gi');
/** Does `re` (global) find a match at or after `from`? */
function foundFrom(re: RegExp, text: string, from: number): boolean {
    re.lastIndex = from;
    return re.test(text);
}
const FAR_HINT = new RegExp(`${MARKER_HINT.source}|${STATEMENT_HINT.source}|one\\s+way`, 'i');
/**
 * FAR_HINT, or a sentence anywhere that may open with a verdict (LATER_HINT after a sentence's end): one scan of
 * the answer. When it finds neither, no marker is anywhere and no later sentence may hold a verdict (the rest after
 * the first sentence starts just after a sentence end, so LATER_HINT on it finds what this finds there).
 */
const QUIET_AFTER_OPENING = new RegExp(`(${FAR_HINT.source})|[.!?\\n:;\\u2013\\u2014-]\\s*${LATER_WORDS}`, 'i');

/**
 * The fast path for the commonest answers: a plain verdict word opens it ("Yes, Nolan directed it.", "No.",
 * "**False** — …", "Unsure.", "Answer: No, …"), and nothing after the opening sentence could be an unmarked
 * verdict (no sentence opening with a verdict word, no "the statement is …"). Without a conclusion marker
 * anywhere the rule chooses the opening; with one (an answer label, "so yes" …) the marked conclusions are read
 * as the full rule reads them, and the last decides. Either way it is decided without cutting and weighing the
 * rest sentence by sentence. It decides exactly as the full rule does — the same helpers on the same spans
 * (test/unit/reader/fast-path.test.ts compares the two on every answer of the tests and the corpus); anything
 * else — a first sentence that asks a question, a statement verdict anywhere, a later sentence that may hold a
 * verdict — goes the full way.
 */
function plainOpening(text: string): VerdictFinding | undefined {
    const e0 = Math.min(text.length, 200);
    const s = leadEnd(text, 0, e0, e0);
    if (s >= text.length || !PLAIN_START[text.charCodeAt(s) | 32]) return undefined;
    // (read in place, not in a slice of 14 characters: a match of at most 14 there is one in the slice too)
    const plain = matchLength(PLAIN_OPENING_Y, text, s);
    if (plain <= 0 || plain > 14) return undefined;
    // one scan for the commonest answer: no marker anywhere, no later sentence that may open with a verdict
    const loud = QUIET_AFTER_OPENING.exec(text);
    // (the first thing found is FAR_HINT's: no need to look for it again)
    const far = loud !== null && (loud[1] !== undefined || FAR_HINT.test(text));
    // a statement verdict may stand anywhere: the full way
    if (far && STATEMENT_HINT.test(text)) return undefined;
    const end = firstSentenceEnd(text, s);
    // a first sentence that asks a question is boilerplate: the opening is later
    if (asksAt(text, s, end)) return undefined;
    const v = verdictAt(text, s, false);
    // a later sentence that may open with a verdict
    if (!v || (loud !== null && LATER_HINT.test(text.slice(end)))) return undefined;
    let opening: VerdictRead;
    // the next unit as Units cuts it (start -1: not cut here; text.length: there is none)
    let ns = -1;
    let nextEnd = end;
    if (v.polarity === 'unsure') opening = { polarity: 'unsure', span: [v.start, v.end], role: 'opening', hedged: false };
    else {
        // the caveat window: to the end of the next sentence, as the full rule reads it
        ns = text.length;
        if (end < text.length) {
            const e = Math.min(text.length, end + 200);
            ns = leadEnd(text, end, e, e);
            if (ns < text.length) nextEnd = firstSentenceEnd(text, ns);
        }
        opening = { polarity: v.polarity, span: [v.start, v.end], role: 'opening', hedged: hedgedNear(text, v.end, nextEnd) };
    }
    const rationaleStart = afterSpan(text, v.end);
    // (no marker and no "one way": nothing to conclude, nothing withdrawn)
    const marked = far ? conclusions(text, true, s, v) : NO_READ;
    if (marked.length > 0) {
        // as the full rule weighs them: no decline, no later scan (so the first six units)
        const read = [opening];
        // (the units cut here, as Units cuts them: the first sentence, and the next when the caveat window read it)
        const cut: Unit[] = [{ start: s, end }];
        if (ns >= 0 && ns < text.length) cut.push({ start: ns, end: nextEnd });
        const us = new Units(text, cut, ns < 0 ? end : ns < text.length ? nextEnd : text.length);
        weighMarked(text, us, marked, undefined, 6, read);
        if (!inOrder(read)) read.sort(byStart);
        return settled(text, concluded(text, marked[marked.length - 1]!, opening, read, rationaleStart));
    }
    const why = opensWith(text, opening);
    if (opening.polarity === 'unsure')
        return { chosen: opening, outcome: 'decline', read: [opening], why, rationaleStart, stance: 'abstain' };
    const f = chosenFinding(opening, [opening], why, rationaleStart);
    return far ? settled(text, f) : f;
}
const NO_READ: VerdictRead[] = [];

/**
 * Finds the verdict of a closed answer: every candidate span, and the one the rule chooses (module comment).
 * `fast` false: always the full reading (tests compare the fast path with it).
 */
export function findVerdict(text: string, ctx: VerdictContext = {}, fast = true): VerdictFinding {
    return (fast ? plainOpening(text) : undefined) ?? settled(text, fullVerdict(text, ctx));
}

/** A finding, unless its verdict is taken back later (withdrawn). */
function settled(text: string, f: VerdictFinding): VerdictFinding {
    return f.chosen && f.chosen.polarity !== 'unsure' && EITHER_WAY.test(text) ? withdrawn(text, f, f.chosen) : f;
}

/** Marked conclusions into `read`, each hedged by a caveat in its unit (among the first `weighed`) or after a decline. */
function weighMarked(
    text: string,
    us: Units,
    marked: VerdictRead[],
    decline: { span: [number, number] } | undefined,
    weighed: number,
    read: VerdictRead[],
): void {
    for (const m of marked) {
        const u = us.holding(m.span[0], weighed);
        m.hedged = u ? hedgedNear(text, u.start, m.span[1]) || (decline !== undefined && m.span[0] > decline.span[0]) : false;
        read.push(m);
    }
}

/** The answer says its verdict depends on a case ("it depends on which director"). */
const DEPENDS = /\bit\s+(?:all\s+)?depends\b|\bdepends\s+on\s+(?:which|who|whom|what|how|whether|when)\b/i;

/**
 * The last marked conclusion decides, over the opening — unless the answer has said its verdict depends on a case
 * and the conclusion stands under a condition ("If you mean the first, the answer is yes"): one case, no commitment.
 */
function concluded(
    text: string,
    conclusion: VerdictRead,
    opening: VerdictRead | undefined,
    read: VerdictRead[],
    rationaleStart: number,
): VerdictFinding {
    const depends = DEPENDS.exec(text);
    if (depends && depends.index < conclusion.span[0] && conditionBefore(text, conclusion.span[0]))
        return {
            outcome: 'conflict',
            stance: 'none',
            read,
            why: `says "${depends[0]}", and its conclusion ${say(text, conclusion)} is one case under a condition, not a verdict`,
            rationaleStart,
        };
    const other =
        opening && opening.polarity !== conclusion.polarity && opening.polarity !== 'unsure'
            ? `; the opening ${say(text, opening)} is overruled`
            : '';
    return chosenFinding(conclusion, read, `a marked conclusion ${say(text, conclusion)} decides${other}`, rationaleStart);
}

/** Every withdrawal (WITHDRAW) holds one of these. */
const EITHER_WAY = /either|one\s+way/i;

/** A verdict taken back after it was given ("… Still, I can't commit either way."): unsure, both spans recorded. */
function withdrawn(text: string, f: VerdictFinding, chosen: VerdictRead): VerdictFinding {
    const w = WITHDRAW.exec(text.slice(chosen.span[1]));
    if (!w) return f;
    const span: [number, number] = [chosen.span[1] + w.index, chosen.span[1] + w.index + w[0].length];
    const read = [...f.read, { polarity: 'unsure' as const, span, role: 'decline' as const, hedged: false }];
    return {
        outcome: 'decline',
        stance: 'abstain',
        read,
        why: `gives "${text.slice(chosen.span[0], chosen.span[1]).trim()}", then takes it back: "${w[0]}"`,
        rationaleStart: f.rationaleStart,
    };
}

const byStart = (a: VerdictRead, b: VerdictRead): number => a.span[0] - b.span[0];

function inOrder(read: VerdictRead[]): boolean {
    for (let i = 1; i < read.length; i++) if (read[i - 1]!.span[0] > read[i]!.span[0]) return false;
    return true;
}

/** A span's words, quoted, for a why. */
function say(text: string, v: VerdictRead): string {
    return `"${text.slice(v.span[0], v.span[1]).trim()}"`;
}

/** The commonest openings, as `opens with ${say(…)}` writes them: one string each, not one per answer; by length. */
const OPENS_WITH: [string, string][][] = [];
for (const w of ['Yes', 'No', 'yes', 'no', 'YES', 'NO', 'True', 'False', 'true', 'false', 'Unsure', 'unsure'])
    (OPENS_WITH[w.length] ??= []).push([w, `opens with "${w}"`]);

/** `opens with ${say(text, v)}`. */
function opensWith(text: string, v: VerdictRead): string {
    const [a, b] = v.span;
    // (a span as long as a common word: its why is made already; the span's own words are not sliced to find it)
    const same = OPENS_WITH[b - a];
    if (same) for (const [w, why] of same) if (text.startsWith(w, a)) return why;
    return `opens with ${say(text, v)}`;
}

/** The finding when `v` is chosen (module functions, not closures per answer: the reader is on the hot path). */
function chosenFinding(v: VerdictRead, read: VerdictRead[], why: string, rationaleStart: number): VerdictFinding {
    return {
        chosen: v,
        outcome: 'verdict',
        read,
        why,
        rationaleStart,
        stance: v.polarity === 'unsure' ? 'abstain' : v.hedged ? 'hedged' : 'answer',
    };
}

function fullVerdict(text: string, ctx: VerdictContext): VerdictFinding {
    const us = new Units(text);
    const read: VerdictRead[] = [];
    const u0 = us.get(0);
    if (!u0) return { outcome: 'none', stance: 'none', why: 'empty response', read, rationaleStart: 0 };

    // the opening: the first unit that is not boilerplate
    let oi = 0;
    while (oi < 4 && us.get(oi + 1) && isBoilerplate(text, us.get(oi)!, us.get(oi + 1))) oi++;
    const ou = us.get(oi)!;
    let opening: VerdictRead | undefined;
    let decline: { stance: 'abstain' | 'refuse'; span: [number, number] } | undefined;
    const lead = mayStartAt(OPENER_START, text, ou.start) ? (OPENER.exec(text.slice(ou.start, ou.end))?.[0].length ?? 0) : 0;
    const ov = verdictAt(text, ou.start + lead, false) ?? verdictAfterColon(text, ou);
    if (ov) {
        // a caveat in the verdict's sentence or the next makes it hedged
        const next = us.get(oi + 1);
        const hedged = ov.polarity !== 'unsure' && hedgedNear(text, ov.end, next ? next.end : ou.end);
        opening = {
            polarity: ov.polarity,
            span: [ov.start, ov.end],
            role: 'opening',
            hedged: hedged || HEDGE_WORDS.test(text.slice(ou.start, ov.start)),
        };
    } else {
        const d = notAnswering(text.slice(ou.start, ou.end));
        if (d) {
            decline = { stance: d.stance, span: [ou.start + d.span[0], ou.start + d.span[1]] };
            // the clause that commits anyway, in this sentence or the next
            const rest = text.slice(decline.span[1], (us.get(oi + 1) ?? ou).end);
            const but = BUT_HINT.test(rest) ? BUT.exec(rest) : null;
            if (but && but.index < 80) {
                const from = decline.span[1] + but.index + but[0].length;
                const at = from + (HEDGE_LEAD.exec(text.slice(from, from + 60))?.[0].length ?? 0);
                const v = verdictAt(text, at, false);
                const cEnd = firstSentenceEnd(text, at);
                const c = v
                    ? {
                          polarity: v.polarity,
                          span: [v.start, v.end] as [number, number],
                          role: 'committed' as const,
                          hedged: true,
                      }
                    : committed(text, at, cEnd, ctx);
                if (c && c.polarity !== 'unsure') opening = { ...c, hedged: true };
            }
            read.push({ polarity: 'unsure', span: decline.span, role: 'decline', hedged: false });
        } else {
            const c = committed(text, ou.start, ou.end, ctx);
            if (c) opening = c;
        }
    }
    if (opening) read.push(opening);

    // later verdicts: sentences that are a verdict on their own, and "the statement is …" anywhere
    const later: VerdictRead[] = [];
    // the later sentences only when one may open with a verdict, or a statement verdict may stand anywhere
    const laterFrom = oi + (opening?.role === 'opening' ? 1 : 0);
    // a statement verdict or a marker may stand anywhere: one scan when neither can (the first found tells one)
    const either = STATEMENT_OR_MARKER.exec(text);
    // (nothing of the other kind starts before what was found first: the rest is looked at from there)
    const statementHint = either !== null && (either[1] !== undefined || foundFrom(STATEMENT_HINT_G, text, either.index));
    const markerHint = either !== null && (either[1] === undefined || foundFrom(MARKER_HINT_G, text, either.index));
    const scanLater = LATER_HINT.test(text.slice(opening?.role === 'opening' ? ou.end : ou.start)) || statementHint;
    // without the later scan, only the first six units are weighed (a marker's caveat is looked for there)
    const weighed = scanLater ? 60 : 6;
    for (let i = laterFrom, u = scanLater ? us.get(i) : undefined; u; u = us.get(++i)) {
        if (i > oi || !opening) {
            const v = verdictAt(text, u.start, true) ?? taggedVerdict(text, u);
            if (v && v.polarity !== 'unsure')
                later.push({
                    polarity: v.polarity,
                    span: [u.start, v.end],
                    role: 'later',
                    hedged: hedgedNear(text, u.start, u.end),
                });
        }
        for (const s of statementVerdicts(text, u.start, u.end, statementHint)) {
            if (opening && s.span[0] < opening.span[1] + 2) continue;
            later.push({ ...s, hedged: hedgedNear(text, u.start, u.end) });
        }
    }
    const marked = conclusions(text, markerHint);
    weighMarked(text, us, marked, decline, weighed, read);
    for (const l of later) if (!marked.some(m => m.span[0] <= l.span[0] && l.span[0] < m.span[1] + 2)) read.push(l);
    // (a stable sort leaves an ordered list as it is: most answers read one or two spans, in order)
    if (!inOrder(read)) read.sort(byStart);

    const conclusion = marked[marked.length - 1];
    if (conclusion)
        return concluded(
            text,
            conclusion,
            opening,
            read,
            opening?.role === 'opening' ? afterSpan(text, opening.span[1]) : u0.start,
        );
    const unmarked = read.filter(r => (r.role === 'later' || r.role === 'statement') && r.polarity !== 'unsure');
    if (opening && opening.polarity !== 'unsure') {
        const against = unmarked.find(r => r.polarity !== opening!.polarity);
        if (against)
            return {
                outcome: 'conflict',
                stance: 'none',
                read,
                why: `conflicting verdicts ${say(text, opening)} and ${say(text, against)}, none marked as the conclusion`,
                rationaleStart: u0.start,
            };
        const why =
            opening.role === 'opening'
                ? oi > 0
                    ? `opens with ${say(text, opening)} after an introduction`
                    : opensWith(text, opening)
                : decline
                  ? `commits to ${say(text, opening)} after ${decline.stance === 'refuse' ? 'a refusal' : 'a doubt'} (a hedged verdict)`
                  : `states ${say(text, opening)} (no verdict word)`;
        return chosenFinding(opening, read, why, opening.role === 'opening' ? afterSpan(text, opening.span[1]) : u0.start);
    }
    if (opening?.polarity === 'unsure')
        return {
            ...chosenFinding(opening, read, opensWith(text, opening), afterSpan(text, opening.span[1])),
            outcome: 'decline',
        };
    if (unmarked.length > 0) {
        const first = unmarked[0]!;
        const against = unmarked.find(r => r.polarity !== first.polarity);
        if (against)
            return {
                outcome: 'conflict',
                stance: 'none',
                read,
                why: `conflicting verdicts ${say(text, first)} and ${say(text, against)}, none marked as the conclusion`,
                rationaleStart: u0.start,
            };
        const v = decline ? { ...first, hedged: true } : first;
        return chosenFinding(
            v,
            read,
            decline
                ? `commits to ${say(text, first)} after ${decline.stance === 'refuse' ? 'a refusal' : 'a doubt'} (a hedged verdict)`
                : `a verdict ${say(text, first)} after the opening`,
            u0.start,
        );
    }
    if (decline) {
        return {
            outcome: 'decline',
            stance: decline.stance,
            read,
            why: decline.stance === 'refuse' ? 'refuses in its first sentence' : 'says it does not know in its first sentence',
            rationaleStart: afterSpan(text, decline.span[1]),
        };
    }
    // a decline later in the first sentences, with no verdict anywhere
    const d = notAnswering(text.slice(u0.start, (us.get(oi + 1) ?? ou).end));
    if (d) {
        const span: [number, number] = [u0.start + d.span[0], u0.start + d.span[1]];
        read.push({ polarity: 'unsure', span, role: 'decline', hedged: false });
        return {
            outcome: 'decline',
            stance: d.stance,
            read,
            why: d.stance === 'refuse' ? 'refuses and commits to no verdict' : 'says it does not know and commits to no verdict',
            rationaleStart: afterSpan(text, span[1]),
        };
    }
    // no verdict word anywhere: the opening may assert the question's proposition, or its negation
    const said = ctx.proposition ? statesProposition(text, ou.start, ou.end, ctx.proposition) : undefined;
    if (said) {
        const v: VerdictRead = {
            polarity: said,
            span: [ou.start, ou.end],
            role: 'committed',
            hedged: hedgedNear(text, ou.start, ou.end),
        };
        read.push(v);
        return chosenFinding(
            v,
            read,
            `states the question's proposition${said === 'neg' ? ', negated' : ''} (no verdict word): ${say(text, v)}`,
            u0.start,
        );
    }
    return {
        outcome: 'none',
        stance: 'none',
        why: 'no verdict: none at the opening, none marked as the conclusion, none stated later',
        read,
        rationaleStart: u0.start,
    };
}

/**
 * The rule's hand-made shortcuts and the expressions they stand for, for the test that reads each against its
 * expression (test/unit/reader/verdict-shortcuts.test.ts): the first-two-character tables before OPENER, BOILERPLATE
 * and verdictAt's expressions, and how matchedAt tells which of those matched.
 */
export const SHORTCUTS = {
    mayStartAt,
    matchedAt,
    tables: [
        { name: 'VERDICT_START', table: VERDICT_START, expressions: [BOTH, UNSURE_AT, CONCEDES, NEG_AT, POS_AT] },
        { name: 'OPENER_START', table: OPENER_START, expressions: [OPENER] },
        { name: 'BOILERPLATE_START', table: BOILERPLATE_START, expressions: [BOILERPLATE] },
    ],
    verdictAt: { VERDICT_AT, VERDICT_AT_ALONE, BOTH, UNSURE_AT, CONCEDES, NEG_AT, POS_AT },
};
