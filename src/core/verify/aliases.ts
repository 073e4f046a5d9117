/**
 * The other ways a keyword may be written, from the spec's `aliases` blocks: alias lists, lookups (code ↔
 * name through another relation), and named normalisers (name_parts, strip(...), strip_prefix(...), split(...),
 * first_word, ascii, month_year for text; round(n), truncate(n), tolerance(x) for numbers).
 *
 * `paper: true` gives the spellings the ERBench authors' keyword check uses (`check_reasoning`, matched as lower-case
 * substrings of the whole response): a name's first and last word as written, numbers rounded or truncated as
 * texts ("{:.2f}", decimals cut), no numeric rules.
 */
import type { LoadedData, RelationTable } from '../data/types.js';
import { MONTHS } from '../data/coerce.js';
import type { AliasRuleDecl, SpecModel } from '../spec/model.js';
import { aliasesOf } from '../spec/model.js';
import { foldValue } from './normalise.js';

/** Another spelling of the keyword and the rule that produced it (shown as evidence). */
interface Alternative {
    text: string;
    rule: string;
}

/** A numeric rule: does the number written in the response stand for the keyword's value? */
interface NumberRule {
    rule: string;
    matches(x: number): boolean;
}

export interface KeywordForms {
    alternatives: Alternative[];
    numbers: NumberRule[];
}

const SUFFIXES = new Set(['jr', 'jr.', 'sr', 'sr.', 'ii', 'iii', 'iv']);

function cellText(v: unknown): string[] {
    if (v === null || v === undefined) return [];
    if (Array.isArray(v)) return v.flatMap(cellText);
    return [String(v)];
}

/** Rows of `table` whose `attribute` equals `value` (folded comparison), at most a few. */
function rowsWhere(table: RelationTable, attribute: string, value: string): number[] {
    const col = table.column(attribute);
    if (!col) return [];
    const want = foldValue(value);
    const codes = new Set<number>();
    col.values.forEach((v, code) => {
        if (cellText(v).some(t => foldValue(t) === want)) codes.add(code);
    });
    const out: number[] = [];
    for (let r = 0; r < table.rowCount && out.length < 8; r++) if (codes.has(col.codes[r]!)) out.push(r);
    return out;
}

function nameParts(value: string): Alternative[] {
    const parts = value.split(/\s+/).filter(p => p && !SUFFIXES.has(p.toLowerCase()));
    if (parts.length < 2) return [];
    const first = parts[0]!;
    const last = parts[parts.length - 1]!;
    // Initials ("J.") say too little to count as the person.
    return [last, first].filter(p => p.replace(/[^\p{L}\p{N}]/gu, '').length >= 3).map(text => ({ text, rule: 'name_parts' }));
}

/** The authors' name rule: the first and the last word of a name with a space, whatever their length. */
function paperNameParts(value: string): Alternative[] {
    if (!value.includes(' ')) return [];
    const words = value.split(' ');
    return [words[0]!.trim(), words[words.length - 1]!.trim()].filter(Boolean).map(text => ({ text, rule: 'name_parts' }));
}

/** Each part of a value joined by these separators ("pop/rock" → "pop", "rock"). */
function splitParts(value: string, separators: string[]): Alternative[] {
    let parts = [value];
    for (const sep of separators) if (sep) parts = parts.flatMap(p => p.split(sep));
    parts = parts.map(p => p.trim()).filter(Boolean);
    return parts.length > 1 ? parts.map(text => ({ text, rule: 'split' })) : [];
}

/** The value's first word ("Sterling Publishing" → "Sterling"). */
function firstWord(value: string): Alternative[] {
    const word = value.trim().split(/\s+/)[0] ?? '';
    return word && word !== value.trim() ? [{ text: word, rule: 'first_word' }] : [];
}

/** The value with its accents dropped ("Atlético" → "Atletico"), as the authors' unidecode gives it. */
function asciiForm(value: string): Alternative[] {
    const text = value.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
    return text !== value ? [{ text, rule: 'ascii' }] : [];
}

/** A number's text rounded ("{:.2f}") or truncated (decimals cut) to n decimals, as the authors compare them. */
function paperNumberText(rule: AliasRuleDecl & { kind: 'normaliser' }, value: string): Alternative[] {
    const n = Number(rule.args[0] ?? 0);
    const v = Number(value);
    if (!Number.isInteger(n) || n < 0 || !Number.isFinite(v) || value.trim() === '') return [];
    const label = `${rule.name}(${rule.args.join(', ')})`;
    if (rule.name === 'round') return [{ text: v.toFixed(n), rule: label }];
    if (rule.name === 'truncate') {
        const parts = value.trim().split('.');
        parts[parts.length - 1] = parts[parts.length - 1]!.slice(0, n);
        return [{ text: parts.join('.'), rule: label }];
    }
    return [];
}

function stripAffixes(value: string, affixes: string[]): Alternative[] {
    const drop = new Set(affixes.map(a => a.toLowerCase()));
    const kept = value.split(/\s+/).filter(w => !drop.has(w.toLowerCase().replace(/[.,]/g, '')));
    const text = kept.join(' ');
    return text && text !== value ? [{ text, rule: 'strip' }] : [];
}

/** The value without one of these words at its start ("FC Barcelona" → "Barcelona"; "Royal Antwerp FC" stays). */
function stripPrefix(value: string, prefixes: string[]): Alternative[] {
    const words = value.trim().split(/\s+/);
    const first = words[0]?.toLowerCase();
    const hit = prefixes.some(p => p.toLowerCase() === first);
    const text = words.slice(1).join(' ');
    return hit && text ? [{ text, rule: 'strip_prefix' }] : [];
}

/** "March, 2005" → "March 2005", "Mar 2005", "03/2005", "2005-03", ... */
function monthYear(value: string): Alternative[] {
    const m = /^\s*([A-Za-z]+)\.?,?\s+(\d{4})\s*$/.exec(value);
    if (!m) return [];
    const idx = MONTHS.findIndex(n => n.startsWith(m[1]!.toLowerCase().slice(0, 3)));
    if (idx < 0) return [];
    const month = MONTHS[idx]!;
    const year = m[2]!;
    const mm = String(idx + 1).padStart(2, '0');
    const forms = [
        `${month} ${year}`,
        `${month}, ${year}`,
        `${month} of ${year}`,
        `${month.slice(0, 3)} ${year}`,
        `${month.slice(0, 3)}. ${year}`,
        `${mm}/${year}`,
        `${idx + 1}/${year}`,
        `${year}-${mm}`,
    ];
    return forms.map(text => ({ text, rule: 'month_year' }));
}

function numberRule(rule: AliasRuleDecl & { kind: 'normaliser' }, v: number): NumberRule | undefined {
    const arg = Number(rule.args[0] ?? 0);
    if (!Number.isFinite(arg)) return undefined;
    const label = `${rule.name}(${rule.args.join(', ')})`;
    if (rule.name === 'round') {
        const f = 10 ** arg;
        const want = Math.round(v * f);
        return { rule: label, matches: x => Math.round(x * f) === want };
    }
    if (rule.name === 'truncate') {
        const f = 10 ** arg;
        const want = Math.trunc(v * f);
        return { rule: label, matches: x => Math.trunc(x * f) === want };
    }
    if (rule.name === 'tolerance') return { rule: label, matches: x => Math.abs(x - v) <= arg + 1e-12 };
    return undefined;
}

export function keywordForms(
    spec: SpecModel,
    data: LoadedData | undefined,
    relation: string,
    attribute: string,
    value: string,
    options: { paper?: boolean } = {},
): KeywordForms {
    const alternatives: Alternative[] = [];
    const numbers: NumberRule[] = [];
    const paper = options.paper === true;
    // The authors compare lower-cased texts; our default compares folded ones.
    const key = paper ? (t: string) => t.toLowerCase() : foldValue;
    const folded = key(value);
    for (const rule of aliasesOf(spec, { relation, attribute })) {
        if (rule.kind === 'list') {
            const group = [rule.value, ...rule.alternatives];
            if (group.some(g => key(g) === folded)) {
                for (const g of group) if (key(g) !== folded) alternatives.push({ text: g, rule: `alias:${g}` });
            }
        } else if (rule.kind === 'lookup') {
            const table = data?.tables.get(rule.relation);
            if (!table) continue;
            for (const r of rowsWhere(table, rule.key, value))
                for (const t of cellText(table.value(r, rule.value))) alternatives.push({ text: t, rule: 'lookup' });
            for (const r of rowsWhere(table, rule.value, value))
                for (const t of cellText(table.value(r, rule.key))) alternatives.push({ text: t, rule: 'lookup' });
        } else if (rule.name === 'name_parts') {
            alternatives.push(...(paper ? paperNameParts(value) : nameParts(value)));
        } else if (rule.name === 'strip') {
            alternatives.push(...stripAffixes(value, rule.args.map(String)));
        } else if (rule.name === 'strip_prefix') {
            alternatives.push(...stripPrefix(value, rule.args.map(String)));
        } else if (rule.name === 'split') {
            alternatives.push(...splitParts(value, rule.args.map(String)));
        } else if (rule.name === 'first_word') {
            alternatives.push(...firstWord(value));
        } else if (rule.name === 'ascii') {
            alternatives.push(...asciiForm(value));
        } else if (rule.name === 'month_year') {
            alternatives.push(...monthYear(value));
        } else if (paper) {
            alternatives.push(...paperNumberText(rule, value));
        } else {
            const v = Number(value);
            const nr = Number.isFinite(v) && value.trim() !== '' ? numberRule(rule, v) : undefined;
            if (nr) numbers.push(nr);
        }
    }
    const seen = new Set<string>([folded]);
    return {
        alternatives: alternatives.filter(a => {
            const f = key(a.text);
            if (!f || seen.has(f)) return false;
            seen.add(f);
            return true;
        }),
        numbers,
    };
}
