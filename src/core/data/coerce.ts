/**
 * Typed coercion of cells exactly as published data has them: `2009.0` → 2009, `"1992,1996,"` → [1992, 1996],
 * empty → null. A value that does not fit its type is a failure with a reason, never a silent null.
 */
import type { AttrType, ScalarType } from '../spec/model.js';
import type { CellValue } from './types.js';

export type Coerced = { ok: true; value: CellValue } | { ok: false; reason: string };

const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const TRUE = new Set(['true', 'yes', 'y', 't', '1', '1.0']);
const FALSE = new Set(['false', 'no', 'n', 'f', '0', '0.0']);
/** The month names, January first (dates are read and written in English). */
export const MONTHS: readonly string[] = [
    'january',
    'february',
    'march',
    'april',
    'may',
    'june',
    'july',
    'august',
    'september',
    'october',
    'november',
    'december',
];
const MONTH = `(${MONTHS.join('|')}|${MONTHS.map(m => m.slice(0, 3)).join('|')}|sept)\\.?`;

/** Date shapes accepted as written; each yields [year, month, day] (0 when the shape has no such part). */
const DATE_SHAPES: { re: RegExp; parts: (m: RegExpMatchArray) => [number, number, number] }[] = [
    // 2009-12-18, 2009/12/18, with an optional time (2009-12-18T10:30:00Z, 2009-12-18 10:30)
    {
        re: /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?:[T ]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/i,
        parts: m => [+m[1]!, +m[2]!, +m[3]!],
    },
    // 18/12/2009 or 12/18/2009 (day and month order cannot be told apart; either must be a valid date)
    {
        re: /^(\d{1,2})[-/.](\d{1,2})[-/.](\d{4})$/,
        parts: m => (+m[1]! > 12 ? [+m[3]!, +m[2]!, +m[1]!] : [+m[3]!, +m[1]!, +m[2]!]),
    },
    { re: /^(\d{4})-(\d{1,2})$/, parts: m => [+m[1]!, +m[2]!, 0] },
    { re: /^(\d{4})$/, parts: m => [+m[1]!, 0, 0] },
    // January, 2009 / Jan 2009
    { re: new RegExp(`^${MONTH},?\\s+(\\d{4})$`, 'i'), parts: m => [+m[2]!, monthNumber(m[1]!), 0] },
    // January 5, 2009
    {
        re: new RegExp(`^${MONTH}\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})$`, 'i'),
        parts: m => [+m[3]!, monthNumber(m[1]!), +m[2]!],
    },
    // 5 January 2009
    {
        re: new RegExp(`^(\\d{1,2})(?:st|nd|rd|th)?\\s+${MONTH},?\\s+(\\d{4})$`, 'i'),
        parts: m => [+m[3]!, monthNumber(m[2]!), +m[1]!],
    },
];

function monthNumber(name: string): number {
    const n = name.toLowerCase().replace(/\.$/, '').slice(0, 3);
    return MONTHS.findIndex(m => m.startsWith(n)) + 1;
}

function validDate(year: number, month: number, day: number): boolean {
    if (month === 0) return day === 0;
    if (month < 1 || month > 12) return false;
    if (day === 0) return true;
    const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
    return day >= 1 && day <= days;
}

/** Coerces one trimmed, non-empty text to a scalar type. */
export function coerceScalar(text: string, scalar: ScalarType): Coerced {
    switch (scalar) {
        case 'text':
            return { ok: true, value: text };
        case 'int': {
            if (!NUMBER.test(text)) return { ok: false, reason: 'not a number' };
            const n = Number(text);
            if (!Number.isInteger(n)) return { ok: false, reason: 'not a whole number' };
            if (!Number.isSafeInteger(n)) return { ok: false, reason: 'too large for an int' };
            return { ok: true, value: n === 0 ? 0 : n };
        }
        case 'real': {
            if (!NUMBER.test(text)) return { ok: false, reason: 'not a number' };
            const n = Number(text);
            return Number.isFinite(n) ? { ok: true, value: n === 0 ? 0 : n } : { ok: false, reason: 'out of range' };
        }
        case 'bool': {
            const lower = text.toLowerCase();
            if (TRUE.has(lower)) return { ok: true, value: true };
            if (FALSE.has(lower)) return { ok: true, value: false };
            return { ok: false, reason: 'not true/false/yes/no/1/0' };
        }
        case 'date': {
            for (const shape of DATE_SHAPES) {
                const m = text.match(shape.re);
                if (!m) continue;
                const [y, mo, d] = shape.parts(m);
                return validDate(y, mo, d) ? { ok: true, value: text } : { ok: false, reason: 'not a real calendar date' };
            }
            return { ok: false, reason: 'not a date (e.g. 2009-12-18, 12/18/2009, December 2009, 2009)' };
        }
    }
}

/** Missing-value spellings of numeric columns written by pandas and spreadsheets. */
const NUMERIC_NULL = new Set(['nan', 'NaN', 'NAN']);

/**
 * Coerces a raw text cell. Surrounding whitespace is trimmed; empty is null. A list splits on `separator`,
 * ignores empty items (so a trailing separator is harmless) and fails when any item fails.
 */
export function coerceText(raw: string, type: AttrType, separator = ','): Coerced {
    const text = raw.trim();
    if (text === '') return { ok: true, value: null };
    if (!type.list) {
        if ((type.scalar === 'int' || type.scalar === 'real') && NUMERIC_NULL.has(text)) return { ok: true, value: null };
        return coerceScalar(text, type.scalar);
    }
    const items: CellValue[] = [];
    for (const part of separator === '' ? [text] : text.split(separator)) {
        const item = part.trim();
        if (item === '') continue;
        const c = coerceScalar(item, type.scalar);
        if (!c.ok) return { ok: false, reason: `item '${item}' is ${c.reason}` };
        items.push(c.value);
    }
    return { ok: true, value: items.length === 0 ? null : items };
}

/** Coerces a value read from SQLite (already typed by the database) to an attribute type. */
export function coerceSqlite(raw: unknown, type: AttrType, separator = ','): Coerced {
    if (raw === null || raw === undefined) return { ok: true, value: null };
    if (typeof raw === 'string') return coerceText(raw, type, separator);
    if (typeof raw === 'bigint') return coerceSqlite(Number(raw), type, separator);
    // PostgreSQL booleans arrive as booleans.
    if (typeof raw === 'boolean')
        return type.scalar === 'bool' && !type.list ? { ok: true, value: raw } : coerceText(String(raw), type, separator);
    if (typeof raw === 'number') {
        if (type.list) return coerceText(String(raw), type, separator);
        switch (type.scalar) {
            case 'int':
                return Number.isInteger(raw) ? { ok: true, value: raw } : { ok: false, reason: 'not a whole number' };
            case 'real':
                return { ok: true, value: raw };
            case 'bool':
                return raw === 1 || raw === 0
                    ? { ok: true, value: raw === 1 }
                    : { ok: false, reason: 'not true/false/yes/no/1/0' };
            default:
                return coerceText(String(raw), type, separator);
        }
    }
    return { ok: false, reason: 'binary data (a blob)' };
}

/** How a cell is shown in messages: text quoted, numbers and lists as written. */
export function showValue(value: CellValue): string {
    if (value === null) return 'null';
    if (Array.isArray(value)) return `[${value.map(showValue).join(', ')}]`;
    return typeof value === 'string' ? `'${value}'` : String(value);
}
