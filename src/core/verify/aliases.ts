/**
 * The other ways a keyword may be written, from the spec's `aliases` blocks: alias lists, lookups (code ↔
 * name through another relation), and named normalisers (name_parts, strip(...), strip_prefix(...), month_year for text;
 * round(n), truncate(n), tolerance(x) for numbers).
 */
import type { LoadedData, RelationTable } from '../data/types.js';
import type { AliasRuleDecl, SpecModel } from '../spec/model.js';
import { aliasesOf } from '../spec/model.js';
import { foldValue } from './normalise.js';

/** Another spelling of the keyword and the rule that produced it (shown as evidence). */
export interface Alternative { text: string; rule: string }

/** A numeric rule: does the number written in the response stand for the keyword's value? */
export interface NumberRule { rule: string; matches(x: number): boolean }

export interface KeywordForms { alternatives: Alternative[]; numbers: NumberRule[] }

const SUFFIXES = new Set(['jr', 'jr.', 'sr', 'sr.', 'ii', 'iii', 'iv']);
const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

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
    col.values.forEach((v, code) => { if (cellText(v).some(t => foldValue(t) === want)) codes.add(code); });
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
    const forms = [`${month} ${year}`, `${month}, ${year}`, `${month} of ${year}`, `${month.slice(0, 3)} ${year}`, `${month.slice(0, 3)}. ${year}`, `${mm}/${year}`, `${idx + 1}/${year}`, `${year}-${mm}`];
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

export function keywordForms(spec: SpecModel, data: LoadedData | undefined, relation: string, attribute: string, value: string): KeywordForms {
    const alternatives: Alternative[] = [];
    const numbers: NumberRule[] = [];
    const folded = foldValue(value);
    for (const rule of aliasesOf(spec, { relation, attribute })) {
        if (rule.kind === 'list') {
            const group = [rule.value, ...rule.alternatives];
            if (group.some(g => foldValue(g) === folded)) {
                for (const g of group) if (foldValue(g) !== folded) alternatives.push({ text: g, rule: `alias:${g}` });
            }
        } else if (rule.kind === 'lookup') {
            const table = data?.tables.get(rule.relation);
            if (!table) continue;
            for (const r of rowsWhere(table, rule.key, value)) for (const t of cellText(table.value(r, rule.value))) alternatives.push({ text: t, rule: 'lookup' });
            for (const r of rowsWhere(table, rule.value, value)) for (const t of cellText(table.value(r, rule.key))) alternatives.push({ text: t, rule: 'lookup' });
        } else if (rule.name === 'name_parts') {
            alternatives.push(...nameParts(value));
        } else if (rule.name === 'strip') {
            alternatives.push(...stripAffixes(value, rule.args.map(String)));
        } else if (rule.name === 'strip_prefix') {
            alternatives.push(...stripPrefix(value, rule.args.map(String)));
        } else if (rule.name === 'month_year') {
            alternatives.push(...monthYear(value));
        } else {
            const v = Number(value);
            const nr = Number.isFinite(v) && value.trim() !== '' ? numberRule(rule, v) : undefined;
            if (nr) numbers.push(nr);
        }
    }
    const seen = new Set<string>([folded]);
    return { alternatives: alternatives.filter(a => { const f = foldValue(a.text); if (!f || seen.has(f)) return false; seen.add(f); return true; }), numbers };
}
