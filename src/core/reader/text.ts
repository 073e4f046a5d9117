/**
 * The reader's text helpers shared by its answer readers (answer.ts) and its verdict finder (verdict.ts):
 * decoration before an answer, sentence ends, and the one taxonomy of not answering (abstain, refuse).
 */

/** Decoration before the answer word: spaces, quotes, Markdown, bullets, and answer labels. */
const LEAD =
    /^(?:[\s"'`*_#>~\-•\u201c\u201d\u2018\u2019\\\u2705\u274c\u2714\u2716\u2713\u2717\u2611\u26a0\ufe0f]+|(?:a|answer|final answer|my answer|response|yes\s*\/\s*no|yes or no|true or false|true\s*\/\s*false)\s*[:\-]\s*)/i;

/**
 * Whether LEAD may match at `c` (a character code): one of its decoration characters, or the first letter of an
 * answer label (a, answer, final answer, my answer, response, yes / no, true or false). Most answers open with a
 * word, and this spares them the slice and the expression.
 */
function mayLead(c: number): boolean {
    if (c < 128) return LEAD_START[c] === 1;
    return (
        c === 0x2022 ||
        c === 0x201c ||
        c === 0x201d ||
        c === 0x2018 ||
        c === 0x2019 ||
        c === 0x2705 ||
        c === 0x274c ||
        c === 0x2714 ||
        c === 0x2716 ||
        c === 0x2713 ||
        c === 0x2717 ||
        c === 0x2611 ||
        c === 0x26a0 ||
        c === 0xfe0f ||
        isSpace(c)
    );
}
const LEAD_START = new Uint8Array(128);
for (const ch of ' \t\n\v\f\r"\'`*_#>~-\\aAfFmMrRtTyY') LEAD_START[ch.charCodeAt(0)] = 1;

/** The offset of the first meaningful character after any decoration. */
export function skipLead(text: string, max = 200): number {
    return leadEnd(text, 0, Math.min(text.length, max), text.length);
}

/**
 * Where the words start after `from`: decoration is skipped while it starts before `stop`, read in windows of 80
 * characters that end at `end` at the latest. `leadEnd(text, from, e, e)` is `from + skipLead(text.slice(from, e))`
 * (e - from ≤ 200) without the slice.
 */
export function leadEnd(text: string, from: number, stop: number, end: number): number {
    // an answer's opening is read by several readers in turn: the last one is remembered
    if (from === 0 && text === openingOf.text && stop === openingOf.stop && end === openingOf.end) return openingOf.at;
    const at = readLead(text, from, stop, end);
    if (from === 0) {
        openingOf.text = text;
        openingOf.stop = stop;
        openingOf.end = end;
        openingOf.at = at;
    }
    return at;
}
const openingOf = { text: '', stop: -1, end: -1, at: 0 };

function readLead(text: string, from: number, stop: number, end: number): number {
    let i = from;
    for (let guard = 0; guard < 20 && i < stop; guard++) {
        const c = text.charCodeAt(i);
        if (!mayLead(c)) break;
        const w = Math.min(i + 80, end);
        if (!isLetter(c)) {
            // decoration: LEAD's first branch, the run of its characters inside the window, read without the slice
            let j = i + 1;
            while (j < w && decoration(text.charCodeAt(j))) j++;
            i = j;
            continue;
        }
        // an answer label ends in ":" or "-" inside the window
        if (!within(text, ':', i, w) && !within(text, '-', i, w)) break;
        const m = LEAD.exec(text.slice(i, w));
        if (!m || m[0].length === 0) break;
        i += m[0].length;
    }
    return i;
}

/** A character of LEAD's decoration class (mayLead, less the letters that may start a label). */
function decoration(c: number): boolean {
    return mayLead(c) && !isLetter(c);
}

/** Whether the character `c` occurs in text[a, b). */
export function within(text: string, c: string, a: number, b: number): boolean {
    const k = text.indexOf(c, a);
    return k >= 0 && k < b;
}

/** Whether `c` is punctuation between the answer word and the rationale: [\s.,!:;)\]*_"'`\u201d\u2019\u2013\u2014-]. */
function isAfter(c: number): boolean {
    return c < 128 ? AFTER_CHARS[c] === 1 : c === 0x201d || c === 0x2019 || c === 0x2013 || c === 0x2014 || isSpace(c);
}
const AFTER_CHARS = new Uint8Array(128);
for (const ch of ' \t\n\v\f\r.,!:;)]*_"\'`-') AFTER_CHARS[ch.charCodeAt(0)] = 1;

export function after(text: string, at: number): number {
    // the punctuation run, at most 40 characters
    const stop = Math.min(text.length, at + 40);
    let i = Math.max(0, at);
    while (i < stop && isAfter(text.charCodeAt(i))) i++;
    return at + (i - Math.max(0, at));
}

// ---------------------------------------------------------------- not answering

/**
 * The text with typographic apostrophes and single quotes (‘ ’) written as ASCII ones ("I don’t know" as "I don't
 * know"), so that every expression written with ' reads today's assistants' typography too; the same length, so a
 * span found in it is a span of the original. The text itself when it has none.
 */
export function plainApostrophes(text: string): string {
    return text.indexOf('\u2019') < 0 && text.indexOf('\u2018') < 0 ? text : text.replace(/[\u2018\u2019]/g, "'");
}

const NEG = String.raw`(?:do\s*n[o']?t|don'?t|dont|cannot|can\s*not|can'?t|could\s*n[o']?t|couldn'?t|am\s+unable\s+to|'?m\s+unable\s+to|am\s+not\s+able\s+to|'?m\s+not\s+able\s+to|have\s+no\s+way\s+to|was\s+unable\s+to|was\s+not\s+able\s+to)`;
const KNOW_VERB = String.raw`(?:know|say|tell|determine|verify|confirm|answer\s+(?:this|that|the\s+question)\s+(?:with\s+certainty|accurately|definitively)|find|recall|provide\s+(?:a\s+)?(?:definitive|accurate|specific|reliable|an?\s+answer)|be\s+(?:sure|certain))`;
/** Unwilling to: "I don't want to", "I'd rather not", "I don't feel I can", "I won't". */
const UNWILLING = String.raw`(?:(?:do\s*n[o']?t|don'?t)\s+(?:want|wish|intend)\s+to|(?:'d|\s+would)\s+(?:rather|prefer)\s+not(?:\s+to)?|(?:do\s*n[o']?t|don'?t)\s+(?:feel|think)\s+(?:that\s+)?i\s+can|won'?t|will\s+not)`;
/**
 * Declining as one act (issue 41): "I" + cannot / will not + a verb of answering + what is declined — an answer, a
 * name, an explanation, who / which / whether, or how ("with confidence", "reliably", "as fact"): "I'm not able to
 * answer this one with confidence", "I'd rather not commit to a single name", "I don't feel I can give a reliable
 * answer". Unwilling to assert, state, claim, commit or guess declines whatever follows.
 */
const DECLINE_ACT = String.raw`i\s*(?:${NEG}|${UNWILLING})\s+(?:(?:really|honestly|confidently|safely|responsibly)\s+)?(?:give|offer|provide|state|assert|name|commit\s+to|answer|explain|confirm)\b(?=[^.!?\n]{0,60}?\b(?:answer|verdict|name|explanation|response|credit|relationship|who|which|whether|confiden(?:t|tly|ce)|reliabl[ey]|trustworthy|definitive(?:ly)?|with\s+certainty|for\s+(?:sure|certain)|firm(?:ly)?|as\s+(?:a\s+)?fact)\b)|i\s*${UNWILLING}\s+(?:assert|state|claim|commit|guess|speculate)\b`;
/** Phrases that say the model does not know (anywhere they occur). */
const ABSTAIN = new RegExp(
    String.raw`\b(?:i\s*${NEG}\s+${KNOW_VERB}|${DECLINE_ACT}` +
        String.raw`|i\s*(?:'?m|am)\s+(?:not\s+(?:(?:entirely|completely|totally|fully|quite|100%|absolutely)\s+)?(?:sure|certain|aware)|unsure|uncertain)` +
        String.raw`|(?:^|[^a-z])not\s+sure|\bunsure\b|\buncertain\b` +
        String.raw`|i\s*(?:do\s*n[o']?t|don'?t|dont)\s+have\s+(?:enough|sufficient|any|specific|reliable|complete|full|detailed|access\s+to|the|real-time|up-to-date|information)` +
        String.raw`|i\s+have\s+no\s+(?:information|knowledge|data|record|details|way)` +
        String.raw`|there\s+(?:is|are)\s+no\s+(?:available\s+)?(?:information|records?|data|details)\s+(?:available|about|on|regarding)` +
        String.raw`|(?:it\s+is|it'?s)\s+(?:not\s+possible|impossible|unclear|difficult|hard)\s+(?:for\s+me\s+)?to\s+(?:determine|say|know|verify|tell|confirm)` +
        String.raw`|without\s+(?:more|additional|further)\s+(?:information|context|details)` +
        String.raw`|beyond\s+my\s+knowledge|my\s+knowledge\s+(?:cutoff|does\s+not|doesn'?t)` +
        String.raw`|no\s+way\s+(?:for\s+me\s+)?to\s+(?:know|tell|verify)` +
        // declining a verdict in other words: "I'm hesitant to give a firm verdict", "not confident enough to say"
        String.raw`|(?:hesitant|reluctant|wary)\s+(?:to\s+(?:give|say|offer|commit)|of\s+(?:giving|saying|committing))|not\s+confident\s+enough` +
        String.raw`|i\s*${NEG}\s+(?:give|offer)\s+(?:you\s+)?an?\s+(?:firm|definite|definitive|confident|flat|reliable|certain|clear)\s+(?:answer|verdict))`,
    'i',
);
/** Phrases that decline to answer at all. */
const REFUSE =
    /\b(?:i\s*(?:'?m|am)\s+sorry,?\s+but\s+i\s+(?:can(?:no|')?t|won'?t|am\s+not\s+able\s+to|'?m\s+not\s+able\s+to|am\s+unable\s+to)\s+(?:help|assist|answer|comply|respond|provide\s+(?:an\s+)?answer|engage)|i\s+(?:can(?:no|')?t|won'?t|will\s+not)\s+(?:help|assist)\s+with|as\s+an\s+ai(?:\s+language\s+model)?,?\s+i\s+(?:can(?:no|')?t|don'?t|do\s+not|am\s+not)|i\s+(?:must|have\s+to)\s+decline|i\s+(?:can(?:no|')?t|won'?t)\s+answer\s+(?:this|that))/i;

/** How a text declines, if it does: refuse before abstain (a refusal often also says it cannot say). */
/** Every abstention or refusal phrase contains one of these: a cheap test before the two long expressions. */
export const DECLINE_HINT_WORDS = [
    'not',
    'hesitant',
    'reluctant',
    'wary',
    "n[\\u2019']t",
    'unsure',
    'uncertain',
    'sorry',
    'unable',
    'no\\s',
    'without',
    'beyond',
    'knowledge',
    'impossible',
    'unclear',
    'difficult',
    'hard',
    'decline',
    'as an ai',
    'dont',
];
const MAYBE_DECLINES = byFirstLetter(DECLINE_HINT_WORDS, 'gi');

/**
 * The expression that finds any of `words` (each a letter, then an expression), written with the words that start
 * with the same letter under it: `n(?:ot|o\s)|h(?:ard|esitant)|…` finds what `not|hard|no\s|hesitant|…` finds, where
 * the words start as there (the order of the words under a letter kept), in about 0.7× the time: irregexp tries the
 * letters, not every word, at each character.
 */
export function byFirstLetter(words: readonly string[], flags: string): RegExp {
    const groups = new Map<string, string[]>();
    for (const w of words) {
        const c = w[0]!.toLowerCase();
        if (!/[a-z]/.test(c)) throw new Error(`byFirstLetter: "${w}" does not start with a letter`);
        groups.set(c, [...(groups.get(c) ?? []), w.slice(1)]);
    }
    const source = [...groups].map(([c, rest]) => (rest.length === 1 ? c + rest[0] : `${c}(?:${rest.join('|')})`)).join('|');
    return new RegExp(source, flags);
}
/** What "no" + a space is followed by in every decline that holds it ("I have no information", "there is no way to"). */
const NO_DECLINES_Y = /\bno\s+(?:information|data|record|details|way|available)/iy;

/**
 * Does `re` (global: MAYBE_DECLINES's words, and maybe others that neither end with a space nor start with "n" or
 * "h") find a hint in `text` that a decline could hold? Its two commonest words are hints only where a decline holds
 * them: "no" + a space before NO_DECLINES_Y's words, and "hard" as a word before a space ("it is hard to say") — not
 * "There is no movie" or "Richard", after which the scan goes on (the short plain expression costs half what one
 * spelling those contexts out does). The match tells which word it is: only "no\s" ends with a space, only "hard" and
 * "beyond" end with "d", and no other hint can match where either does.
 */
export function hinted(re: RegExp, text: string): boolean {
    re.lastIndex = 0;
    while (re.test(text)) {
        const end = re.lastIndex;
        const last = text.charCodeAt(end - 1);
        if (isSpace(last)) {
            NO_DECLINES_Y.lastIndex = end - 3;
            if (NO_DECLINES_Y.test(text)) return true;
            re.lastIndex = end - 2;
        } else if ((last | 32) === 100 && (text.charCodeAt(end - 4) | 32) === 104) {
            if (end < text.length && isSpace(text.charCodeAt(end)) && (end === 4 || !isWordChar(text.charCodeAt(end - 5))))
                return true;
            re.lastIndex = end - 3;
        } else return true;
    }
    return false;
}

/** A character of \w. */
function isWordChar(c: number): boolean {
    return isLetter(c) || (c >= 48 && c <= 57) || c === 95;
}

/**
 * Does the response say the word "no" anywhere outside the entity's own names (ERBench's knowledge rule
 * `no_word_no`: a title such as "No Country for Old Men" is no "no")?
 */
export function saysNoWord(response: string, names: readonly string[]): boolean {
    let rest = response;
    for (const v of names) if (v) rest = rest.split(v).join(' ');
    return /\bno\b/i.test(rest);
}

export function notAnswering(text: string): { stance: 'abstain' | 'refuse'; span: [number, number] } | undefined {
    if (!hinted(MAYBE_DECLINES, text)) return undefined;
    const r = REFUSE.exec(text);
    if (r) return { stance: 'refuse', span: [r.index, r.index + r[0].length] };
    const a = ABSTAIN.exec(text);
    if (a) {
        let lead = 0;
        while (lead < a[0].length && !isLetter(a[0].charCodeAt(lead))) lead++;
        return { stance: 'abstain', span: [a.index + lead, a.index + a[0].length] };
    }
    return undefined;
}

// ---------------------------------------------------------------- sentences

/** Words whose full stop does not end a sentence ("No. 5", "e.g. Avatar", "Dr. Strange"). */
const ABBREVIATIONS = new Set([
    'no',
    'nr',
    'mr',
    'mrs',
    'ms',
    'dr',
    'st',
    'jr',
    'sr',
    'vs',
    'eg',
    'ie',
    'etc',
    'approx',
    'ca',
    'vol',
    'pp',
    'fc',
    'cf',
    'ac',
    'inc',
    'ltd',
    'co',
    'mt',
    'ft',
]);

/** Words said with "!" that end a sentence even when a lower-case word follows. */
const EXCLAMATIONS = new Set([
    'yes',
    'no',
    'sure',
    'certainly',
    'absolutely',
    'indeed',
    'correct',
    'true',
    'false',
    'great',
    'hello',
    'hi',
    'oh',
    'wow',
    'course',
    'nope',
    'yeah',
    'yep',
    'definitely',
    'right',
    'incorrect',
    'wrong',
    'question',
]);

/** The end of the first sentence: a full stop, ! or ? followed by a space or the end, or a line break. */
export function firstSentenceEnd(text: string, from = 0): number {
    // the expression finds the candidates (faster than a loop over the characters); no call below re-enters it
    const re = SENTENCE_END;
    re.lastIndex = from;
    // (test, not exec: every match is one character, so it ends at lastIndex, and no match array is made)
    while (re.test(text)) {
        const i = re.lastIndex - 1;
        const c = text.charCodeAt(i);
        if (c === 46) {
            // the word before: letters and full stops, at most 8 characters back, not before `from`
            const lo = Math.max(from, i - 8);
            let a = i,
                dots = 0;
            while (a > lo) {
                const d = text.charCodeAt(a - 1);
                if (d === 46) dots++;
                else if (!isLetter(d)) break;
                a--;
            }
            const letters = i - a - dots;
            // an abbreviation (none is longer than 6 letters), or a lone initial ("L. Messi")
            if (letters > 0 && letters <= 6) {
                if (ABBREVIATION_KEYS.has(wordKey(text, a, i))) continue;
                if (i - a === 1 && text.charCodeAt(a) >= 65 && text.charCodeAt(a) <= 90) continue;
            }
            // a dotted name the sentence goes on after ("the film S.W.A.T. released in 2003")
            if (dots > 0 && spaceLower(text, i + 1) && DOTTED.test(text.slice(a, i))) continue;
        } else if (c === 33 && spaceLower(text, i + 1)) {
            // a title with "!" the sentence goes on after ("Airplane! released in 1980"), not an exclamation
            const lo = Math.max(from, i - 20);
            let a = i;
            while (a > lo && isLetter(text.charCodeAt(a - 1))) a--;
            if (a < i) {
                const first = text.charCodeAt(a);
                if (first >= 65 && first <= 90 && !EXCLAMATIONS.has(text.slice(a, i).toLowerCase())) continue;
            }
        }
        return i + 1;
    }
    return text.length;
}
const SENTENCE_END = /[.!?](?=\s|$)|\n/g;

function isLetter(c: number): boolean {
    return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

/** `/^ [a-z]/.test(text.slice(at, at + 2))`. */
function spaceLower(text: string, at: number): boolean {
    if (at + 1 >= text.length) return false;
    const c = text.charCodeAt(at + 1);
    return text.charCodeAt(at) === 32 && c >= 97 && c <= 122;
}

const DOTTED = /[A-Z]\.[A-Z]/;

/**
 * text[a, b) — ASCII letters and full stops, at most six letters — as a number: its letters lower-cased, full stops
 * dropped, five bits each. Two such words have the same key exactly when they are the same word once lower-cased
 * without their full stops, so an abbreviation is looked up without building the string.
 */
function wordKey(text: string, a: number, b: number): number {
    let key = 0;
    for (let k = a; k < b; k++) {
        const c = text.charCodeAt(k);
        if (c !== 46) key = key * 32 + ((c | 32) - 96);
    }
    return key;
}
const ABBREVIATION_KEYS = new Set([...ABBREVIATIONS].map(w => wordKey(w, 0, w.length)));

/** Whether text[i] is . ! ? or a line break (/[.!?\n]/). */
export function endsSentenceAt(text: string, i: number): boolean {
    const c = text.charCodeAt(i);
    return c === 46 || c === 33 || c === 63 || c === 10;
}

/** \s as a regular expression reads it. */
export function isSpace(c: number): boolean {
    if (c === 32 || (c >= 9 && c <= 13)) return true;
    return (
        c >= 128 &&
        (c === 0xa0 ||
            c === 0x1680 ||
            (c >= 0x2000 && c <= 0x200a) ||
            c === 0x2028 ||
            c === 0x2029 ||
            c === 0x202f ||
            c === 0x205f ||
            c === 0x3000 ||
            c === 0xfeff)
    );
}
