/**
 * Loose claims: an answer read against a graph neighbourhood rather than the spec's relation phrasings (the
 * open family, issue 17 step 4). The answer is cut into claims (sentences at . ! ? ; and line breaks, clauses at
 * ", and" / " and " / ", while" when both sides have three words or more); each claim's mentions come from the
 * shared linker (link.ts: leftmost-longest, a name inside a longer linked name never counts, short forms of an
 * entity named before), the relations its words name (stemmed: "directed" ~ "director"), bare numbers and
 * capitalised names that link to nothing, and its negation (claims.ts `negationAt`). A claim without an entity
 * of its own takes the subject of the previous claim in its sentence ("… and was released in 2009").
 * The family scores what this returns; it matches no text of its own.
 */
import { Linker, type EntityEntry, type Mention } from './link.js';
import { negationAt } from './claims.js';
import { ADVICE, HEDGE } from './abstain.js';
import { deniedSpans, describedSpans, isDenied, rejectedReports, reportedSpans, withoutDenied } from './denial.js';
import { findWord, stripValue } from './fold.js';
import type { StatedClaim } from './types.js';

export interface Claim {
    text: string;
    sentence: number;
    /** [start, end) in the answer (absent for a claim a model extracted in its own words). */ span?: [number, number];
}

/** One linkable thing of the neighbourhood: an entity or a value node. */
export interface LooseEntry {
    id: string;
    type: string;
    entity: boolean;
}

export interface LooseRelation {
    name: string;
    headType: string;
    tailType: string;
    /** Words that name it ("directed by", "director"). */ words: readonly string[];
}

export interface LooseLexicon {
    entries: LooseEntry[];
    /** An entity keyed by several values ("Messi (2019)"): its key values after the first, by id. */
    qualifiers?: Map<string, string[]>;
    linker: Linker;
    /** `byTail`: named in the passive ("directed by"): the tail does what its verb says, the head has it done. */
    relations: { name: string; stems: Set<string>; headType: string; tailType: string; byTail: boolean }[];
}

export interface LinkedClaim {
    text: string;
    /** [start, end) of the claim in the answer (absent for a claim a model extracted in its own words). */
    span?: [number, number];
    subject?: LooseEntry;
    objects: LooseEntry[];
    /** The mentions as linked, with their spans in the answer (in the claim's text when it has no span). */
    mentions: Mention[];
    relations: string[];
    numbers: string[];
    /** Capitalised word runs that link to no candidate ("Sam Mendes" outside the neighbourhood). */
    names: string[];
    /** The stripped text with every linked mention blanked: a label found only inside a longer name is not stated. */
    masked: string;
    /** A negation ("not", "never", "n't", "no longer") outside the mentions: the claim denies what it says. */
    negated: boolean;
    /** The claim is the denied part of a sentence ("Avatar came out in 2009, not 2012": "2012"; denial.ts). */
    denied?: boolean;
    /**
     * The subject is referred to, not named (a pronoun, a description, a possessor's "X's 2009 film"): the question's
     * entity of that kind. Such a claim can be supported but never contradicted (the reference may be to another thing).
     */
    referred?: true;
    /**
     * Not stated as the answer's own (issue 41, abstention): hedged in its clause ("it may have starred X", "I'm not
     * certain of his credit on Y") or offered as something to check ("I'd recommend checking whether X directed Y").
     */
    hedged?: true;
    /** The given facts' words (reported speech: "the facts list X as Y"), followed or set against: not the answer's own. */
    reported?: true;
    /**
     * Reported with the facts as the speaker ("the list says X", "they state that X"; denial.ts `describedSpans`) and not
     * agreed with: the facts' claim, which neither supports nor contradicts the answer.
     */
    described?: true;
    /**
     * Rows the subject may be besides \`subject\` (a composite key, "Messi" of "Messi (2019)" and "Messi (2022)", with
     * no row named in the claim): a check holds only where it holds for every one of them.
     */
    alternatives?: LooseEntry[];
}

const STOP = new Set([
    'the',
    'and',
    'was',
    'were',
    'has',
    'had',
    'have',
    'his',
    'her',
    'its',
    'for',
    'with',
    'that',
    'this',
    'which',
    'who',
    'are',
    'from',
    'into',
    'also',
    'not',
    'but',
    'been',
    'being',
    'their',
    'they',
    'them',
    'one',
]);
const SYNONYMS: Record<string, string> = {
    born: 'birth',
    made: 'direct',
    film: 'movie',
    starred: 'star',
    starring: 'star',
    runs: 'length',
    long: 'length',
    lasts: 'length',
};

/** A light suffix-stripping stem, enough for "directed" ~ "director" ~ "direction" and "released" ~ "release". */
function stem(word: string): string {
    const w = word.toLowerCase();
    if (SYNONYMS[w]) return SYNONYMS[w]!;
    for (const suffix of ['ings', 'ing', 'ions', 'ion', 'ors', 'ers', 'or', 'er', 'ed', 'es', 's', 'e']) {
        if (w.endsWith(suffix) && w.length - suffix.length >= 4) return w.slice(0, -suffix.length);
    }
    return w;
}

function stems(text: string): string[] {
    return (text.toLowerCase().match(/[a-z]+/g) ?? []).filter(w => w.length >= 3 && !STOP.has(w)).map(stem);
}

const KEEP = '\u0000';
/** A clause's own subject after its conjunction: a capitalised name, then a word that is no preposition. */
const CLAUSE_OWN_SUBJECT = String.raw`\s+\p{Lu}[\p{L}\p{N}'.\u0000-]*(?:\s+\p{Lu}[\p{L}\p{N}'.\u0000-]*)*\s+(?!(?:in|on|at|of|for|with|and|or|to|by|from|as|into|than|the|a|an)\b)\p{Ll}`;
/**
 * A subordinate clause with a subject of its own: a conjunction, a capitalised name, then a word that is no
 * preposition ("after Bryan Singer left to …", "when Nolan chose …"; not "before Titanic in 1997").
 */
const SUBORDINATE = String.raw`(?:after|before|when|once|until|because|since|although|though|whereas)${CLAUSE_OWN_SUBJECT}`;
/**
 * A clause that opens a subordinate clause with a subject of its own — also a "that" clause ("… and that Whedon
 * directed the first film" is about Whedon, not the sentence's subject): it does not continue the previous claim.
 */
const OPENS_SUBORDINATE = new RegExp(
    String.raw`^[\s*_"'(\u201c]*(?:that|after|before|when|once|until|because|since|although|though|whereas)${CLAUSE_OWN_SUBJECT}`,
    'u',
);
/**
 * Where a sentence is cut into clauses: ", and" / " and", ", while", a comma before a pronoun and its verb, a dash
 * before one when no dash closes it (a paired "— they list X as … —" is an aside inside its clause), and before a
 * subordinate clause with a subject of its own.
 */
const SPLIT =
    /,?\s+and\s+|,\s+while\s+|,\s+(?=(?:he|she|it|they|who)\s+\p{Ll})|\s+[\u2013\u2014]\s+(?=(?:he|she|it|they)\s+\p{Ll}[^\u2013\u2014]*$)/iu;
/** Case matters here (no `i`: it would let \p{Lu} match any letter). */
const SPLIT_SUBORDINATE = new RegExp(String.raw`,?\s+(?=${SUBORDINATE})`, 'u');
/**
 * A relative clause opened by "which" and its verb, right after a name (its last word capitalised or a number, or a
 * parenthesis after it): "Transcendence (2014), which starred Johnny Depp". Not after a common noun ("the facts
 * provided, which match …") nor with a subject of its own ("which the list credits to …"). Case matters (no `i`).
 */
const SPLIT_WHICH =
    /(?<=(?:^|[\s\u0000])[(*_"'\u201c]*[\p{Lu}\p{N}][^\s,]*),\s+(?=which\s+(?!(?:the|a|an|his|her|its|their|this|that|these|those|i|we|you|he|she|they|it)\b)\p{Ll})/u;
/** A clause opening with a lower-case word (after markup and quotes), not a pronoun of its own subject. */
const CONTINUES = /^[\s*_"'(\u201c-]*(?!(?:he|she|it|they|this|these|its|his|her|their)\b)\p{Ll}/u;
/** A clause opening (after an adverb) with a pronoun or "the film": its subject is not a name it writes. */
const ANAPHOR =
    /^[\s*_"'(\u201c]*(?:(?:afterwards|later|then|also|still|so|next|meanwhile|again),?\s+)?(?:he|she|it|they|his|her|its|their|this|that|the\s+(?:film|movie|picture|sequel|director|actor))\b/i;
/**
 * Words that frame a clause without being its subject: a condition ("If you mean the 2009 film, …") and the speaker's
 * stance ("I believe", "as far as I know,"). What follows them opens the clause.
 */
const FRAMING =
    /^[\s*_"'(\u201c]*(?:if\b[^,;]*,\s*)?(?:(?:i\s+(?:believe|think|recall|understand|remember)|from\s+what\s+i\s+(?:know|recall|remember)|as\s+far\s+as\s+i\s+(?:know|recall)|to\s+(?:the\s+best\s+of\s+)?my\s+knowledge|if\s+i\s+(?:recall|remember)\s+(?:correctly|rightly))(?:\s+that)?\s*,?\s*)?/i;
/** A possessor ("James Cameron's …"): the clause is about what it possesses, not about the possessor. */
const POSSESSIVE = /^(?:'s|\u2019s|'|\u2019)(?=\s)/;
/** The question's entity by a pronoun: the one entity a question asks about (with two, "it" could be either). */
const PRONOUN = /^(?:he|she|it|they|his|her|its|their|this|that)\b/i;
/** A plural or collective noun after a name: the name is a modifier ("King Kong films", "the Cars franchise"). */
const SET_NOUN = /^\s+(?:films|movies|pictures|franchise|series|saga|trilogy|sequels|remakes|adaptations|versions)\b/i;
/** Two or more capitalised words (a full name) followed by a lower-case word: a subject the lexicon does not hold. */
const UNLINKED_FULL_NAME = /(?:^|[^\p{L}])\p{Lu}[\p{Ll}'-]+(?:\s+\p{Lu}[\p{Ll}'-]+)+\s+(?:\p{Ll}|$)/u;

/**
 * `names` are labels never to cut inside ("Oz the Great and Powerful", "J.K. Simmons"): their spaces are held
 * while splitting. A full stop after a lone capital (an initial) ends no sentence either.
 */
export function splitClaims(answer: string, names: readonly string[] = []): Claim[] {
    const out: Claim[] = [];
    // A label's own closing full stop (a plot "A ship sinks.") still ends the sentence.
    const held = [...new Set(names.map(n => n.replace(/[.!?;]+$/, '')))]
        .filter(n => /\s|\./.test(n))
        .sort((a, b) => b.length - a.length);
    const hold = (text: string) =>
        held.reduce((t, n) => {
            for (
                let at = t.toLowerCase().indexOf(n.toLowerCase());
                at >= 0;
                at = t.toLowerCase().indexOf(n.toLowerCase(), at + n.length)
            ) {
                t =
                    t.slice(0, at) +
                    t
                        .slice(at, at + n.length)
                        .replace(/\s/g, KEEP)
                        .replace(/\./g, '\u0001') +
                    t.slice(at + n.length);
            }
            return t;
        }, text);
    const release = (text: string) => text.replaceAll(KEEP, ' ').replaceAll('\u0001', '.');
    const sentences = answer
        .split(/\n+/)
        .map(line => hold(line.replace(/^\s*(?:[-*•]|\d+[.)])\s+/, '')))
        .flatMap(line => line.split(/(?<=(?<!(?:^|[\s.])\p{Lu})[.!?;]["'\u201d\u2019]?)\s+/u))
        .map(s => s.trim())
        .filter(Boolean);
    let cursor = 0;
    sentences.forEach((held, i) => {
        const sentence = release(held);
        const parts = held
            .split(SPLIT)
            .flatMap(p => p.split(SPLIT_SUBORDINATE))
            .flatMap(p => p.split(SPLIT_WHICH))
            .map(p =>
                release(p)
                    .replace(/[.!?;]+$/, '')
                    .trim(),
            )
            .filter(p => p.length > 0);
        // A comma or a dash before a pronoun and its verb opens a clause of its own ("X wasn't a star of Y, he directed it",
        // "X directed Y — he didn't star in it").
        // A part of one or two words ("Cameron and Mendes") is a list, not a clause: keep the sentence whole.
        const clauses =
            parts.length > 1 && parts.every(p => p.split(/\s+/).length >= 3) ? parts : [sentence.replace(/[.!?;]+$/, '').trim()];
        for (const text of clauses) {
            const at = answer.indexOf(text, cursor);
            const start = at >= 0 ? at : cursor;
            if (at >= 0) cursor = at + text.length;
            out.push({ text, sentence: i, span: [start, start + text.length] });
        }
    });
    return out;
}

/** What the linker needs of a neighbourhood node: its names as written and its aliases. */
export interface LooseName extends LooseEntry {
    names: readonly string[];
    aliases?: readonly string[];
}

const PERSON = /^\p{Lu}[\p{L}.'-]*(?:\s+\p{Lu}[\p{L}.'-]*)+$/u;

/**
 * One linker over the neighbourhood: every name, its letters-and-digits form ("JK Simmons" for "J.K. Simmons")
 * and its aliases; an entity whose name reads like a person's gets the surname as a short form. A short form only
 * one entry has links even before its entity is named (the neighbourhood is small), unless it is one word of a
 * longer written name ("Cameron" in "Jim Cameron").
 */
export function buildLooseLexicon(nodes: readonly LooseName[], relations: readonly LooseRelation[]): LooseLexicon {
    const seen = new Set<string>();
    const entries: LooseEntry[] = [];
    const linkable: EntityEntry[] = [];
    const qualifiers = new Map<string, string[]>();
    for (const n of nodes) {
        if (seen.has(n.id)) continue;
        seen.add(n.id);
        entries.push({ id: n.id, type: n.type, entity: n.entity });
        const keyed = n.entity ? n.names.map(x => /\(([^()]+)\)\s*$/.exec(x)?.[1]).find(x => x !== undefined) : undefined;
        if (keyed) qualifiers.set(n.id, keyed.split(/,\s*/).filter(Boolean));
        const names = [...new Set(n.names.filter(x => x.trim() !== ''))];
        const plain = names
            .map(x =>
                x
                    .normalize('NFKD')
                    .replace(/[^\p{L}\p{N}\s]/gu, '')
                    .replace(/\s+/g, ' ')
                    .trim(),
            )
            .filter(x => x.length >= 3 && !names.includes(x));
        const e: EntityEntry = { id: n.id, type: n.type, names, aliases: [...(n.aliases ?? []), ...plain] };
        if (n.entity && names.some(x => PERSON.test(x.replace(/\s*\(.*\)\s*$/, '')))) e.person = true;
        linkable.push(e);
    }
    return {
        entries,
        qualifiers,
        linker: new Linker(linkable, undefined, { uniqueShort: true }),
        relations: relations.map(r => ({
            name: r.name,
            stems: new Set(r.words.flatMap(stems)),
            headType: r.headType,
            tailType: r.tailType,
            byTail: r.words.some(w => /\w\s+by$/i.test(w.trim())),
        })),
    };
}

/**
 * Runs of capitalised words still present in the masked text; a lone word opening a claim ("It") is not a name,
 * unless the text is a claim's object alone (\`opensName\`: "Madrid").
 */
function unlinkedNames(text: string, masked: string, opensName = false): string[] {
    const out: string[] = [];
    for (const m of text.matchAll(/\p{Lu}[\p{L}'-]*(?:\s+\p{Lu}[\p{L}'-]*)*/gu)) {
        const run = m[0];
        if (m.index === 0 && !/\s/.test(run) && !opensName) continue;
        const s = stripValue(run);
        if (s && findWord(masked, s) >= 0) out.push(run);
    }
    return out;
}

/**
 * A claim's denied spans (in its text): its own, and those of the whole answer that reach into it — doubt about the
 * given facts in one sentence covers the facts it reports in the next ("Some facts are clearly off. X is listed
 * with Y …"), which the claim's own text cannot show.
 */
function deniedIn(claim: Claim, whole: readonly [number, number][]): [number, number][] {
    const own = deniedSpans(claim.text);
    const extra = whole.length === 0 ? [] : localSpans(claim, whole);
    if (extra.length === 0) return own;
    const all = [...own, ...extra].sort((p, q) => p[0] - q[0]);
    const merged: [number, number][] = [[...all[0]!]];
    for (const s of all.slice(1)) {
        const last = merged[merged.length - 1]!;
        if (s[0] <= last[1]) last[1] = Math.max(last[1], s[1]);
        else merged.push([...s]);
    }
    return merged;
}

/** The spans of the whole answer that reach into a claim, in the claim's text. */
function localSpans(claim: Claim, spans: readonly [number, number][]): [number, number][] {
    if (!claim.span) return [];
    const [a, b] = claim.span;
    return spans.filter(([x, y]) => y > a && x < b).map(([x, y]): [number, number] => [Math.max(x, a) - a, Math.min(y, b) - a]);
}

/**
 * `answer`: the text the claims were cut from (their spans point into it), read whole for what a denial covers.
 * `topic`: ids of the entities the question asks about — what a clause refers to when it names no subject of its own.
 */
export function linkClaims(
    claims: readonly Claim[],
    lexicon: LooseLexicon,
    answer?: string,
    topic: readonly string[] = [],
): LinkedClaim[] {
    const out: LinkedClaim[] = [];
    const whole = answer !== undefined ? deniedSpans(answer) : [];
    // What the answer reports of the given facts ("Per the facts given, X, not Y") is the answer's claim only as a
    // whole: followed (no denial starts there) or set against (denied from its start). A correction written inside
    // the report ("not Y") is the facts' own, no negated claim of the answer's.
    const reported = answer !== undefined ? reportedSpans(answer) : [];
    // A report the answer then rejects whole ("The facts claim X. None of that fits what I know.") is no claim of its.
    const rejected = answer !== undefined && reported.length ? rejectedReports(answer, reported) : [];
    const described = reported.length ? describedSpans(answer!) : [];
    let pending: { sentence: number; relations: string[] } | undefined;
    let previous: { sentence: number; subject?: LooseEntry; last?: LooseEntry; referred?: boolean } = { sentence: -1 };
    const named: string[] = [];
    /** The entries of every mention so far, in order (what a later reference could mean instead). */
    const namedTypes: LooseEntry[] = [];
    const topical = topicEntries(lexicon, topic);
    for (const claim of claims) {
        const namedBefore = namedTypes.length;
        // A name before a plural or collective noun ("several King Kong films", "the Cars franchise") names a set of
        // things called so, not the entity: no mention of it.
        const found = lexicon.linker.link(claim.text, named).filter(m => !SET_NOUN.test(claim.text.slice(m.end, m.end + 16)));
        for (const m of found) {
            named.push(m.id);
            for (const k of m.entries) namedTypes.push(lexicon.entries[k]!);
        }
        // What a denial covers (denial.ts): a mention inside a denied span ("2009, not 2012") is no part of the
        // claim; it is a negated claim of its own about the same subject.
        const source = reported.length ? localSpans(claim, reported) : [];
        const denied = deniedIn(claim, whole).filter(([a, b]) => !source.some(([x, y]) => x < a && b <= y));
        const setAside = [...denied, ...(rejected.length ? localSpans(claim, rejected) : [])].sort((x, y) => x[0] - y[0]);
        const kept = setAside.length ? found.filter(m => !isDenied(setAside, m.start, m.end)) : found;
        const readings = (ms: readonly Mention[]) => ms.flatMap(m => m.entries.map(k => lexicon.entries[k]!));
        const visible = denied.length ? withoutDenied(claim.text, denied) : claim.text;
        // The claim's subject is the entity its clause is about: the first linked entity, unless a full name the data
        // does not hold comes before it ("Zoe Saldana also starred in Avatar" is about Zoe Saldana, not Avatar).
        const first = kept.find(m => m.entries.some(k => lexicon.entries[k]!.entity));
        const rows = first ? first.entries.map(k => lexicon.entries[k]!).filter(e => e.entity) : [];
        let subject: LooseEntry | undefined = rows[0];
        let alternatives: LooseEntry[] = [];
        // A clause that opens with a lower-case word continues its sentence's previous claim ("James Cameron wrote
        // and directed Avatar": "directed Avatar" is about James Cameron); what it names are its objects.
        // A relative clause ("…, who had left to direct X", "…, which starred Y") is about the entity named last before it.
        // Only when that entity ends the clause before; a name the data does not hold there leaves no subject.
        // A subordinate clause with a name of its own ("after Bryan Singer left to make X") is about that name.
        const relative = previous.sentence === claim.sentence && /^\s*(?:who|which)\b/i.test(claim.text);
        // A clause that refers to its subject without naming it: a pronoun or a description ("He directed X", "The film
        // was his follow-up to X"), after framing words ("If you mean …, I believe it was …"), or a possessor's
        // description ("James Cameron's 2009 film"). It is not about the first name it mentions.
        const refers = topical.length > 0 || first ? referring(visible, first, kept, lexicon) : undefined;
        let referred = false;
        const continues =
            previous.subject !== undefined &&
            previous.sentence === claim.sentence &&
            CONTINUES.test(claim.text) &&
            !OPENS_SUBORDINATE.test(claim.text);
        if (relative) subject = previous.last;
        else if (continues) {
            subject = previous.subject;
            referred = previous.referred === true;
        } else if (first && UNLINKED_FULL_NAME.test(visible.slice(0, first.start))) subject = undefined;
        else if (first && refers && !refers.possessor) subject = undefined;
        else if (first && refers?.possessed) subject = refers.possessed;
        else if (rows.length > 1) {
            // A composite key: the row whose other key values the claim writes ("Messi … in 2022"), else any of them.
            const stripped = stripValue(claim.text);
            const named = rows.filter(e =>
                (lexicon.qualifiers?.get(e.id) ?? []).every(q => findWord(stripped, stripValue(q)) >= 0),
            );
            const pick = named.length > 0 ? named : rows;
            subject = pick[0];
            alternatives = pick.slice(1);
        }
        // A clause without a name of its own continues its sentence's subject; a relative clause ("…, who had
        // directed X") stays about the name it follows, or about none.
        if (!first && !relative && previous.sentence === claim.sentence) {
            subject = previous.subject;
            referred = previous.referred === true;
        }
        // What it refers to: the question's entity of its kind (issue 41), when the answer named no other entity of that
        // kind before — that one could be meant. Referred to, not named, it can confirm a claim, never contradict one.
        const possessorOnly = refers?.possessor !== undefined && !refers.possessed && subject === refers.possessor;
        if ((!subject || possessorOnly) && !relative && refers) {
            const r = referent(topical, refers, namedTypes.slice(0, namedBefore));
            if (r) {
                subject = r;
                referred = true;
            }
        }
        // A value in parentheses right after another entity qualifies that entity ("… since Titanic (1997)"): it is
        // no object of this claim's subject (the subject's own "Avatar (2009)" stays).
        const objectsOf = kept.filter(m => !qualifiesOther(claim.text, kept, m, subject, lexicon));
        const own = linkedPart(
            claim,
            claim.text,
            kept,
            readings(objectsOf).filter(e => !rows.includes(e) || e === subject || subject !== rows[0]),
            subject,
            lexicon,
            visible,
        );
        if (alternatives.length > 0) own.alternatives = alternatives;
        if (referred && subject) own.referred = true;
        if (uncommitted(claim.text, kept)) own.hedged = true;
        if (kept.length > 0 && kept.every(m => isDenied(source, m.start, m.end))) own.reported = true;
        const said = described.length ? localSpans(claim, described) : [];
        if (kept.length > 0 && kept.every(m => isDenied(said, m.start, m.end))) own.described = true;
        // Verbs that share one object ("James Cameron directed and co-wrote Avatar"): a clause that names a relation
        // and no object lends its relation to the next clause of its sentence that continues it.
        if (pending && pending.sentence === claim.sentence && CONTINUES.test(claim.text))
            own.relations = [...new Set([...own.relations, ...pending.relations])];
        pending =
            own.relations.length > 0 && own.objects.length === 0 && own.numbers.length === 0 && own.names.length === 0
                ? { sentence: claim.sentence, relations: own.relations }
                : undefined;
        if (
            own.objects.length > 0 ||
            own.numbers.length > 0 ||
            own.names.length > 0 ||
            denied.length === 0 ||
            own.relations.length > 0
        )
            out.push(own);
        for (const [a, b] of denied) {
            const ms = found.filter(m => m.start >= a && m.end <= b);
            // The denied span's subject: the clause's, when the clause names it before the span ("Avatar came out in
            // 2009, not 2012"); the span's own first entity when the clause's subject comes after it ("Listing X under
            // Y is wrong — Z directed it": a claim about X).
            const inSpan = readings(ms).find(e => e.entity);
            const after = first !== undefined && subject !== undefined && rows.includes(subject) && first.start >= b;
            const about = inSpan && after ? inSpan : (subject ?? inSpan);
            const blank = ' '.repeat(a) + claim.text.slice(a, b) + ' '.repeat(claim.text.length - b);
            const part = linkedPart(claim, claim.text.slice(a, b), ms, readings(ms), about, lexicon, blank, [a, b]);
            if (part.objects.length === 0 && part.numbers.length === 0 && part.names.length === 0) continue;
            part.negated = true;
            part.denied = true;
            if (referred && about === subject) part.referred = true;
            if (source.some(([x, y]) => x < b && a < y)) part.reported = true;
            if (said.some(([x, y]) => x < b && a < y)) part.described = true;
            out.push(part);
        }
        const lastEntity = [...kept].reverse().find(m => m.entries.some(k => lexicon.entries[k]!.entity));
        const last =
            lastEntity && /^[\s*_"')\u201d]*$/.test(claim.text.slice(lastEntity.end))
                ? lastEntity.entries.map(k => lexicon.entries[k]!).find(e => e.entity)
                : undefined;
        previous = { sentence: claim.sentence, subject, ...(last ? { last } : {}), ...(referred ? { referred } : {}) };
    }
    return out;
}

/** The question's entities among the lexicon's. */
function topicEntries(lexicon: LooseLexicon, topic: readonly string[]): LooseEntry[] {
    if (topic.length === 0) return [];
    const ids = new Set(topic);
    return lexicon.entries.filter(e => e.entity && ids.has(e.id));
}

interface Reference {
    /** The words that refer ("it", "the film", "2009 film" after a possessor): their kind words pick the entity. */
    words: string;
    /** A possessor's entity ("James Cameron's"): not what the clause is about. */
    possessor?: LooseEntry;
    /** What the possessor possesses when that is a name ("Cameron's Avatar"): the subject itself. */
    possessed?: LooseEntry;
}

/**
 * Does the clause refer to its subject without naming it? After framing words, it opens with a pronoun or a
 * description (ANAPHOR), or with a possessor ("X's …") — then it is about what X's phrase names.
 */
function referring(
    visible: string,
    first: Mention | undefined,
    kept: readonly Mention[],
    lexicon: LooseLexicon,
): Reference | undefined {
    const head = first ? visible.slice(0, first.start) : visible;
    const framed = head.slice(FRAMING.exec(head)?.[0].length ?? 0);
    // "that" right before the clause's first name opens a clause about that name ("… and that James Cameron directed
    // Avatar"), no demonstrative "that" ("That was his first film").
    const rest = first && /^[\s*_"'(\u201c]*that\s+$/i.test(framed) ? '' : framed;
    if (first && rest.trim() === '' && POSSESSIVE.test(visible.slice(first.end))) {
        const possessor = first.entries.map(k => lexicon.entries[k]!).find(e => e.entity);
        const next = kept.find(m => m.start > first.end);
        const owned =
            next && /^(?:'s|\u2019s|'|\u2019)\s+$/.test(visible.slice(first.end, next.start))
                ? next.entries.map(k => lexicon.entries[k]!).find(e => e.entity)
                : undefined;
        const phrase = visible.slice(first.end, next ? next.start : visible.length).split(/[,;:(]/)[0]!;
        return { words: phrase, ...(possessor ? { possessor } : {}), ...(owned ? { possessed: owned } : {}) };
    }
    if (ANAPHOR.test(rest) || (!first && PRONOUN.test(rest.replace(/^[\s*_"'(\u201c]+/, '')))) return { words: rest };
    return undefined;
}

/**
 * The question's entity a reference means: of the kind its words name ("the film": a Movie), else the one entity the
 * question asks about (besides a possessor); none when the answer named another entity of that kind before.
 */
function referent(topical: readonly LooseEntry[], ref: Reference, namedBefore: readonly LooseEntry[]): LooseEntry | undefined {
    const pool = topical.filter(e => e !== ref.possessor);
    const kinds = stems(ref.words);
    const typed = pool.filter(e => kinds.some(w => w === stem(e.type) || stem(w) === stem(e.type)));
    const candidates = typed.length > 0 ? typed : pool;
    if (candidates.length !== 1) return undefined;
    const one = candidates[0]!;
    return namedBefore.some(e => e.id !== one.id && e.type === one.type) ? undefined : one;
}

/** Is mention `m` a value in parentheses right after a mention of an entity other than `subject`? */
function qualifiesOther(
    text: string,
    found: readonly Mention[],
    m: Mention,
    subject: LooseEntry | undefined,
    lexicon: LooseLexicon,
): boolean {
    if (m.entries.some(k => lexicon.entries[k]!.entity)) return false;
    if (!/^[\s*_]*\)/.test(text.slice(m.end, m.end + 4))) return false;
    const before = found.filter(p => p.end <= m.start && /^[\s*_]*\([\s*_]*$/.test(text.slice(p.end, m.start)));
    return before.some(p => p.entries.some(k => lexicon.entries[k]!.entity && lexicon.entries[k] !== subject));
}

/** One claim (or its denied part: `part`, [start, end) in the claim's text) linked: its mentions, words, numbers and names. */
function linkedPart(
    claim: Claim,
    text: string,
    found: readonly Mention[],
    readings: LooseEntry[],
    subject: LooseEntry | undefined,
    lexicon: LooseLexicon,
    visible: string,
    part?: [number, number],
): LinkedClaim {
    const objects = [...new Map(readings.filter(e => e !== subject).map(e => [e.id, e])).values()];
    let blanked = visible;
    for (const m of found) blanked = blanked.slice(0, m.start) + ' '.repeat(m.end - m.start) + blanked.slice(m.end);
    const masked = stripValue(blanked);
    const numbers = masked.match(/\b\d+(?:\.\d+)?\b/g) ?? [];
    // Relation words: a denied part's own when it writes one ("the facts list X as a star of Y, but he directed it":
    // the denial is of "star"); else the whole claim's (the denied part "not 2012" names the relation of its claim).
    // A relation word inside a run of capitalised words is part of a name the data does not hold ("the 2009 Star Trek
    // reboot" names no *star*); a lone capitalised word ("Directed by …") still names its relation.
    const named = (t: string) => {
        const words = new Set(
            stems(stripValue(t.replace(/\p{Lu}[\p{L}'-]*(?:\s+\p{Lu}[\p{L}'-]*)+/gu, m => ' '.repeat(m.length)))),
        );
        return lexicon.relations.filter(r => [...r.stems].some(s => words.has(s))).map(r => r.name);
    };
    const whole = withoutMentions(claim.text, found);
    const ownWords = part ? named(whole.slice(part[0], part[1])) : [];
    const words = part && ownWords.length > 0 ? whole.slice(part[0], part[1]) : whole;
    const relations = (ownWords.length > 0 ? ownWords : named(whole)).filter(r => !doneBy(words, r, subject, lexicon));
    const offset = claim.span?.[0] ?? 0;
    const shifted = found.map(m => ({ ...m, start: m.start + offset, end: m.end + offset }));
    const linked: LinkedClaim = {
        text,
        objects,
        mentions: shifted,
        relations,
        numbers,
        names: unlinkedNames(visible, masked),
        masked,
        negated: negatedClause(visible, found),
    };
    if (claim.span) linked.span = part ? [claim.span[0] + part[0], claim.span[0] + part[1]] : claim.span;
    if (subject) linked.subject = subject;
    return linked;
}

/** A relation word as a noun or an adjective of its own ("director", "direction"), not a verb. */
const NOUN_FORM = /(?:ors?|ers?|ions?|ing)$/;

/**
 * Does the claim write relation `r`, one named in the passive ("directed by": the tail directs, the head is directed),
 * only as an active verb ("directed", "made", "direct") while its subject is the relation's head (a film)? Then the relation's value is the verb's doer, before the verb: after it ("[he] directed Oz
 * for Disney") the film is the verb's object and what follows names no director; before it ("Rush Hour 3 made $258
 * million") the film is the doer and the clause is no claim of who directed it. Either way the clause states no value
 * of `r` for its subject (what it links is still checked against the facts: "Avatar, which James Cameron directed").
 * Only for a relation between entities (an attribute's value is no doer: "Avatar was released in 2009").
 */
function doneBy(text: string, r: string, subject: LooseEntry | undefined, lexicon: LooseLexicon): boolean {
    const rel = lexicon.relations.find(x => x.name === r);
    if (!rel?.byTail || !subject || subject.type !== rel.headType || rel.tailType === r) return false;
    if (!lexicon.entries.some(e => e.entity && e.type === rel.tailType)) return false;
    let verbs = 0;
    for (const m of text.matchAll(/[A-Za-z]+/g)) {
        const w = m[0];
        if (w.length < 3 || !rel.stems.has(stem(w))) continue;
        const passive = /^\s+by\b/i.test(text.slice(m.index + w.length, m.index + w.length + 6));
        if (passive || NOUN_FORM.test(w.toLowerCase()) || /^\p{Lu}/u.test(w)) return false;
        verbs++;
    }
    return verbs > 0;
}

/** A clause boundary of a sentence: a comma, semicolon, colon, parenthesis or dash, or "but". */
const CLAUSE_BOUND = /[,;:()\u2014\u2013]|\s-\s|\bbut\b/g;

/**
 * What a negation or a hedge covers (issue 41): the clause it is written in. `marks(clause, offset, its mentions)` is
 * asked of each clause that holds one of the mentions (of the whole text when there are none).
 */
function inOwnClause(
    text: string,
    found: readonly Mention[],
    marks: (clause: string, offset: number, inClause: readonly Mention[]) => boolean,
): boolean {
    if (found.length === 0) return marks(text, 0, found);
    let from = 0;
    const clause = (a: number, b: number) => {
        const inClause = found.filter(m => m.start < b && m.end > a);
        return inClause.length > 0 && marks(text.slice(a, b), a, inClause);
    };
    for (const m of text.matchAll(CLAUSE_BOUND)) {
        if (found.some(x => x.start < m.index && m.index < x.end)) continue;
        if (clause(from, m.index)) return true;
        from = m.index + m[0].length;
    }
    return clause(from, text.length);
}

/**
 * The claim is negated when a clause that holds one of its mentions holds a negation: "X starred in Y, he never
 * directed a film" denies nothing of "X starred in Y".
 */
function negatedClause(text: string, found: readonly Mention[]): boolean {
    return inOwnClause(text, found, (clause, at, inClause) => negationAt(clause, at, inClause) >= 0);
}

/**
 * The claim is not stated as the answer's own when a clause that holds one of its mentions is hedged ("Avatar may
 * have been directed by X", "I'm not certain of his credit on Y") or is advice on what to check ("I'd recommend
 * checking whether X directed Y").
 */
function uncommitted(text: string, found: readonly Mention[]): boolean {
    return inOwnClause(text, found, clause => HEDGE.test(clause) || ADVICE.test(clause));
}

function withoutMentions(text: string, found: readonly Mention[]): string {
    let out = text;
    for (const m of found) out = out.slice(0, m.start) + ' '.repeat(m.end - m.start) + out.slice(m.end);
    return out;
}

/**
 * Stated claims linked like the pattern reader's (the same linker, short forms of what was named before, relation
 * words, numbers and unlinked names), so the family checks both the same way: the subject is the first entity its
 * words name, the objects what the object's words name; the relation words are the phrase's and the object's; the
 * polarity is the model's. Mentions are not kept (their words were the model's, not the answer's).
 */
export function linkStatedClaims(claims: readonly StatedClaim[], lexicon: LooseLexicon): LinkedClaim[] {
    const named: string[] = [];
    const readings = (found: readonly Mention[]) => found.flatMap(m => m.entries.map(k => lexicon.entries[k]!));
    return claims.map(c => {
        const own = lexicon.linker.link(c.subject, named);
        for (const m of own) named.push(m.id);
        const subject = readings(own).find(e => e.entity) ?? readings(own)[0];
        const found = lexicon.linker.link(c.object, named);
        for (const m of found) named.push(m.id);
        const objects = [
            ...new Map(
                readings(found)
                    .filter(e => e !== subject)
                    .map(e => [e.id, e]),
            ).values(),
        ];
        let blanked = c.object;
        for (const m of found) blanked = blanked.slice(0, m.start) + ' '.repeat(m.end - m.start) + blanked.slice(m.end);
        const masked = stripValue(blanked);
        const words = new Set(stems(`${c.relation} ${masked}`));
        const linked: LinkedClaim = {
            text: c.quote ?? `${c.subject} ${c.negated ? 'not ' : ''}${c.relation} ${c.object}`,
            objects,
            mentions: [],
            relations: lexicon.relations.filter(r => [...r.stems].some(s => words.has(s))).map(r => r.name),
            numbers: masked.match(/\b\d+(?:\.\d+)?\b/g) ?? [],
            names: unlinkedNames(c.object, masked, true),
            masked,
            negated: c.negated,
        };
        if (c.span) linked.span = c.span;
        if (subject) linked.subject = subject;
        return linked;
    });
}

/** Does the claim state `label` (as a word run, outside its linked names)? */
export function statesLabel(claim: LinkedClaim, label: string): boolean {
    return [label, label.split(', ')[0]!].some(l => {
        const s = stripValue(l);
        return s.length > 0 && findWord(claim.masked, s) >= 0;
    });
}
