/**
 * An answer with no verdict word that asserts the question's proposition, or its negation, as its own statement
 * (issue 41, rule 1): to "Is it true that L. Messi and Piqué share the same club?", "Lionel Messi and Gerard Piqué
 * were teammates in 2019." answers yes and "Messi and Piqué did not share a club." answers no.
 *
 * Built from the question's own structure, which the family knows: the entities the question names (each must be
 * named in the statement, a person by the last word of the name as the question writes it) and the relation it asks
 * about — the question's own content words and the names the family gives the relation (a rule's and its probe's
 * name); the statement must say one of them. Only where the answer has no verdict word of its own ("yes" / "no" alone). Its polarity is the statement's own (a negation or a word of contrast:
 * "not", "never", "different", "separate") against the question's (a question that asks "… have totally different
 * clubs?" is answered no by "they were teammates"). A statement that is conditional or only possible ("if both were
 * at …", "may have been", "could"), a question, or one that does not say each year the question names, does not answer.
 */
import { findWord, foldValue } from './fold.js';

export interface Proposition {
    /** The question as the family asks it (without a prompt's wrapping). */
    question: string;
    /** The entities the question names, as it names them ("L. Messi", "Piqué"). */
    entities: readonly string[];
    /** Names of the relation besides the question's words ("colleague", "teammates"), split at "_" and case. */
    names?: readonly string[];
}

/** Words of the question's frame and grammar: not the relation it asks about. */
const FRAME = new Set(
    (
        'is it true that in the a an and or of to for with by at on from as do does did was were are be been being has have had ' +
        'there any this these those statement please judge truth possibility possible case could would can will any also ' +
        'totally completely entirely really each one who whom which what when where while during year season'
    ).split(' '),
);
/** Negation and contrast: the statement (or the question) says the relation does not hold. */
const CONTRAST = /\b(?:not|never|no|neither|nor|different|separate|none)\b|n['\u2019]t\b/i;
/** A statement that does not assert: a condition, a mere possibility. */
const NOT_ASSERTED = /\b(?:if|whether|unless|suppose|supposing|assuming|might|may|could|would|perhaps|possibly|maybe)\b/i;

/** "yes" / "no" standing alone anywhere ("…, yes.", "no —"): the answer has verdict words of its own, which decide. */
const LONE_VERDICT = /\b(?:yes|no)\b(?=\s*(?:[.,;:!\u2013\u2014)*_-]|$))/i;

/** A year: the question's are part of its proposition ("In 2019, is it true that …"), and the statement must say each. */
const YEAR = /\b(?:1[5-9]|20)\d\d\b/g;

/** A word's stem for comparing relation words ("shares", "shared", "share" alike; "teammates", "teammate"). */
function stem(word: string): string {
    const w = word.length > 4 ? word.replace(/(?:ing|ed|es|e|s)$/, '') : word;
    return w.slice(0, 5);
}

/** The folded words of a text, as stems, without the frame's words, numbers and the entities' own words. */
function relationStems(text: string, skip: ReadonlySet<string>): Set<string> {
    const out = new Set<string>();
    for (const w of foldValue(text).split(/[^a-z0-9]+/)) {
        if (w.length < 3 || FRAME.has(w) || skip.has(w) || /\d/.test(w) || CONTRAST.test(w)) continue;
        out.add(stem(w));
    }
    return out;
}

/** The word that names an entity in a statement: the last word of its name of three letters or more ("L. Messi" → messi). */
function namingWord(entity: string): string | undefined {
    const words = foldValue(entity)
        .split(/[^a-z0-9]+/)
        .filter(w => w.length >= 3);
    return words[words.length - 1];
}

/** Splits a relation's name into words: "plays_in" → plays in, "hostsPlayer" → hosts player. */
function nameWords(name: string): string {
    return name.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/[_-]+/g, ' ');
}

/**
 * The polarity the answer's sentence text[a, b) asserts for the question's proposition: 'pos' (it holds as asked),
 * 'neg', or undefined when it does not assert it (an entity unnamed, no word of the relation, conditional, a
 * question) or the answer says "yes" / "no" alone somewhere (a verdict the reader could not place is not overruled).
 */
export function statesProposition(text: string, a: number, b: number, p: Proposition): 'pos' | 'neg' | undefined {
    if (LONE_VERDICT.test(text)) return undefined;
    const s = text.slice(a, b).trim();
    if (p.entities.length === 0 || s.endsWith('?') || NOT_ASSERTED.test(s)) return undefined;
    for (const y of p.question.match(YEAR) ?? []) if (!s.includes(y)) return undefined;
    const folded = foldValue(s);
    const skip = new Set<string>();
    for (const e of p.entities) {
        const w = namingWord(e);
        if (!w || findWord(folded, w) < 0) return undefined;
        for (const x of foldValue(e).split(/[^a-z0-9]+/)) skip.add(x);
    }
    const asked = relationStems([p.question, ...(p.names ?? []).map(nameWords)].join(' '), skip);
    let says = false;
    for (const w of relationStems(s, skip))
        if (asked.has(w)) {
            says = true;
            break;
        }
    if (!says) return undefined;
    return CONTRAST.test(s) === CONTRAST.test(p.question) ? 'pos' : 'neg';
}
