/**
 * Answer swapping (ReEval category 1), exact and validated: every occurrence of the gold answer (and its aliases)
 * in the passage is replaced by another answer of the same type; a case is kept only when the old answer is gone
 * (also from URLs, hyphenated and case-folded forms), the new one is there, neither answer contains the other,
 * the types match and nothing else in the passage changed.
 */
import { lazyPackage } from '../../lazy-package.js';
import { foldedHits, normalise, occurrences, unquote } from './text.js';
import { stem } from '../../kg/lexical.js';

let compromise: typeof import('compromise').default | undefined;
const compromisePackage = lazyPackage<typeof import('compromise') | typeof import('compromise').default>('compromise', () =>
    require('compromise'),
);
/**
 * compromise's tagger, loaded on first use: its lexicon takes a few hundred milliseconds to build, which every
 * command that swaps no answer would otherwise pay at start-up.
 */
function nlp(text: string): ReturnType<typeof import('compromise').default> {
    if (!compromise) {
        const m = compromisePackage();
        compromise = 'default' in m && typeof m.default === 'function' ? m.default : (m as typeof import('compromise').default);
    }
    return compromise(text);
}

/**
 * What an answer is, so a replacement of the same kind can be chosen. Numbers, money, percentages, dates and years
 * by their form (a duration: "months", "three weeks"); people, places and organisations by compromise's lexicon and
 * tagger (shipped in the package);
 * `names` a list of proper names ("Manchester United & Real Madrid"), `name` any other proper name, `thing` any
 * other phrase.
 */
type BaseType =
    | 'year'
    | 'date'
    | 'duration'
    | 'money'
    | 'percent'
    | 'count'
    | 'number'
    | 'person'
    | 'place'
    | 'organisation'
    | 'names'
    | 'name'
    | 'thing';
/** A base type, or a thing of the kind the question names ("Which beverage …?" → `thing:beverag`, stemmed). */
export type AnswerType = BaseType | `thing:${string}`;

const MONTHS =
    'january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec';
const DAYS = 'monday|tuesday|wednesday|thursday|friday|saturday|sunday|today|tomorrow|yesterday|tonight';
const NUMBER_WORDS =
    'zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand|million|billion|trillion|dozen|dozens|hundreds|thousands|millions|billions';
const NUMBER = `(\\d[\\d,]*(\\.\\d+)?|\\.\\d+|(${NUMBER_WORDS})([\\s-]+(${NUMBER_WORDS}|and))*)`;
const QUALIFIER =
    '(about|around|almost|nearly|over|under|more than|less than|fewer than|at least|up to|roughly|approximately|some|just)';
const MONEY = new RegExp(`[$€£¥₹]|\\b(us\\$|usd|eur|gbp|dollars?|euros?|pounds?|cents?|pence|yen|yuan|rupees?|francs?)\\b`, 'i');
const PERCENT = /%|\b(percent|per cent|percentage points?)\b/i;
const DATE = new RegExp(
    `\\b(${MONTHS}|${DAYS})\\b|^(next|last|this|early|late|mid)[\\s-]+(week|month|year|weekend|summer|winter|spring|autumn|fall|decade|century)$|^\\d{4}-\\d\\d(-\\d\\d)?$|^\\d{1,2}/\\d{1,2}/\\d{2,4}$|^(the\\s+)?(\\d{4}s|\\w+ (century|decade))$`,
    'i',
);
const DURATION = new RegExp(
    `^(${QUALIFIER}\\s+|several\\s+|a\\s+few\\s+|many\\s+)?(${NUMBER}[\\s-]+)?(seconds?|minutes?|hours?|days?|weeks?|months?|years?|decades?)$`,
    'i',
);
const QUANTITY = new RegExp(`^(${QUALIFIER}\\s+)?${NUMBER}(\\s+[\\p{L}-]+){0,3}$`, 'iu');

const ORGANISATION_HEADS =
    /^(university|college|school|academy|institute|inc\.?|corp\.?|corporation|company|co\.?|ltd\.?|llc|plc|group|party|airways|airlines|bank|association|council|committee|agency|department|ministry|foundation|club|league|union|court|senate|congress|parliament|commission|federation|network|studios?|records|times|post|journal|news|fc|united|society|organi[sz]ation|board|office|service|authority|administration|bureau|church|hospital|museum|orchestra|band)$/i;
const PLACE_HEADS =
    /^(city|county|state|states|river|mountains?|mount|island|islands|lake|bay|sea|ocean|street|avenue|road|square|park|valley|canyon|province|republic|kingdom|region|coast|peninsula|desert|forest|falls|beach|harbou?r|airport|stadium|arena|bridge|tower|palace|castle|village|town|district|territory|gulf|strait|channel)$/i;

const typeCache = new Map<string, BaseType>();

/**
 * The type of an answer (cached per answer text). With its question, the type the question asks for wins over a
 * proper name of unknown kind or a phrase (answer typing from the wh-phrase, as QA systems do); a number, amount,
 * date or year is typed by its form whatever the question.
 */
export function answerType(answer: string, question?: string): AnswerType {
    const a = unquote(answer);
    let t = typeCache.get(a);
    if (t === undefined) {
        if (typeCache.size > 100_000) typeCache.clear();
        t = typeOf(a);
        typeCache.set(a, t);
    }
    if (question === undefined || !['name', 'thing', 'person', 'place', 'organisation'].includes(t)) return t;
    const asked = questionType(question);
    // People, places and organisations are proper names: a phrase that is none ("Commercial airplanes") stays a
    // thing whatever a who / where / which-company question asks; it may still be the kind of thing asked for.
    if (t === 'thing' && asked !== undefined && !asked.startsWith('thing:')) return t;
    return asked ?? t;
}

const PERSON_HEADS =
    /^(person|people|man|men|woman|women|politician|leader|president|minister|actor|actress|singer|musician|rapper|artist|author|writer|player|athlete|star|celebrity|figure|ceo|founder|director|coach|candidate|senator|governor|official|scientist|billionaire|journalist|host|comedian|king|queen|prince|princess|pope|judge|lawmaker|footballer|chancellor|mayor|chef|designer|entrepreneur|astronaut|activist|monarch|ruler|dictator|general|boxer|golfer|tennis|driver|composer|band|group|duo)s?$/;
const PLACE_QUESTION_HEADS =
    /^(country|countries|city|cities|state|states|town|borough|region|island|continent|nation|capital|province|county|village|district|territory|location|place|area|neighbou?rhood|port|airport|resort|destination|mountain|river|lake|sea|ocean|coast|park|stadium|venue|address|street)s?$/;
const ORGANISATION_QUESTION_HEADS =
    /^(company|companies|firm|brand|airline|bank|team|club|university|college|school|party|platform|network|retailer|chain|organi[sz]ation|agency|carrier|broadcaster|newspaper|publisher|studio|automaker|carmaker|manufacturer|supermarket|store|restaurant|app|website|service|startup|charity|union|league|institution|business|corporation|giant|maker|insurer|exchange|channel|outlet|magazine)s?$/;
/** Words that end a wh-phrase: auxiliaries, pronouns, determiners, prepositions and common irregular past verbs. */
const PHRASE_END =
    /^(is|are|was|were|be|been|has|have|had|did|does|do|will|can|could|would|should|may|might|must|its|it|his|her|their|they|this|that|these|those|to|of|in|on|for|with|by|from|at|as|lit|won|led|made|took|became|began|came|went|saw|said|got|gave|found|left|hit|set|put|ran|sold|bought|told|held|kept|brought|paid|met|rose|fell|grew|broke|chose|drew|drove|flew|wrote|spoke|recently|just|now|still|also|currently)$/;

/** The type a question asks for, from its wh-phrase; undefined when it does not say (how many, what is …). */
export function questionType(question: string): AnswerType | undefined {
    const q = question.toLowerCase().replace(/[\u2018\u2019]/g, "'");
    if (/(^|[,;.]\s*)(who|whom|whose)\b/.test(q)) return 'person';
    if (/(^|[,;.]\s*)where\b/.test(q)) return 'place';
    if (/(^|[,;.]\s*)when\b/.test(q)) return 'date';
    if (/\bhow long\b/.test(q)) return 'duration';
    // An answer to "why" is a reason ("Drought"), whatever else it names.
    if (/(^|[,;.]\s*)why\b/.test(q)) return 'thing:reason';
    const head = questionHead(q);
    if (!head) return undefined;
    if (PERSON_HEADS.test(head)) return 'person';
    if (PLACE_QUESTION_HEADS.test(head)) return 'place';
    if (ORGANISATION_QUESTION_HEADS.test(head)) return 'organisation';
    return `thing:${stem(head) ?? head}`;
}

/** The wh-phrases that name what is asked for: "the name of the NOUN", "what is the NOUN called", "which / what NOUN". */
const ASKED = [
    /\bname of (?:the |a |an |this |that |its |his |her |their )?((?:[a-z0-9'-]+\s*){1,5})/,
    /\bwhat (?:is|was|are|were) (?:the |this |that )?((?:[a-z0-9'-]+\s+){1,3})called\b/,
    // "which type of bird" asks for a bird, "which of the following US cities" for a city: those words are skipped.
    /\b(?:which|what)\s+(?:of\s+(?:the\s+|these\s+|those\s+)?(?:following\s+)?)?(?:(?:type|kind|sort|form|variety|species|breed)\s+of\s+)?((?:[a-z0-9'-]+\s*){1,5})/,
];

/**
 * The noun phrase a question asks for, word by word (lower case, as written): up to three words of its wh-phrase
 * before a verb, a pronoun or a preposition, numbers skipped ("which 2024 presidential candidate"); undefined when
 * the question names none ("what is …", "how many …").
 */
function askedWords(question: string): string[] | undefined {
    const q = question.toLowerCase().replace(/[\u2018\u2019]/g, "'");
    for (const pattern of ASKED) {
        const m = pattern.exec(q);
        if (!m) continue;
        const run: string[] = [];
        for (const w of m[1]!.trim().split(/\s+/)) {
            if (PHRASE_END.test(w) || (/ed$/.test(w) && run.length > 0)) break;
            if (/^\d[\d,.]*$/.test(w)) continue;
            run.push(w.replace(/'s$/, ''));
            if (run.length === 3) break;
        }
        return run.length && !PHRASE_END.test(run.at(-1)!) ? run : undefined;
    }
    return undefined;
}

/** The noun a question asks for (the head of its noun phrase), or undefined. */
function questionHead(question: string): string | undefined {
    return askedWords(question)?.at(-1);
}

/**
 * What a question asks for, for telling a city from a country among places: its noun phrase ("age group") with the
 * head in the singular ("cities" → "city"), or undefined.
 */
export function askedNoun(question: string): { phrase: string; head: string } | undefined {
    const words = askedWords(question);
    if (!words) return undefined;
    const head = words
        .at(-1)!
        .replace(/ies$/, 'y')
        .replace(/(ch|sh|x|ss)es$/, '$1')
        .replace(/([^s])s$/, '$1');
    return { phrase: [...words.slice(0, -1), head].join(' '), head };
}

function typeOf(a: string): BaseType {
    if (/^(in\s+)?(1[5-9]|20)\d\d$/i.test(a)) return 'year';
    if (/\d/.test(a) || new RegExp(`\\b(${NUMBER_WORDS})\\b`, 'i').test(a)) {
        if (PERCENT.test(a)) return 'percent';
        if (MONEY.test(a)) return 'money';
    }
    if (DURATION.test(a)) return 'duration';
    if (DATE.test(a) && (/\d/.test(a) || (MONTH_OR_DAY.test(a) ? dateWords(a) : a.split(/\s+/).length <= 4))) return 'date';
    if (QUANTITY.test(a)) return /^[^\d]*\d[\d,]*\.\d/.test(a) ? 'number' : 'count';
    if (isList(a)) return 'names';
    // A proper name ending in an organisation's or a place's head word (a gazetteer of English head nouns).
    const last = a.split(/\s+/).at(-1)!;
    if (/^\p{Lu}/u.test(a) && a.includes(' ') && ORGANISATION_HEADS.test(last)) return 'organisation';
    if (/^\p{Lu}/u.test(a) && a.includes(' ') && PLACE_HEADS.test(last)) return 'place';
    // People, places and organisations are proper names: a phrase in lower case is a thing (no tagger needed).
    if (!/^\p{Lu}/u.test(a)) return 'thing';
    const doc = nlp(a);
    const covers = (found: { text(): string }) => normalise(found.text()) === normalise(a);
    if (covers(doc.people())) return 'person';
    if (covers(doc.places())) return 'place';
    if (covers(doc.organizations())) return 'organisation';
    // Every word capitalised (small words aside), not a sentence-cased phrase: a proper name of another kind.
    const words = a.split(/\s+/);
    const capital = (w: string) => /^[\p{Lu}\p{N}]/u.test(w) || /^(of|the|and|de|von|van|da|del|la|&|for|on|in)$/.test(w);
    if (words.every(capital) && /^\p{Lu}/u.test(a)) return 'name';
    return 'thing';
}

/** Words that may stand beside a month or a day in a date without digits ("early June", "next Tuesday", "May"). */
const DATE_WORD = new RegExp(
    `^(${MONTHS}|${DAYS}|next|last|this|early|late|mid|on|in|the|of|until|by|from|week|weekend|month|year|morning|afternoon|evening|night|day|end|beginning|start|middle)[.,]?$`,
    'i',
);

const MONTH_OR_DAY = new RegExp(`\\b(${MONTHS}|${DAYS})\\b`, 'i');

/** A date named by a month or a day, without digits: at most four words, each a month, a day or a date word ("Theresa May" is no date). */
function dateWords(a: string): boolean {
    const words = a.split(/[\s-]+/);
    return words.length <= 4 && words.every(w => DATE_WORD.test(w));
}

/**
 * A list of proper names: parts joined by "&", "and" or commas, each capitalised, three or more of them or each of
 * two words or more ("Manchester United & Real Madrid"; not "Procter & Gamble" or "Bosnia and Herzegovina").
 */
function isList(a: string): boolean {
    const parts = a.split(/\s*(?:,\s*(?:and\s+)?|\s&\s|\sand\s)\s*/).filter(Boolean);
    return (
        parts.length >= 2 &&
        parts.every(p => /^\p{Lu}/u.test(p)) &&
        (parts.length >= 3 || parts.every(p => p.split(/\s+/).length >= 2))
    );
}

/** Two answers of the same type; a proper name of unknown kind may stand for a person, place or organisation. */
export function sameType(a: AnswerType, b: AnswerType): boolean {
    const named = (t: AnswerType) => t === 'person' || t === 'place' || t === 'organisation';
    return a === b || (a === 'name' && named(b)) || (b === 'name' && named(a));
}

export type SwapRejection =
    | 'no-occurrence'
    | 'old-answer-left'
    | 'new-answer-missing'
    | 'type-mismatch'
    | 'containment'
    | 'extra-changes'
    | 'same-answer';

export interface Swap {
    passage: string;
    spans: [number, number][];
    replacement: string;
}

/** The forms that are a strict part of the answer (a name part such as "James" of "James Cameron"). */
function partForms(forms: readonly string[]): Set<string> {
    const words = (s: string) => ` ${normalise(s)} `;
    const full = forms.map(words);
    return new Set(
        forms.filter(f => {
            const w = words(f);
            return w.trim() !== '' && full.some(g => g !== w && g.length > w.length && g.includes(w));
        }),
    );
}

/**
 * The places the answer occurs as itself: every occurrence of a form, except a part of the answer's name that is
 * part of another name ("James" in "starring James Franco" when the answer is James Cameron).
 */
export function answerSpans(passage: string, forms: readonly string[]): [number, number][] {
    const parts = partForms(forms);
    if (parts.size === 0) return occurrences(passage, forms);
    const partHits = new Set(occurrences(passage, [...parts]).map(([a, b]) => `${a}:${b}`));
    return occurrences(passage, forms).filter(([a, b]) => !partHits.has(`${a}:${b}`) || !insideOtherName(passage, a, b));
}

/** A capitalised word right before or after the span, on the same line: the span is part of a longer name. */
function insideOtherName(passage: string, a: number, b: number): boolean {
    return (
        (/\p{Lu}[\p{L}'’.-]*[ \t]$/u.test(passage.slice(Math.max(0, a - 40), a)) &&
            !/[.!?:;]\s*\S*[ \t]$/.test(passage.slice(Math.max(0, a - 40), a))) ||
        /^[ \t]\p{Lu}/u.test(passage.slice(b, b + 3))
    );
}

/** Replaces every occurrence of the answer by `replacement`; undefined when the answer does not occur. */
export function swapAnswer(passage: string, forms: readonly string[], replacement: string): Swap | undefined {
    const hits = answerSpans(passage, forms);
    if (hits.length === 0) return undefined;
    let out = '';
    let at = 0;
    const spans: [number, number][] = [];
    for (const [a, b] of hits) {
        out += passage.slice(at, a);
        spans.push([out.length, out.length + replacement.length]);
        out += replacement;
        at = b;
    }
    return { passage: out + passage.slice(at), spans, replacement };
}

/** One answer's words inside the other's ("Berlin" / "Irving Berlin"), either way. */
export function contains(a: string, b: string): boolean {
    const x = ` ${normalise(a)} `,
        y = ` ${normalise(b)} `;
    return x.trim() !== '' && y.trim() !== '' && (x.includes(y) || y.includes(x));
}

/** The passage with the given spans each replaced by one mark: what must stay the same around a swap. */
function masked(passage: string, spans: readonly [number, number][]): string {
    let out = '';
    let at = 0;
    for (const [s, e] of spans) {
        out += passage.slice(at, s) + '\u0000';
        at = e;
    }
    return out + passage.slice(at);
}

/**
 * Why a swapped passage is not a valid case, or undefined when it is. `types` are the two answers' types when the
 * caller typed them (in context, or as one column); by default each answer is typed on its own.
 */
export function validateSwap(
    original: string,
    swap: Swap | undefined,
    oldForms: readonly string[],
    oldAnswer: string,
    types?: { old: AnswerType; fresh: AnswerType },
): SwapRejection | undefined {
    if (!swap) return 'no-occurrence';
    const fresh = unquote(swap.replacement);
    if (oldForms.some(f => normalise(f) === normalise(fresh))) return 'same-answer';
    // A replacement inside the old answer or around it still states (part of) the old answer.
    const parts = partForms(oldForms);
    if (oldForms.some(f => !parts.has(f) && contains(f, fresh))) return 'containment';
    const t = types ?? { old: answerType(oldAnswer), fresh: answerType(fresh) };
    if (!sameType(t.old, t.fresh)) return 'type-mismatch';
    // The old answer must be gone everywhere: as itself, in a possessive, inside another word, a URL or a
    // hyphenated slug, in any case, with any apostrophe — except a name part inside another name.
    const inSwap = ([a, b]: [number, number]) => swap.spans.some(([s, e]) => s <= a && b <= e);
    const own = new Set(answerSpans(swap.passage, oldForms).map(([a, b]) => `${a}:${b}`));
    const foreign = occurrences(swap.passage, oldForms).filter(([a, b]) => !own.has(`${a}:${b}`));
    const excused = ([a, b]: [number, number]) => inSwap([a, b]) || foreign.some(([s, e]) => s <= a && b <= e);
    if (foldedHits(swap.passage, oldForms).some(h => !excused(h))) return 'old-answer-left';
    if (occurrences(swap.passage, [fresh]).length === 0) return 'new-answer-missing';
    // Outside the intended spans (the answer's own occurrences in the old passage) the passage is what it was.
    return masked(swap.passage, swap.spans) === masked(original, answerSpans(original, oldForms)) ? undefined : 'extra-changes';
}

/** A preposition before a year or a date ("In 1933", "on June 2"): part of how the answer is written, not of what it is. */
const LEADING_PREPOSITION = /^(in|on|at|by|from|since|during|until)\s+/i;

/**
 * A replacement written in the form of the value it replaces: a year or a date drawn as "In 1933" replaces a bare
 * "1994" (a table cell) as "1933", and a bare one replaces "in 1994" as "in 1933" (the gold's preposition and case).
 * Other types are written as drawn.
 */
export function inFormOf(replacement: string, gold: string, type: AnswerType): string {
    if (type !== 'year' && type !== 'date') return replacement;
    const bare = replacement.replace(LEADING_PREPOSITION, '');
    const prep = LEADING_PREPOSITION.exec(unquote(gold))?.[0];
    return prep === undefined || bare === '' ? bare || replacement : prep + bare;
}

/** A word in the singular, roughly ("goals" → "goal", "cities" → "city"). */
const singular = (w: string) =>
    w
        .toLowerCase()
        .replace(/ies$/, 'y')
        .replace(/(ch|sh|x|ss)es$/, '$1')
        .replace(/([^s])s$/, '$1');

/**
 * What a count or number counts: the first word after the number in the answer ("3 goals" → goal), else the noun
 * after "how many" in its question ("How many people were arrested?" → people); undefined when neither says.
 */
export function countUnit(answer: string, question?: string): string | undefined {
    const m = new RegExp(`^(?:${QUALIFIER}\\s+)?${NUMBER}\\s+([\\p{L}-]+)`, 'iu').exec(unquote(answer).trim());
    const word = m?.at(-1);
    if (word && !/^(and|or|of|in|on|to|per)$/i.test(word)) return singular(word);
    const asked = /\bhow many\s+([a-z-]+)/i.exec(question ?? '')?.[1];
    return asked ? singular(asked) : undefined;
}
