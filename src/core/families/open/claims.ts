/**
 * Atomic claims of an open answer, linked to the data (issue 17 step 4). The pattern-based splitter (used for
 * the offline simulator, and as the fallback when no extraction model is configured) cuts sentences at
 * . ! ? ; and line breaks, then clauses at ", and" / " and " / ", while" when both sides name something.
 * Linking finds, in each claim, the mentions of candidate nodes (the question's neighbourhood and the
 * context given: entity labels, their first key value, value labels, and any alias forms supplied), the
 * relations its words name (stemmed: "directed" ~ "director") and bare numbers. A claim without an entity of
 * its own takes the subject of the previous claim in its sentence ("… and was released in 2009").
 */
import { findWord, stripValue } from '../../verify/normalise.js';
import { partOfLongerName, shortForms } from '../../reader/index.js';
import type { ContextNode, StoredRelation } from './types.js';

export interface Claim { text: string; sentence: number }

export interface LexiconEntry {
    id: string; type: string; entity: boolean; forms: string[];
    /** Short forms (surname, title without year, name without club affix): they link only to an entity named before in the answer, or when no other entry has them. */
    short?: string[];
}

export interface Lexicon { entries: LexiconEntry[]; relations: { name: string; stems: Set<string>; headType: string; tailType: string }[] }

export interface LinkedClaim {
    text: string;
    /** The claim's stripped text (for form look-ups). */
    stripped: string;
    subject?: LexiconEntry;
    objects: LexiconEntry[];
    relations: string[];
    numbers: string[];
    /** Capitalised word runs that link to no candidate ("Sam Mendes" outside the neighbourhood). */
    names: string[];
    /** The stripped text with every linked mention blanked: a label found only inside a longer name is not stated. */
    masked: string;
    /** A negation ("not", "never", "n't", "no longer") outside the mentions: the claim denies what it says. */
    negated: boolean;
}

const STOP = new Set(['the', 'and', 'was', 'were', 'has', 'had', 'have', 'his', 'her', 'its', 'for', 'with', 'that', 'this', 'which', 'who', 'are', 'from', 'into', 'also', 'not', 'but', 'been', 'being', 'their', 'they', 'them', 'one']);
const SYNONYMS: Record<string, string> = { born: 'birth', made: 'direct', film: 'movie', starred: 'star', starring: 'star', runs: 'length', long: 'length', lasts: 'length' };

/** A light suffix-stripping stem, enough for "directed" ~ "director" ~ "direction" and "released" ~ "release". */
export function stem(word: string): string {
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

/**
 * `names` are labels never to cut inside ("Oz the Great and Powerful", "J.K. Simmons"): their spaces are held
 * while splitting. A full stop after a lone capital (an initial) ends no sentence either.
 */
export function splitClaims(answer: string, names: readonly string[] = []): Claim[] {
    const out: Claim[] = [];
    // A label's own closing full stop (a plot "A ship sinks.") still ends the sentence.
    const held = [...new Set(names.map(n => n.replace(/[.!?;]+$/, '')))].filter(n => /\s|\./.test(n)).sort((a, b) => b.length - a.length);
    const hold = (text: string) => held.reduce((t, n) => {
        for (let at = t.toLowerCase().indexOf(n.toLowerCase()); at >= 0; at = t.toLowerCase().indexOf(n.toLowerCase(), at + n.length)) {
            t = t.slice(0, at) + t.slice(at, at + n.length).replace(/\s/g, KEEP).replace(/\./g, '\u0001') + t.slice(at + n.length);
        }
        return t;
    }, text);
    const release = (text: string) => text.replaceAll(KEEP, ' ').replaceAll('\u0001', '.');
    const sentences = answer.split(/\n+/).map(line => hold(line.replace(/^\s*(?:[-*•]|\d+[.)])\s+/, '')))
        .flatMap(line => line.split(/(?<=(?<!(?:^|[\s.])\p{Lu})[.!?;])\s+/u)).map(s => s.trim()).filter(Boolean);
    sentences.forEach((held, i) => {
        const sentence = release(held);
        const parts = held.split(/,?\s+and\s+|,\s+while\s+/i).map(p => release(p).replace(/[.!?;]+$/, '').trim()).filter(p => p.length > 0);
        // A part of one or two words ("Cameron and Mendes") is a list, not a clause: keep the sentence whole.
        const clauses = parts.length > 1 && parts.every(p => p.split(/\s+/).length >= 3) ? parts : [sentence.replace(/[.!?;]+$/, '').trim()];
        for (const text of clauses) out.push({ text, sentence: i });
    });
    return out;
}

/** Entities read as labelled ("avatar 2009"), as shown ("avatar (2009)") and by their first key value; values as written; plus alias forms. */
export function buildLexicon(nodes: ContextNode[], relations: StoredRelation[], aliases: (node: ContextNode) => string[] = () => []): Lexicon {
    const seen = new Set<string>();
    const entries: LexiconEntry[] = [];
    for (const n of nodes) {
        if (seen.has(n.id)) continue;
        seen.add(n.id);
        const forms = [n.label, n.display ?? n.label];
        // "Avatar (2009)": the first key value alone names it too.
        if (n.entity && n.display && n.display !== n.label) {
            const first = n.display.slice(0, n.display.indexOf(' ('));
            if (first.replace(/[^\p{L}\p{N}]/gu, '').length >= 3) forms.push(first);
        }
        forms.push(...aliases(n));
        const full = [...new Set(forms.map(stripValue).filter(Boolean))];
        const entry: LexiconEntry = { id: n.id, type: n.type, entity: n.entity, forms: full };
        if (n.entity) {
            const name = (n.display ?? n.label).replace(/\s*\(.*\)\s*$/, '');
            const person = /^\p{Lu}[\p{L}.'-]*(?:\s+\p{Lu}[\p{L}.'-]*)+$/u.test(name);
            const short = [...shortForms(n.display ?? n.label, person), ...shortForms(name, person)].map(stripValue).filter(f => f.length >= 3 && !full.includes(f));
            if (short.length) entry.short = [...new Set(short)];
        }
        entries.push(entry);
    }
    // A short form another entry also has (two Smiths) is ambiguous: it links only after its entity was named.
    const owners = new Map<string, number>();
    for (const e of entries) for (const f of [...e.forms, ...(e.short ?? [])]) owners.set(f, (owners.get(f) ?? 0) + 1);
    for (const e of entries) if (e.short) uniqueShort.set(e, new Set(e.short.filter(f => owners.get(f) === 1)));
    return {
        entries,
        relations: relations.map(r => ({ name: r.name, stems: new Set(r.words.flatMap(stems)), headType: r.headType, tailType: r.tailType })),
    };
}

const uniqueShort = new WeakMap<LexiconEntry, Set<string>>();

interface Mention { entry: LexiconEntry; start: number; end: number }

/**
 * Non-overlapping mentions, longest first where they overlap, in text order. Short forms count for an entity
 * named before (`named`) or when no other entry has them.
 */
function mentions(stripped: string, lexicon: Lexicon, named: ReadonlySet<string> = new Set(), text = stripped): Mention[] {
    const found: Mention[] = [];
    const add = (entry: LexiconEntry, form: string) => {
        let i = findWord(stripped, form);
        while (i >= 0) { found.push({ entry, start: i, end: i + form.length }); i = findWord(stripped, form, i + form.length); }
    };
    for (const entry of lexicon.entries) {
        for (const form of entry.forms) add(entry, form);
        for (const form of entry.short ?? []) {
            if (!named.has(entry.id) && !uniqueShort.get(entry)?.has(form)) continue;
            // "Cameron" in "Jim Cameron" names someone else: a short form counts where it stands alone.
            const re = new RegExp(`(?<![\\p{L}\\p{N}])${form.split(' ').map(w => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('[^\\p{L}\\p{N}]+')}(?![\\p{L}\\p{N}])`, 'giu');
            if ([...text.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').matchAll(re)].some(m => !partOfLongerName(text, m.index, m.index + m[0].length))) add(entry, form);
        }
    }
    found.sort((a, b) => (b.end - b.start) - (a.end - a.start) || a.start - b.start);
    const kept: Mention[] = [];
    for (const m of found) {
        // Same span, another node (two value nodes "2009"): both are readings of the words.
        if (kept.some(k => m.start < k.end && k.start < m.end && !(k.start === m.start && k.end === m.end))) continue;
        kept.push(m);
    }
    return kept.sort((a, b) => a.start - b.start || (b.entry.entity ? 1 : 0) - (a.entry.entity ? 1 : 0));
}

/** Runs of capitalised words still present in the masked text; a lone word opening the claim ("It") is not a name. */
function unlinkedNames(text: string, masked: string): string[] {
    const out: string[] = [];
    for (const m of text.matchAll(/\p{Lu}[\p{L}'-]*(?:\s+\p{Lu}[\p{L}'-]*)*/gu)) {
        const run = m[0];
        if (m.index === 0 && !/\s/.test(run)) continue;
        const s = stripValue(run);
        if (s && findWord(masked, s) >= 0) out.push(run);
    }
    return out;
}

export function linkClaims(claims: Claim[], lexicon: Lexicon): LinkedClaim[] {
    const out: LinkedClaim[] = [];
    let previous: { sentence: number; subject?: LexiconEntry } = { sentence: -1 };
    const named = new Set<string>();
    for (const claim of claims) {
        const stripped = stripValue(claim.text);
        const found = mentions(stripped, lexicon, named, claim.text);
        for (const m of found) named.add(m.entry.id);
        let subject = found.find(m => m.entry.entity)?.entry;
        if (!subject && previous.sentence === claim.sentence) subject = previous.subject;
        const objects = [...new Map(found.filter(m => m.entry !== subject).map(m => [m.entry.id, m.entry])).values()];
        const masked = found.reduce((t, m) => t.slice(0, m.start) + ' '.repeat(m.end - m.start) + t.slice(m.end), stripped);
        const numbers = masked.match(/\b\d+(?:\.\d+)?\b/g) ?? [];
        const words = new Set(stems(masked));
        const relations = lexicon.relations.filter(r => [...r.stems].some(s => words.has(s))).map(r => r.name);
        const names = unlinkedNames(claim.text, masked);
        const negated = /\b(?:not|never|nor|neither|cannot)\b|\b(?:isn|wasn|doesn|didn|aren|weren|hasn|hadn)t\b|\bno longer\b/.test(masked) && !/\bnot only\b/.test(masked);
        const linked: LinkedClaim = { text: claim.text, stripped, objects, relations, numbers, names, masked, negated };
        if (subject) linked.subject = subject;
        out.push(linked);
        previous = { sentence: claim.sentence, subject };
    }
    return out;
}
