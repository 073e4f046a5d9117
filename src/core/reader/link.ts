/**
 * Entity linking (issue 28 item 2): every name and alias of the spec's data in one Aho–Corasick automaton
 * (`modern-ahocorasick`), run over the folded response (NFKD → ASCII, lower case; spans map back to what the
 * model wrote). Matches must start and end at word boundaries; among overlapping matches the leftmost, then
 * the longest wins, so a name inside a longer linked name ("Barcelona" in "FC Barcelona") never counts on
 * its own. Short forms — a person's surname, a title without its year, a name without a club affix, "the
 * club" / "the movie" — link only to an entity already named in full earlier in the same answer (the most
 * recent one). A first name alone is never a short form; the spec may list it as an alias.
 */
import type AhoCorasick from 'modern-ahocorasick';
import { lazyPackage } from '../lazy-package.js';
import { fold, type Folded } from './fold.js';
import { OTHER_CODE, Vocabulary, tokens } from './vocabulary.js';

const ahoCorasick = lazyPackage<typeof AhoCorasick>('modern-ahocorasick', () => require('modern-ahocorasick'));

export interface EntityEntry {
    id: string;
    /** The entity's type (its relation or attribute), e.g. "Club", "Person". */
    type: string;
    /** Full names: each links on its own. */
    names: readonly string[];
    /** Aliases the spec gives: also link on their own. */
    aliases?: readonly string[];
    /** Person names get their surname as a short form; titles their name without "(year)". */
    person?: boolean;
    /** Extra short forms (link only after the entity was named in full). */
    short?: readonly string[];
}

export interface Mention {
    /** Index into the linker's entries. */
    entry: number;
    id: string;
    type: string;
    /** [start, end) in the original text. */
    start: number;
    end: number;
    /** The folded form that matched. */
    form: string;
    how: 'name' | 'alias' | 'short' | 'noun';
    /** Every entry this form names in full (several entities may share a name: a chain's value and next subject). */
    entries: number[];
}

const AFFIXES =
    /^(?:fc|cf|ac|afc|sc|ssc|as|ss|rcd|cd|sd|ud|rc|sv|vfl|vfb|tsg|fk|sk|bv|psv|ogc|sl|sporting)\s+|\s+(?:fc|cf|afc|sc|ac)$/;

/** The short forms a name implies (never a first name). */
function shortForms(name: string, person: boolean): string[] {
    const f = fold(name, false).text;
    const out = new Set<string>();
    const noYear = f.replace(/\s*\((?:19|20)\d\d\)\s*$/, '').replace(/,\s*(?:19|20)\d\d$/, '');
    if (noYear !== f && noYear.length > 0) out.add(noYear);
    const noAffix = f.replace(AFFIXES, '');
    if (noAffix !== f && noAffix.length >= 3) out.add(noAffix);
    if (person) {
        const words = f.replace(/\./g, '. ').split(/\s+/).filter(Boolean);
        const last = words[words.length - 1];
        if (words.length >= 2 && last && last.length >= 3 && !/\.$/.test(last) && !/^(?:jr|sr|ii|iii|iv)$/.test(last))
            out.add(last);
        // "L. Messi" → "Messi" (an initial then a surname), "Lionel Messi" → "L. Messi"
        if (words.length === 2 && !words[0]!.endsWith('.')) out.add(`${words[0]![0]}. ${words[1]}`);
    }
    out.delete(f);
    return [...out];
}

/**
 * A title's subtitle ("dead man's chest" for "Pirates of the Caribbean: Dead Man's Chest"), folded, when it has two
 * words or more: a short form that links only where written with a capital ("first class" is no film).
 */
function subtitleOf(name: string): string | undefined {
    const f = fold(name, false)
        .text.replace(/\s*\((?:19|20)\d\d\)\s*$/, '')
        .replace(/,\s*(?:19|20)\d\d$/, '');
    const colon = f.indexOf(': ');
    const sub = colon > 0 ? f.slice(colon + 2).trim() : '';
    return sub.split(/\s+/).length >= 2 ? sub : undefined;
}

interface Pattern {
    entry: number;
    how: Mention['how'];
}

/**
 * What one automaton pattern stands for: its folded form; the entry it names in full (a name before an alias)
 * and every entry it names in full; the entries it is a short form of; the type noun of "the <noun>".
 */
interface Form {
    form: string;
    full?: Pattern;
    fullEntries: number[];
    shortOf: number[];
    noun?: string;
}

/**
 * The automaton reads words, not characters: each token of a name (vocabulary.ts) is a code of a few ASCII
 * characters, so matches are word-bounded by construction ("Barcelona" is never found inside "Barcelonas"), and
 * a run of answer tokens no name uses is one character no pattern has. The text the library scans is a third of
 * the folded answer's length or less and always ASCII (its fast path, no grapheme segmenter).
 */
const ascii = new TextDecoder('latin1');

export interface LinkerOptions {
    /**
     * A short form only one entry has links even before that entry is named (for a small set of names, such as a
     * question's neighbourhood; with a whole data set's names a lone surname is too often someone else's).
     */
    uniqueShort?: boolean;
}

export class Linker {
    readonly entries: readonly EntityEntry[];
    private readonly matcher: AhoCorasick<Form>;
    /** type noun ("club", "movie") → types it names. */
    private readonly nouns: Map<string, Set<string>>;
    private readonly byId = new Map<string, number>();
    private readonly vocabulary: Vocabulary;
    private readonly uniqueShort: boolean;
    /** Short forms that are a title's subtitle: they link only where written with a capital. */
    private readonly subtitles = new Set<string>();
    private readonly scratch: number[] = [];
    /** The answer in codes, and the token each code character belongs to (reused: the engine is single-threaded). */
    private coded = new Uint8Array(1024);
    private owner = new Int32Array(1024);

    /**
     * `nouns`: type → the words that refer back to the last entity of that type ("the club", "the film").
     * By default each type's own name, lower-cased.
     */
    constructor(entries: readonly EntityEntry[], nouns?: Record<string, readonly string[]>, options: LinkerOptions = {}) {
        this.entries = entries;
        this.uniqueShort = options.uniqueShort ?? false;
        entries.forEach((e, i) => {
            if (!this.byId.has(e.id)) this.byId.set(e.id, i);
        });
        const byForm = new Map<string, Pattern[]>();
        const add = (form: string, p: Pattern) => {
            if (form.length === 0) return;
            const list = byForm.get(form);
            if (!list) byForm.set(form, [p]);
            else if (!list.some(x => x.entry === p.entry)) list.push(p);
        };
        entries.forEach((e, i) => {
            for (const n of e.names) add(fold(n, false).text, { entry: i, how: 'name' });
            for (const a of e.aliases ?? []) add(fold(a, false).text, { entry: i, how: 'alias' });
        });
        entries.forEach((e, i) => {
            const shorts = [...(e.short ?? []).map(s => fold(s, false).text), ...e.names.flatMap(n => shortForms(n, !!e.person))];
            for (const s of shorts) add(s, { entry: i, how: 'short' });
            for (const n of e.names) {
                const sub = subtitleOf(n);
                if (sub === undefined || byForm.get(sub)?.some(p => p.entry === i)) continue;
                add(sub, { entry: i, how: 'short' });
                this.subtitles.add(sub);
            }
        });
        this.nouns = new Map();
        const types = new Set(entries.map(e => e.type));
        for (const t of types)
            for (const w of nouns?.[t] ?? [t.toLowerCase()]) {
                const key = fold(w, false).text;
                if (!this.nouns.has(key)) this.nouns.set(key, new Set());
                this.nouns.get(key)!.add(t);
            }
        for (const w of this.nouns.keys()) add(`the ${w}`, { entry: -1, how: 'noun' });
        // The alphabet: every token of every form, then codes wide enough for all of them.
        const words = new Map<string, number>();
        for (const form of byForm.keys()) {
            const ts = tokens(form, this.scratch);
            for (let k = 0; k < ts.length; k += 3) words.set(form.slice(ts[k], ts[k + 1]), ts[k + 2]!);
        }
        this.vocabulary = new Vocabulary(words);
        const patterns: { pattern: string; data: Form }[] = [];
        for (const [form, list] of byForm) {
            const pattern = this.encode(form);
            if (pattern.length === 0) continue;
            const data: Form = {
                form,
                fullEntries: list.filter(p => p.how === 'name' || p.how === 'alias').map(p => p.entry),
                shortOf: list.filter(p => p.how === 'short').map(p => p.entry),
            };
            const full = list.find(p => p.how === 'name') ?? list.find(p => p.how === 'alias');
            if (full) data.full = full;
            if (list.some(p => p.how === 'noun')) data.noun = form.slice(4);
            patterns.push({ pattern, data });
        }
        // The language server loads the reader with the probe families and links no answer.
        const Matcher = ahoCorasick();
        this.matcher = new Matcher(patterns);
    }

    /** The entry of an id, if any. */
    entryOf(id: string): number | undefined {
        return this.byId.get(id);
    }

    /**
     * The mentions of `text`, leftmost-longest, each linked (short forms to an entity named before).
     * `given`: ids of entities named before the answer (the question's), which short forms may also refer to.
     */
    link(text: string, given: readonly string[] = []): Mention[] {
        const f = fold(text, false, true);
        return this.linkFolded(f, given, text);
    }

    /** `t` (folded) in the automaton's alphabet; `this.owner[i]` is the token (index into `this.scratch`) of code character i. */
    private encode(t: string): string {
        const ts = tokens(t, this.scratch);
        const room = (ts.length / 3) * this.vocabulary.width + 1;
        if (this.coded.length < room) {
            this.coded = new Uint8Array(room * 2);
            this.owner = new Int32Array(room * 2);
        }
        const coded = this.coded,
            owner = this.owner;
        let len = 0;
        let other = false;
        for (let k = 0; k < ts.length; k += 3) {
            const id = this.vocabulary.find(t, ts[k]!, ts[k + 1]!, ts[k + 2]!);
            if (id < 0) {
                if (!other) {
                    owner[len] = -1;
                    coded[len++] = OTHER_CODE;
                    other = true;
                }
                continue;
            }
            other = false;
            const end = this.vocabulary.write(id, coded, len);
            while (len < end) owner[len++] = k;
        }
        return ascii.decode(coded.subarray(0, len));
    }

    /**
     * `original`: the text `f` folds; with it, a short form that is one word of a longer written name ("Cameron" in
     * "Jim Cameron") is no mention.
     */
    linkFolded(f: Folded, given: readonly string[] = [], original?: string): Mention[] {
        const coded = this.encode(f.text);
        if (coded.length === 0) return [];
        const ts = this.scratch,
            at = this.owner;
        const hits = this.matcher.search(coded);
        if (hits.length === 0) return [];
        // Leftmost-longest (every hit is word-bounded already).
        hits.sort((a, b) => a.start - b.start || b.end - a.end);
        const out: Mention[] = [];
        const named: number[] = [];
        for (const id of given) {
            const e = this.byId.get(id);
            if (e !== undefined) named.push(e);
        }
        let last = -1;
        for (const h of hits) {
            if (h.start < last) continue;
            const data = h.data!;
            let pick: Pattern | undefined = data.full;
            if (!pick) {
                // a short form or "the <noun>": the most recent entity named in full that owns it
                const types = data.noun === undefined ? undefined : this.nouns.get(data.noun);
                for (let k = named.length - 1; k >= 0 && !pick; k--) {
                    const e = named[k]!;
                    if (data.shortOf.includes(e)) pick = { entry: e, how: 'short' };
                    else if (types?.has(this.entries[e]!.type)) pick = { entry: e, how: 'noun' };
                }
            }
            if (!pick && this.uniqueShort && data.shortOf.length === 1 && data.noun === undefined)
                pick = { entry: data.shortOf[0]!, how: 'short' };
            if (!pick) continue;
            const a = ts[at[h.start]!]!,
                b = ts[at[h.end - 1]! + 1]!;
            const start = f.starts[a]!,
                end = f.ends[b - 1]!;
            if (pick.how === 'short' && original !== undefined && partOfLongerName(original, start, end)) continue;
            if (pick.how === 'short' && this.subtitles.has(data.form) && !/\p{Lu}/u.test(original?.slice(start, end) ?? ''))
                continue;
            last = h.end;
            const e = this.entries[pick.entry]!;
            if (data.full) named.push(pick.entry);
            const all = data.full ? data.fullEntries : [pick.entry];
            out.push({ entry: pick.entry, id: e.id, type: e.type, start, end, form: data.form, how: pick.how, entries: all });
        }
        return out;
    }
}

const CAPITALISED = /[\p{Lu}][\p{L}'’-]*$/u;
const NAME_FUNCTION_WORDS = new Set([
    'The',
    'A',
    'An',
    'Yes',
    'No',
    'In',
    'On',
    'At',
    'By',
    'Of',
    'And',
    'But',
    'So',
    'It',
    'He',
    'She',
    'They',
    'This',
    'That',
    'I',
    'Is',
    'Was',
    'Did',
    'Does',
    'Answer',
    'Director',
    'Directed',
    'Actor',
    'Player',
    'Mr',
    'Mrs',
    'Dr',
    'Both',
    'While',
    'Although',
]);

/**
 * Is text[start, end) one word of a longer written name — a capitalised word right before or after it with
 * nothing but a space between ("James" in "James Franco", "James" in "LeBron James")? A short form found
 * there names someone else, not the entity it abbreviates.
 */
export function partOfLongerName(text: string, start: number, end: number, value?: string): boolean {
    if (value !== undefined && writtenNameAgrees(text, start, end, value)) return false;
    const before = /([\p{L}'’-]+) $/u.exec(text.slice(Math.max(0, start - 40), start));
    if (before && CAPITALISED.test(before[1]!) && /^[\p{Lu}]/u.test(before[1]!) && !NAME_FUNCTION_WORDS.has(before[1]!)) {
        // the word before ends a sentence? then it is no part of the name
        return true;
    }
    const afterWord = /^ ([\p{L}'’-]+)/u.exec(text.slice(end, end + 40));
    return !!afterWord && /^[\p{Lu}]/u.test(afterWord[1]!) && !NAME_FUNCTION_WORDS.has(afterWord[1]!);
}

/** A capitalised word or an initial ("J.") of a written name. */
const NAME_WORD = /^(?:[\p{Lu}][\p{L}'’-]*|[\p{Lu}]\.)$/u;
const fold1 = (w: string) =>
    w
        .normalize('NFKD')
        .replace(/[\u0300-\u036f]/g, '')
        .toLowerCase()
        .replace(/[^a-z0-9]/g, '');

/**
 * Is the longer written name around text[start, end) the person `value` names — the same surname, and a first
 * name whose initial agrees with the value's first name or initial ("Jesse Lingard" for "J. Lingard", "James
 * Francis Cameron" for "James Cameron")? "LeBron James" is not "James Cameron": its surname is another.
 */
function writtenNameAgrees(text: string, start: number, end: number, value: string): boolean {
    const parts = value
        .trim()
        .split(/\s+/)
        .filter(p => p && !/^(?:jr|sr|ii|iii|iv)\.?$/i.test(p));
    if (parts.length < 2) return false;
    const words: string[] = [text.slice(start, end)];
    let a = start;
    for (
        let m = /(\S+) $/u.exec(text.slice(Math.max(0, a - 40), a));
        m && words.length < 5;
        m = /(\S+) $/u.exec(text.slice(Math.max(0, a - 40), a))
    ) {
        if (!NAME_WORD.test(m[1]!) || NAME_FUNCTION_WORDS.has(m[1]!)) break;
        words.unshift(m[1]!);
        a -= m[1]!.length + 1;
    }
    let b = end;
    for (
        let m = /^ ([\p{L}'’-]+)/u.exec(text.slice(b, b + 40));
        m && words.length < 5;
        m = /^ ([\p{L}'’-]+)/u.exec(text.slice(b, b + 40))
    ) {
        if (!NAME_WORD.test(m[1]!) || NAME_FUNCTION_WORDS.has(m[1]!)) break;
        words.push(m[1]!);
        b += m[1]!.length + 1;
    }
    if (words.length < 2) return false;
    const sameSurname = fold1(words[words.length - 1]!) === fold1(parts[parts.length - 1]!);
    const initial = (w: string) => fold1(w).charAt(0);
    return sameSurname && initial(words[0]!) !== '' && initial(words[0]!) === initial(parts[0]!);
}
