/**
 * Answer readers (issue 28 item 1): every reader returns what it read, where (a [start, end) span of the
 * response, empty when nothing was read), why (a short reason a person can check), and where the rationale
 * starts. One taxonomy for not answering, shared by every family:
 *   - abstain: the model says it does not know ("I don't know", "not sure", "cannot verify");
 *   - refuse: the model declines to answer ("I'm sorry, I can't help with that", "As an AI …");
 *   - hedged: an answer with a caveat ("Yes, although I cannot verify the year") — an answer, not a missing one.
 * Each family maps these onto its paper's M / IDK rule (`stance` below; docs/verification.md).
 */

import type { Stance } from './types.js';

export interface Reading<L extends string = string> {
    label: L;
    /** [start, end) of the words read as the answer; [i, i] when nothing was read. */
    span: [number, number];
    why: string;
    stance: Stance;
    /** Offset where the rationale (the text after the answer) starts. */
    rationaleStart: number;
    /** Every candidate verdict span weighed (verdict.ts), when the rule of where the verdict is read it. */
    read?: VerdictRead[];
}

export type YesNo = 'yes' | 'no' | 'unsure' | 'unparseable';
export type Truth = 'true' | 'false' | 'dont_know' | 'unparseable';
type ChoiceLabel = 'option' | 'multiple' | 'none' | 'binding' | 'unsure' | 'unparseable';

export interface ChoiceReading extends Reading<ChoiceLabel> {
    /** 'option' / 'binding': the option named (1-based); 'multiple': every option named. */
    option?: number;
    options?: number[];
}

import { after, endsSentenceAt, firstSentenceEnd, isSpace, notAnswering, plainApostrophes, skipLead } from './text.js';
import { reportedSpans, withoutDenied } from './denial.js';
import type { Proposition } from './proposition.js';
import {
    conclusionStarts,
    findVerdict,
    hedgedNear,
    introduces,
    type Polarity,
    type VerdictFinding,
    type VerdictRead,
} from './verdict.js';

// (expressions used inside functions: one object each, not one per call)
/** What may trail an answer's value: white space, a full stop, "!", quotes, Markdown. */
const TRAILING_MARK = /[\s.!"'\u201d\u2019*_]/;
/** What may open a quoted or marked value. */
const LEADING_MARK = /["'\u201c\u2018*_]/;
const OPTION_LEAD = /^[\s*_"'(\[]*/;
const LINE_LEAD = /^[\s*_`#>•-]*/;

export { firstSentenceEnd, notAnswering, saysNoWord, skipLead } from './text.js';

// ---------------------------------------------------------------- yes / no

/** How a closed answer is read: robust (default: verdict.ts's rule of where the verdict is) or the paper's own rule. */
type AnswerRule = 'robust' | 'paper';

export interface ClosedOptions {
    /** 'paper': the authors' rule (ERBench: the first word; GraphEval: don't-know first, then the first sentence). */
    rule?: AnswerRule;
    /** The question asked (a negated question turns a committed "there is no …" into yes). */
    question?: string;
    /** The question's proposition, when the family knows it (proposition.ts): an answer with no verdict word may assert it. */
    proposition?: Proposition;
}

/** Paper rule: "yes/unsure" and "no/unsure" mean unsure. */
const HEDGED_PAIR = /^(?:yes|no)\s*\/\s*unsure\b/i;
const BINARY = /^(yes|no|unsure)\b/i;

function reading<L extends string>(
    label: L,
    span: [number, number],
    why: string,
    stance: Stance,
    rationaleStart: number,
    read?: VerdictRead[],
): Reading<L> {
    return read && read.length > 0
        ? { label, span, why, stance, rationaleStart, read }
        : { label, span, why, stance, rationaleStart };
}

/** A verdict finding in a family's labels: polarity → label, a conflict or nothing → unparseable. */
function fromFinding<L extends string>(text: string, f: VerdictFinding, labels: Record<Polarity, L>, unreadable: L): Reading<L> {
    if (f.chosen) return reading(labels[f.chosen.polarity], f.chosen.span, f.why, f.stance, f.rationaleStart, f.read);
    const start = skipLead(text);
    if (f.outcome === 'decline') {
        const d = f.read.find(r => r.role === 'decline');
        return reading(labels.unsure, d ? d.span : [start, start], f.why, f.stance, f.rationaleStart, f.read);
    }
    return reading(unreadable, [start, start], f.why, 'none', f.rationaleStart, f.read);
}

/**
 * Yes / no / unsure. Robust (default): "yes/unsure" → unsure (the paper's rule), then where the verdict is
 * (verdict.ts: a marked conclusion over the opening, a verdict after a refusal is hedged, conflicting unmarked
 * verdicts unreadable). Paper: the ERBench authors' rule wherever it reads an answer — decoration and "yes/no:"
 * labels dropped, the first word decides, over any conclusion or later verdict (a chain of thought opening "Yes,
 * …" and concluding "The answer is no." is yes in the paper's tables); an answer with no yes / no / unsure as its
 * first word, which the authors count unsure, is read by the robust rule.
 */
export function readYesNo(answer: string, options: ClosedOptions = {}): Reading<YesNo> {
    const response = options.rule === 'paper' ? answer : plainApostrophes(answer);
    const start = skipLead(response);
    // both expressions start with yes / no (the paper's also with unsure): a cheap test of the first letter first
    const first = start < response.length ? response.charCodeAt(start) | 32 : 0;
    if (first !== 121 && first !== 110 && !(first === 117 && options.rule === 'paper')) return byVerdictRule(response, options);
    // (the pair has a "/" in the head: most answers are spared the expression, and the head's slice under the robust rule)
    const slash = response.indexOf('/', start);
    const paper = options.rule === 'paper';
    const head = paper || (slash >= 0 && slash < start + 160) ? response.slice(start, start + 160) : '';
    const pair = slash >= 0 && slash < start + 160 ? HEDGED_PAIR.exec(head) : null;
    if (pair)
        return reading(
            'unsure',
            [start, start + pair[0].length],
            'yes/unsure or no/unsure: unsure (paper rule)',
            'abstain',
            after(response, start + pair[0].length),
        );
    const m = paper ? BINARY.exec(head) : null;
    if (m) {
        const word = m[1]!.toLowerCase() as 'yes' | 'no' | 'unsure';
        const end = start + m[0].length;
        if (word === 'unsure') return reading('unsure', [start, end], 'opens with "unsure"', 'abstain', after(response, end));
        // a caveat in the answer's sentence or the next one makes it a hedged answer
        const first = response.slice(end, firstSentenceEnd(response, firstSentenceEnd(response, end)));
        const caveat = notAnswering(first);
        return reading(
            word,
            [start, end],
            `opens with "${m[1]}" (paper rule: the first word decides)`,
            caveat ? 'hedged' : 'answer',
            after(response, end),
        );
    }
    return byVerdictRule(response, options);
}

const YES_NO_LABELS: Record<Polarity, YesNo> = { pos: 'yes', neg: 'no', unsure: 'unsure' };
const NO_CONTEXT = {};

/** Yes / no by the rule of where the verdict is (verdict.ts). */
function byVerdictRule(response: string, options: ClosedOptions): Reading<YesNo> {
    const ctx =
        options.proposition !== undefined
            ? { ...(options.question !== undefined ? { question: options.question } : {}), proposition: options.proposition }
            : options.question !== undefined
              ? { question: options.question }
              : NO_CONTEXT;
    const f = findVerdict(response, ctx);
    return fromFinding<YesNo>(response, f, YES_NO_LABELS, 'unparseable');
}

// ---------------------------------------------------------------- statements

/** "the statement is true", "this is false", "it is not correct" — not inside "whether / if the statement is true". */
const VERDICT =
    /\b(whether|if)?\s*(?:the\s+(?:given\s+)?statement|this\s+statement|the\s+claim|this\s+claim|this|it|that)\s+(?:is|appears\s+to\s+be|seems\s+to\s+be|would\s+be)\s+(not\s+)?(?:entirely\s+|completely\s+|factually\s+)?(true|false|correct|incorrect|accurate|inaccurate)\b/gi;
const TRUTH_LABELS: Record<Polarity, Truth> = { pos: 'true', neg: 'false', unsure: 'dont_know' };
const OPEN_TRUE = /^(yes|true|correct|indeed)\b(?![-'])/i;
const OPEN_FALSE =
    /^(?:(no|false|incorrect)\b(?=\s*(?:[,.!:;\-\u2013\u2014]|$|the\s+statement|it\s+is|this\s+is))|(false|incorrect)\b)/i;

/**
 * True / false / I don't know (GraphEval). Robust (default): where the verdict is (verdict.ts), with yes / true /
 * correct as true and no / false / incorrect as false; "I'm not sure, but the statement is true" commits (a hedged
 * true). Paper: a response that OPENS with "I don't know" (or any abstention or refusal) is don't-know before
 * anything else — so "I don't know whether the statement is true" is not true (the published parser's bug);
 * then an explicit verdict in the first sentence, then an opening yes / true / no / false.
 */
export function readStatement(answer: string, options: ClosedOptions = {}): Reading<Truth> {
    if (options.rule !== 'paper') {
        const response = plainApostrophes(answer);
        return fromFinding<Truth>(response, findVerdict(response), TRUTH_LABELS, 'unparseable');
    }
    const response = answer;
    const start = skipLead(response);
    const end = firstSentenceEnd(response, start);
    const first = response.slice(start, end);
    const decline = notAnswering(first);
    const opensDeclining = decline !== undefined && decline.span[0] <= 2;
    if (opensDeclining) {
        return reading(
            'dont_know',
            [start + decline.span[0], start + decline.span[1]],
            decline.stance === 'refuse' ? 'opens with a refusal' : 'opens by saying it does not know',
            decline.stance,
            end,
        );
    }
    const stance: Stance = decline ? 'hedged' : 'answer';
    const o = OPEN_TRUE.exec(first) ?? undefined;
    const f = o ? undefined : (OPEN_FALSE.exec(first) ?? undefined);
    for (const v of first.matchAll(VERDICT)) {
        if (v[1]) continue;
        const negated = !!v[2];
        const w = v[3]!.toLowerCase();
        const positive = (w === 'true' || w === 'correct' || w === 'accurate') !== negated;
        const at = start + v.index + v[0].length - v[3]!.length;
        return reading(
            positive ? 'true' : 'false',
            [start + v.index + (v[0].length - v[0].trimStart().length), start + v.index + v[0].length],
            `states "${v[0].trim()}"`,
            stance,
            Math.max(at, end),
        );
    }
    const open = o ?? f;
    if (open) {
        const word = open[0].toLowerCase();
        const positive = o !== undefined;
        return reading(
            positive ? 'true' : 'false',
            [start, start + word.length],
            `opens with "${open[0]}"`,
            stance,
            after(response, start + word.length),
        );
    }
    if (decline)
        return reading(
            'dont_know',
            [start + decline.span[0], start + decline.span[1]],
            'says it does not know and gives no verdict',
            decline.stance,
            end,
        );
    return reading('unparseable', [start, start], 'no verdict in the first sentence', 'none', start);
}

// ---------------------------------------------------------------- short answers

/**
 * A short answer (evidence, closed / open book): labels, quotes and a closing full stop dropped. An answer
 * that only says it does not know, or refuses, is not an answer (unsure); an empty one is unparseable.
 */
/** A sentence that commits after a doubt: "I believe …", "My best guess is …", "Probably …". */
const COMMITS =
    /^(?:i\s+(?:believe|think|suspect|recall)|my\s+(?:best\s+)?guess|probably|most\s+likely|if\s+i\s+had\s+to\s+guess)\b/i;

/** The sentence after `from` when it commits (COMMITS) without declining again, as a [start, end) span. */
function committedNext(response: string, from: number): [number, number] | undefined {
    const a = from + skipLead(response.slice(from));
    const b = firstSentenceEnd(response, a);
    const s = response.slice(a, b);
    if (!COMMITS.test(s) || notAnswering(s) || !OWN_VALUE.test(s)) return undefined;
    let e = b;
    while (e > a && TRAILING_MARK.test(response[e - 1]!)) e--;
    return [a, e];
}

/** A value of the answer's own: a number, or a capitalised word that is not "I". */
const OWN_VALUE = /\d|\s(?!I\b)\p{Lu}/u;
const VALUE_WORDS = /\d+|(?<=\s)(?!I\b)\p{Lu}[\p{L}'\u2019-]*/gu;

/**
 * Does `text` (after its first word) state a value of its own: a number or a capitalised word, not one the question
 * (with its passage) already gave ("I associate Skyfall with another director" names only the question's film)?
 */
function ownValue(text: string, question: string | undefined): boolean {
    const rest = text.replace(/^\s*\S+/, '');
    if (question === undefined) return OWN_VALUE.test(rest);
    const given = new Set(question.toLowerCase().match(/[\p{L}\p{N}'\u2019-]+/gu));
    for (const m of rest.matchAll(VALUE_WORDS)) if (!given.has(m[0].toLowerCase())) return true;
    return false;
}

/**
 * A marked conclusion that names the answer (issue 41, rule 1, for short answers): verdict.ts's marked conclusions
 * (`conclusionStarts`, the one declaration of what marks a conclusion) whose marked words name the answer — "the
 * answer is", "my best guess is", "**Final answer:**", "I'd go with", "so I'd answer" — not a bare "so" or
 * "therefore", which a short answer's reasoning uses for facts ("…, so Pfister shot it"). A guess, pick or bet, or a
 * hedge among the marked words ("the answer is probably"), makes the pick hedged.
 */
const NAMES_ANSWER = /answer|guess|pick|bet|go\s+with/i;
const GUESSED = /\b(?:guess|pick|bet)\b/i;
/** A value's first character (case matters: no `i` flag). */
const VALUE_START = /^(?:\d|\p{Lu})/u;

/**
 * The answer set apart after the reasoning: a last line of its own, after a blank line, that is a value alone (a
 * number or a capitalised name of six words or fewer, no sentence): "…\n\nRoland Emmerich".
 */
function valueLine(response: string): { span: [number, number]; hedged: boolean } | undefined {
    const m = /\n[ \t]*\n[\s*_#>"'`\u201c]*([^\n]{1,60}?)[\s*_"'`\u201d.]*$/.exec(response);
    if (!m) return undefined;
    const line = m[1]!;
    if (!VALUE_START.test(line) || /^I\b/.test(line) || line.split(/\s+/).length > 6 || /[.!?:;]/.test(line)) return undefined;
    if (notAnswering(line)) return undefined;
    const a = m.index + m[0].indexOf(line);
    return { span: [a, a + line.length], hedged: false };
}

/** The last marked conclusion's answer, as a [start, end) span, and whether it is hedged ("my best guess", "probably"). */
function concludedAnswer(response: string): { span: [number, number]; hedged: boolean } | undefined {
    let found: { span: [number, number]; hedged: boolean } | undefined = valueLine(response);
    if (!NAMES_ANSWER.test(response)) return found;
    const markers: number[] = [];
    const starts = conclusionStarts(response, undefined, markers);
    for (let i = 0; i < starts.length; i++) {
        const a = starts[i]!;
        const marked = response.slice(markers[i], a);
        if (!NAMES_ANSWER.test(marked)) continue;
        const next = response.slice(a, a + 3);
        if (!VALUE_START.test(next) || /^I\b/.test(next)) continue;
        let b = firstSentenceEnd(response, a);
        while (b > a && TRAILING_MARK.test(response[b - 1]!)) b--;
        if (b > a && !notAnswering(response.slice(a, b)))
            found = { span: [a, b], hedged: GUESSED.test(marked) || hedgedNear(response, markers[i]!, a) };
    }
    return found;
}

/** A later sentence that commits in the answer's own voice: "To my knowledge, …", "I believe …", "In fact, …". */
const OWN_VOICE =
    /^[\s*_"']*(?:(?:but|however|still),?\s+)?(?:i\s+(?:believe|think|recall|remember)|to\s+my\s+knowledge|in\s+fact|actually|in\s+reality|as\s+far\s+as\s+i\s+know|from\s+(?:memory|what\s+i\s+(?:know|recall|remember)))\b/i;

/** "it was Maria Lund", "It's actually 1997": a value named as the answer (case matters: no `i` flag). */
const IT_WAS =
    /^[\s*_"']*(?:(?:[Bb]ut|[Hh]owever),?\s+)?[Ii]t(?:'s|\u2019s|\s+(?:was|is))\s+(?:actually\s+|really\s+)?(?:\p{Lu}|\d)/u;

/** Does a sentence or clause ("…, but I recall X") from `from` on commit a value in the answer's own voice? */
function ownVoice(response: string, from: number): boolean {
    for (let a = from; a < response.length;) {
        const b = firstSentenceEnd(response, a);
        if (b <= a) break;
        for (const s of response.slice(a, b).split(/,\s*(?=but\b)|\s[\u2014\u2013-]\s|[;:]\s*/))
            if (((OWN_VOICE.test(s) && OWN_VALUE.test(s)) || IT_WAS.test(s)) && !notAnswering(s)) return true;
        a = b;
    }
    return false;
}

/** Doubt about a reported value: "I'm not sure that's right", "doubtful", "I don't recall …", "doesn't match". */
const REPORT_DOUBT =
    /\b(?:not\s+(?:sure|certain|convinced)\s+(?:that|this|it)(?:'s|\u2019s|\s+is)\s+(?:right|correct|accurate)|doubt(?:ful)?|(?:do\s*n[o'\u2019]?t|don'?t)\s+(?:recall|remember|associate)|(?:does\s*n[o'\u2019]?t|doesn'?t)\s+match|conflicts?\s+with|contradicts?)\b/i;

export interface ShortOptions {
    /** The question asked (with its passage): a value it already gives is no value of the answer's own. */
    question?: string;
}

/**
 * `from`: where the answer's words start when they are not the response's (a marked conclusion after reasoning):
 * a family scores the words from there.
 */
export function readShort(
    response: string,
    options: ShortOptions = {},
): Reading<'answer' | 'unsure' | 'unparseable'> & { text: string; from?: number } {
    const start = skipLead(response);
    const body = response.slice(start);
    if (body.trim() === '') return { ...reading('unparseable', [start, start], 'empty', 'none', response.length), text: '' };
    const end = firstSentenceEnd(response, start);
    // Reasoning first, the answer last: a marked conclusion after the opening sentence that names the answer decides
    // over the opening.
    const concluded = concludedAnswer(response);
    if (concluded && concluded.span[0] >= end) {
        const [a, b] = concluded.span;
        const doubt = concluded.hedged || notAnswering(response.slice(0, a)) !== undefined;
        return {
            ...reading(
                'answer',
                [a, b],
                'a marked conclusion names the answer',
                doubt ? 'hedged' : 'answer',
                firstSentenceEnd(response, a),
            ),
            text: response.slice(a, b),
            from: a,
        };
    }
    const first = response.slice(start, end);
    const decline = notAnswering(first);
    // "I am not sure, but I think it is X" is a hedged answer; "I am not sure." alone is an abstention.
    const rest = decline ? first.slice(decline.span[1]).replace(/^[\s,.;:!-]+/, '') : '';
    if (decline && !/^(?:but|however|though|although|my\s+best\s+guess|i\s+(?:think|believe|guess))\b/i.test(rest)) {
        // "I'm not sure. I believe it was X.": the next sentence commits, a hedged answer.
        const next = rest.trim() === '' ? committedNext(response, end) : undefined;
        if (next)
            return {
                ...reading(
                    'answer',
                    next,
                    'an answer with a caveat (committed after the doubt)',
                    'hedged',
                    firstSentenceEnd(response, next[0]),
                ),
                text: response.slice(next[0], next[1]),
            };
        return {
            ...reading(
                'unsure',
                [start + decline.span[0], start + decline.span[1]],
                decline.stance === 'refuse' ? 'refuses' : 'says it does not know',
                decline.stance,
                end,
            ),
            text: '',
        };
    }
    // "The passage says Y, but that is not what I recall. I can't verify which is right.": the first sentence only
    // sets the passage's value aside (denial.ts) and states none of its own, and a later one declines: unsure.
    // An opening that only reports the passage (a reported span in its first words: "According to the passage, Y.",
    // "The context says Y"), then a decline, with no value committed in the answer's own voice ("To my knowledge, …"):
    // unsure too.
    if (!decline) {
        const own = withoutDenied(first);
        const setAside = own !== first && !ownValue(own, options.question);
        const reported = setAside ? [] : reportedSpans(first);
        const reports =
            reported.length > 0 &&
            reported[0]![0] <= 48 &&
            (own !== first || REPORT_DOUBT.test(response.slice(reported[0]![1]))) &&
            !ownVoice(response, start);
        const later = setAside || reports ? notAnswering(response.slice(end)) : undefined;
        if (later)
            return {
                ...reading(
                    'unsure',
                    [end + later.span[0], end + later.span[1]],
                    "sets the passage's value aside, states none of its own, and declines",
                    later.stance,
                    end,
                ),
                text: '',
            };
    }
    let a = start,
        b = end;
    while (b > a && TRAILING_MARK.test(response[b - 1]!)) b--;
    while (a < b && LEADING_MARK.test(response[a]!)) a++;
    return {
        ...reading(
            'answer',
            [a, b],
            decline ? 'an answer with a caveat' : 'the first sentence',
            decline ? 'hedged' : 'answer',
            end,
        ),
        text: response.slice(a, b),
    };
}

// ---------------------------------------------------------------- multiple choice

/** How an option is named: a number, a letter (A = 1), a number word, an ordinal. */
const NAME = String.raw`(?:\d{1,2}|[A-H](?![A-Za-z'’])|one|two|three|four|five|six|seven|eight)`;
const ORDINAL = String.raw`(?:first|second|third|fourth|fifth|sixth|1st|2nd|3rd|4th|5th|6th)`;
const WORDS: Record<string, number> = {
    one: 1,
    two: 2,
    three: 3,
    four: 4,
    five: 5,
    six: 6,
    seven: 7,
    eight: 8,
    first: 1,
    second: 2,
    third: 3,
    fourth: 4,
    fifth: 5,
    sixth: 6,
    '1st': 1,
    '2nd': 2,
    '3rd': 3,
    '4th': 4,
    '5th': 5,
    '6th': 6,
};
/** The option a name gives: "3" → 3, "B" → 2, "three" / "third" → 3. */
function optionNumber(name: string): number {
    if (/^\d+$/.test(name)) return Number(name);
    if (/^[A-H]$/.test(name)) return name.charCodeAt(0) - 64;
    return WORDS[name.toLowerCase()] ?? NaN;
}
/** "Option 3", "option #3", "Option (B)", "option three", "options 1 and 3", "Options 2, 3"; "the second option". */
const OPTION_REF = new RegExp(
    String.raw`\b[Oo]ptions?\s*[#(]?\s*(${NAME})\s*\)?((?:\s*(?:,|and|&|or)\s*(?:option\s*)?[#(]?\s*${NAME}\s*\)?)*)|\b(?:the\s+)?(${ORDINAL})\s+(?:option|choice|statement)\b`,
    'g',
);
/** A bare name opening the answer: "2.", "(2)", "2)", "2:", "[2]", "**2.**", "(B)", "B)", a bare "2" alone on its line. */
const BARE = /^[([]?(\d{1,2}|[A-H])(?:[.):\]](?!\d)|\s*[-\u2013\u2014]\s|\s*$|\s*\n|\*|\s+(?=[A-Z]))/;
/** After a marked conclusion ("the answer is", "Therefore,"): the option named right there. */
/** What a conclusion says of an option it calls accurate ("… is right", "are correct"). */
const SAYS_ACCURATE =
    /^[\s*_)\]]*(?:\([^()]*\)\s*)?(?:and\s+[^.]*?)?\b(?:is|are|seems?|looks?)\s+(?:also\s+|both\s+)?[*_]*(?:correct|right|accurate|true|fine|ok|okay|plausible|consistent|valid)\b|^[\s*_)\]]*(?:and\s+[^.]*?)?\b(?:fits?|matches|match|checks?\s+out|lines?\s+up|holds?(?:\s+up)?)\b/i;
/** A hedge between "the inaccurate option is" and the option: "… is most likely Option 2" still names Option 2. */
const HEDGE_BETWEEN = String.raw`(?:(?:(?:most|very)\s+)?likely|probably|possibly|perhaps|maybe|[Ii]\s+(?:think|believe))[\s,]+`;
/** An option called accurate without a verb, as a tag: "(Option 3 true)", "Option 1: correct.", "Option 2 — accurate". */
const TAGGED_ACCURATE = /^[\s*_]*[:\u2013\u2014-]?[\s*_]*(?:correct|accurate|true|right)\b[\s*_]*(?:[),;]|\.(?:\s|$)|$)/i;
const OPTION_NAMED = String.raw`(?:[Oo]ption\s*[#(]?\s*(${NAME})\b\)?|(?:the\s+)?(${ORDINAL})\s+(?:option|one|statement|choice))`;
const WRONG = String.raw`(?:inaccurate|incorrect|false|wrong|untrue|off|mistaken|not\s+(?:true|correct|accurate|right))`;
/** "the false option is Option 1", "Option 2 is the inaccurate one", "the second option is wrong". */
const WRONG_REF = new RegExp(
    String.raw`\b(?:the\s+)?${WRONG}\s+(?:option|one|statement|choice|answer)\s+(?:is|would\s+be|here\s+is)\s*:?\s*(?:${HEDGE_BETWEEN})?[*_"'(]*(?:[Oo]ption\s*[#(]?\s*(${NAME})\b|(?:the\s+)?(${ORDINAL})\s+(?:option|one|statement|choice))|${OPTION_NAMED}[*_")]*\s+(?:is|was|seems|looks)\s+(?:the\s+)?(?:(?:one\s+that'?s\s+|one\s+that\s+is\s+)?${WRONG}|(?:odd|wrong|false|inaccurate|incorrect)\s+one)\b|${OPTION_NAMED}[*_")]*\s+is\s+my\s+(?:final\s+)?(?:answer|pick|choice)\b`,
);
const AT_MARK = new RegExp(
    String.raw`^(?:(?:the\s+)?(?:inaccurate|incorrect|false|wrong)\s+(?:option|one|statement)\s+is\s*:?\s*(?:${HEDGE_BETWEEN})?)?[\s*_"'(\[]*(?:[Oo]ption\s*[#(]?\s*(${NAME})\s*[)\]]?(?=[\s.,;:!*_"')\]]|$)|(${NAME})\s*[)\]]?(?=\s*(?:[.,;:!*_"')\]]|$|\(|\s(?:because|since|as|is|-|\u2013|\u2014)\s)))|^(?:the\s+)?(${ORDINAL})\s+(?:option|choice|statement)\b`,
);

const NONE_OF =
    /\b(?:none\s+of\s+(?:the\s+)?(?:above|options|them|these)|(?<!\bnot\s+)(?:all|each)\s+(?:(?:two|three|four|five)\s+)?(?:of\s+)?(?:the(?:se|m)?\s+)?(?:(?:two|three|four|five)\s+)?(?:above\s+)?(?:options|statements)?\s*(?:are|is|looks?|seems?|appears?)\s+(?:to\s+(?:be|me)\s+)?(?:entirely\s+|completely\s+|perfectly\s+)?(?:correct|true|accurate|right)|there\s+is\s+no\s+(?:inaccurate|false|wrong|incorrect)\s+option|no\s+option\s+is\s+(?:inaccurate|false|wrong|incorrect))\b/i;
/** A line that introduces the answer rather than giving it ("The inaccurate option about … is:"). */
const PREAMBLE =
    /[:?]\s*$|^(?:the\s+)?(?:answer|correct\s+answer|inaccurate|false|wrong|incorrect)\b.*\b(?:option|answer|statement)\b.*\b(?:is|are)\s*$/i;

export interface ChoiceOptions {
    /** 'paper': the authors' rule — `Option (\d)` in the first sentence, nothing else. Default 'robust'. */
    rule?: 'paper' | 'robust';
}

/** A concession after an option called accurate: "… looks right at first, but …", "…, though …". */
const CONCEDES = /^[^.;:!?]*?\b(?:but|however|though|although|yet|at\s+first|on\s+the\s+surface)\b/i;
const OPTION_MENTION = new RegExp(OPTION_REF.source);

/**
 * Does the text after an option's name call it accurate ("is right", "(… true)", ": correct")? Not when the answer
 * concedes it ("Option 2 looks right at first, but the year is off"), unless the contrast turns to another option
 * ("Option 2 is correct, but Option 3 is not").
 */
function callsAccurate(rest: string): boolean {
    const m = SAYS_ACCURATE.exec(rest) ?? TAGGED_ACCURATE.exec(rest);
    if (!m) return false;
    const after = rest.slice(m.index + m[0].length);
    const c = CONCEDES.exec(after);
    return !c || OPTION_MENTION.test(after.slice(c[0].length));
}

const nextItem = (name: string) => ({
    '.': new RegExp(String.raw`\n[ \t*_]*${name}\.[*_]*\s`),
    ')': new RegExp(String.raw`\n[ \t*_]*${name}\)[*_]*\s`),
});
/** A later line opening with "2." / "2)" (after "1."), or "B." / "B)" (after "A."). */
const NEXT_NUMBERED = nextItem('2');
const NEXT_LETTERED = nextItem('B');

/**
 * Is the bare name `name` at `at` the first number of a list ("1." / "A)" opening a line, a later line opening with
 * "2." / "B)" the same way)? Then it numbers the walk through the options and names none of them.
 */
function numbersWalk(response: string, at: number, name: string): boolean {
    if (name !== '1' && name !== 'A') return false;
    const mark = response[at + 1];
    if (mark !== '.' && mark !== ')') return false;
    return (name === '1' ? NEXT_NUMBERED : NEXT_LETTERED)[mark].test(response.slice(at));
}

function numbersIn(m: RegExpExecArray): number[] {
    if (m[3]) return [optionNumber(m[3])];
    return [optionNumber(m[1]!), ...[...(m[2] ?? '').matchAll(new RegExp(NAME, 'g'))].map(x => optionNumber(x[0]))];
}

/** The lines / sentences of the opening, as [start, end) pieces: line breaks and sentence ends cut. */
function pieces(text: string, from: number, count: number): [number, number][] {
    const out: [number, number][] = [];
    let at = from;
    while (out.length < count && at < text.length) {
        while (at < text.length && isSpace(text.charCodeAt(at))) at++;
        if (at >= text.length) break;
        const end = firstSentenceEnd(text, at);
        out.push([at, end]);
        at = end;
    }
    return out;
}

const squash = (s: string) =>
    s
        .normalize('NFKD')
        .replace(/[\u0300-\u036f]/g, '')
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, ' ')
        .trim();

/**
 * Multiple choice. Robust rule: skip lines that only introduce the answer (a restated stem ending "is:"),
 * then in the first sentence that gives one: "Option N" (any decoration), a bare "N." / "(N)" / "N)" at its
 * start, or the text of exactly one option quoted without its number; several different options →
 * multiple; an out-of-range number → binding; "None of the above" / "all options are correct" → none; an
 * abstention or refusal → unsure; nothing named → none (as the authors read it), with why = "no option named".
 * Paper rule: `Option (\d)` in the first sentence only.
 */
export function readChoice(answer: string, optionTexts: readonly string[], settings: ChoiceOptions = {}): ChoiceReading {
    // typographic apostrophes read as ASCII ones, in the answer and the options alike (same lengths: spans stay the answer's)
    const paperRule = settings.rule === 'paper';
    const response = paperRule ? answer : plainApostrophes(answer);
    const options = paperRule ? optionTexts : optionTexts.map(plainApostrophes);
    const n = options.length;
    const start = skipLead(response);
    if (response.trim() === '') return reading('unparseable', [0, 0], 'empty response', 'none', response.length);
    const found = (nums: number[], span: [number, number], why: string, rationaleStart: number): ChoiceReading => {
        const uniq = [...new Set(nums)];
        if (uniq.length > 1)
            return {
                ...reading('multiple', span, `${why}: several options (${uniq.join(', ')})`, 'answer', rationaleStart),
                options: uniq,
            };
        const k = uniq[0]!;
        if (k < 1 || k > n)
            return { ...reading('binding', span, `${why}: option ${k} does not exist`, 'answer', rationaleStart), option: k };
        const back = neverCommits(response, span);
        if (back)
            return reading(
                'unsure',
                back,
                `${why}, only as a suspect, then says it cannot tell which is false: "${response.slice(back[0], back[1])}" (a hedge that never commits)`,
                'abstain',
                rationaleStart,
            );
        return { ...reading('option', span, why, 'answer', rationaleStart), option: k };
    };
    /** WRONG_REF's match `w` in the text from `from`: the option it names as the inaccurate one. */
    const wrongRef = (w: RegExpExecArray, from: number, says: string): ChoiceReading => {
        const name = w.slice(1).find(x => x !== undefined)!;
        return found([optionNumber(name)], [from + w.index, from + w.index + w[0].length], `${says} "${w[0].trim()}"`, start);
    };
    if (settings.rule === 'paper') {
        const end = firstSentenceEnd(response, start);
        const nums: number[] = [];
        let span: [number, number] = [start, start];
        for (const m of response.slice(start, end).matchAll(/option\s*(\d)/gi)) {
            nums.push(Number(m[1]));
            if (nums.length === 1) span = [start + m.index, start + m.index + m[0].length];
        }
        if (nums.length === 0)
            return reading(
                'none',
                [start, start],
                'no "Option N" in the first sentence (paper rule: None of the above)',
                'none',
                end,
            );
        return found(nums, span, '"Option N" in the first sentence', after(response, span[1]));
    }
    const texts = options.map(squash);
    // a marked conclusion naming an option ("Therefore, Option 3", "The answer is (B).") decides over the opening
    const marks = conclusionStarts(response);
    for (let i = marks.length - 1; i >= 0; i--) {
        const at = marks[i]!;
        const m = AT_MARK.exec(response.slice(at, at + 120));
        if (!m) {
            // "so my best guess is that the wrong statement is option C": the conclusion's sentence names the inaccurate one
            const w = WRONG_REF.exec(response.slice(at, firstSentenceEnd(response, at)));
            if (w) return wrongRef(w, at, 'a marked conclusion says');
            continue;
        }
        // "so the first option is right": a conclusion about an accurate option names no answer
        if (callsAccurate(response.slice(at + m[0].length, firstSentenceEnd(response, at + m[0].length)))) continue;
        const k = optionNumber(m[1] ?? m[2] ?? m[3]!);
        const lead = OPTION_LEAD.exec(response.slice(at))![0].length;
        const span: [number, number] = [at + lead, at + m[0].length];
        return found(
            [k],
            span,
            `a marked conclusion names "${response.slice(span[0], span[1]).trim()}"`,
            start === at ? after(response, span[1]) : start,
        );
    }
    // options the opening calls accurate ("(Option 1 true)", "Option 2 is correct"): cleared, not picked
    let cleared: { nums: number[]; span: [number, number] } | undefined;
    for (const [a, b] of pieces(response, start, 4)) {
        const piece = response.slice(a, b);
        const cleaned = piece.replace(/[*_`#>]/g, ' ');
        const nums: number[] = [];
        let span: [number, number] | undefined;
        let clears: { nums: number[]; span: [number, number] } | undefined;
        for (const m of piece.matchAll(OPTION_REF)) {
            const s: [number, number] = [a + m.index, a + m.index + m[0].length];
            if (callsAccurate(piece.slice(m.index + m[0].length))) {
                clears ??= { nums: [], span: s };
                clears.nums.push(...numbersIn(m));
                continue;
            }
            nums.push(...numbersIn(m));
            span ??= s;
        }
        if (nums.length > 0) return found(nums, span!, '"Option N"', after(response, span![1]));
        // a piece that only clears options is a step of a walk through them: read on
        if (clears) {
            cleared ??= clears;
            continue;
        }
        const lead = LINE_LEAD.exec(piece)![0].length;
        const bare = BARE.exec(piece.slice(lead));
        // "1. … \n2. …": numbering a walk through the options, no option named
        if (bare && numbersWalk(response, a + lead, bare[1]!)) break;
        if (bare) {
            const s: [number, number] = [a + lead, a + lead + bare[0].length];
            return found(
                [optionNumber(bare[1]!)],
                s,
                `a bare ${/\d/.test(bare[1]!) ? 'number' : 'letter'} "${bare[0].trim()}" opens the answer`,
                after(response, s[1]),
            );
        }
        const none = NONE_OF.exec(piece);
        if (none)
            return reading(
                'none',
                [a + none.index, a + none.index + none[0].length],
                `says "${none[0]}"`,
                'answer',
                after(response, a + none.index + none[0].length),
            );
        const decline = notAnswering(piece);
        if (decline)
            return reading(
                'unsure',
                [a + decline.span[0], a + decline.span[1]],
                decline.stance === 'refuse' ? 'refuses' : 'says it does not know',
                decline.stance,
                b,
            );
        const said = squash(cleaned);
        const quoted = texts
            .map((t, i) =>
                t.length > 0 && (` ${said} `.includes(` ${t} `) || (said.length >= 12 && ` ${t} `.includes(` ${said} `)))
                    ? i + 1
                    : 0,
            )
            .filter(i => i > 0);
        if (quoted.length === 1) return found(quoted, [a, b], "the option's text, quoted without its number", b);
        if (quoted.length > 1) return found(quoted, [a, b], "several options' texts", b);
        if (!PREAMBLE.test(piece.trim()) && !introduces(piece)) break;
    }
    // no option opens the answer: the statement that names the inaccurate one, wherever it stands
    const w = WRONG_REF.exec(response);
    if (w) return wrongRef(w, 0, 'says');
    // only options called accurate were named ("Option 2 is correct."): the first such piece's, as read before
    if (cleared)
        return found(cleared.nums, cleared.span, 'only options called accurate are named', after(response, cleared.span[1]));
    const end = firstSentenceEnd(response, start);
    return reading('none', [start, start], 'no option named (read as None of the above, as the paper does)', 'none', end);
}

/** An option named only as a suspect: "looks suspicious", "seems off", "the one I'd doubt", "probably". */
const SUSPECT = /\b(?:suspicious|suspect|doubt(?:ful)?|looks|seems|appears|likely|probably|guess|if\s+i\s+(?:had|have)\s+to)\b/i;
/** The answer says it cannot tell which option is the false one ("I'm unsure whether … is the false detail"). */
const CANNOT_TELL =
    /\b(?:unsure|not\s+sure|uncertain|can(?:no|['\u2019])?t\s+(?:tell|say|be\s+sure)|cannot\s+(?:tell|say|be\s+sure)|do\s*n['\u2019]?t\s+know)\s+(?:which|whether)\b[^.!?]{0,150}?\b(?:false|wrong|inaccurate|incorrect|fake)\b/i;

/**
 * A hedge that never commits (LABEL-SCHEMA): the option at `span` is named in a sentence that only calls it a
 * suspect, and a later sentence says the answer cannot tell which option is false. The span of that later words,
 * or undefined (a hedged pick not taken back commits, as does a firm pick followed by a doubt).
 */
function neverCommits(text: string, span: [number, number]): [number, number] | undefined {
    const end = firstSentenceEnd(text, span[1]);
    let start = span[0];
    while (start > 0 && !endsSentenceAt(text, start - 1)) start--;
    if (!SUSPECT.test(text.slice(start, end))) return undefined;
    const m = CANNOT_TELL.exec(text.slice(end));
    return m ? [end + m.index, end + m.index + m[0].length] : undefined;
}

/**
 * The ERBench authors' M rule for multiple choice: a "None of the above" answer counts as missing when it
 * contains one of these words (METHODS.md §1, "MC metrics").
 */
export const AUTHORS_DECLINE_WORDS = /\b(?:impossible|further|enough|specific|actual|additional|cannot|sorry)/i;
