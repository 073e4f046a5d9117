/**
 * Question templates: text with {placeholders}. A placeholder is a small expression over the row's
 * attributes: `{title}`, `{Director.name}`, `{decade(birth_year)}`, `{length - 20}`, `{round(lat, 2)}`.
 * The same expression language serves `when "..."` gold conditions.
 */

export type Expr =
    | { kind: 'name'; name: string; qualifier?: string; offset: number; length: number }
    | { kind: 'number'; value: number }
    | { kind: 'string'; value: string }
    | { kind: 'call'; fn: string; args: Expr[]; offset: number; length: number }
    | { kind: 'unary'; op: '-' | 'not'; arg: Expr }
    | { kind: 'binary'; op: BinaryOp; left: Expr; right: Expr };

type BinaryOp = '+' | '-' | '*' | '/' | '>' | '<' | '>=' | '<=' | '==' | '!=' | 'and' | 'or';

type TemplatePart = { kind: 'text'; text: string } | { kind: 'placeholder'; source: string; expr: Expr; offset: number };

export interface TemplateError {
    message: string;
    offset: number;
    length: number;
}

export interface ParsedTemplate {
    parts: TemplatePart[];
    errors: TemplateError[];
}

/**
 * Functions a template may call, with their arity; `evaluate` implements them. A null-prototype object, so
 * `{constructor(x)}` or `{toString(x)}` is an unknown function, not an inherited key.
 */
export const TEMPLATE_FUNCTIONS: Readonly<Record<string, { min: number; max: number; doc: string }>> = Object.assign(
    Object.create(null) as object,
    {
        decade: { min: 1, max: 1, doc: 'decade(year): the decade, e.g. 1954 → 1950' },
        century: { min: 1, max: 1, doc: 'century(year): e.g. 1954 → 20' },
        round: { min: 1, max: 2, doc: 'round(x, digits = 0)' },
        floor: { min: 1, max: 1, doc: 'floor(x)' },
        lower: { min: 1, max: 1, doc: 'lower(text)' },
        upper: { min: 1, max: 1, doc: 'upper(text)' },
        title: { min: 1, max: 1, doc: 'title(text): capitalise each word' },
        count: { min: 1, max: 1, doc: 'count(list): number of values (0 for null)' },
        nonempty: { min: 1, max: 1, doc: 'nonempty(value): true when not null and not an empty list' },
        first: { min: 1, max: 1, doc: 'first(list): the first value' },
        join: { min: 1, max: 2, doc: 'join(list, separator = ", ")' },
        year: { min: 1, max: 1, doc: 'year(date)' },
        month_year: { min: 1, max: 1, doc: 'month_year(date): e.g. "March, 2004"' },
        article: { min: 1, max: 1, doc: 'article(word): "an" before a vowel, else "a" (e.g. {article(genre)} {genre} movie)' },
    },
);

/** Deeper placeholders than this are refused (a located error) rather than overflowing the stack. */
const MAX_TEMPLATE_DEPTH = 64;

/** Splits a template into text and placeholders; `{{` and `}}` stand for literal braces. */
export function parseTemplate(text: string): ParsedTemplate {
    const parts: TemplatePart[] = [];
    const errors: TemplateError[] = [];
    let buf = '';
    let i = 0;
    while (i < text.length) {
        const c = text[i]!;
        if (c === '{' && text[i + 1] === '{') {
            buf += '{';
            i += 2;
            continue;
        }
        if (c === '}' && text[i + 1] === '}') {
            buf += '}';
            i += 2;
            continue;
        }
        if (c === '}') {
            errors.push({ message: 'Unmatched "}" — write "}}" for a literal brace.', offset: i, length: 1 });
            i++;
            continue;
        }
        if (c !== '{') {
            buf += c;
            i++;
            continue;
        }
        const close = text.indexOf('}', i + 1);
        if (close < 0) {
            errors.push({
                message: 'Unclosed "{" — close the placeholder with "}" or write "{{" for a literal brace.',
                offset: i,
                length: text.length - i,
            });
            break;
        }
        if (buf) {
            parts.push({ kind: 'text', text: buf });
            buf = '';
        }
        const source = text.slice(i + 1, close);
        const result = parseExpression(source, i + 1);
        if ('error' in result) errors.push(result.error);
        else parts.push({ kind: 'placeholder', source, expr: result.expr, offset: i + 1 });
        i = close + 1;
    }
    if (buf) parts.push({ kind: 'text', text: buf });
    return { parts, errors };
}

type Token = { t: 'num' | 'str' | 'id' | 'op' | 'end'; v: string; at: number };

const NUM = /\d+(\.\d+)?/y;
const ID = /[A-Za-z_]\w*/y;
const OP = />=|<=|==|!=|[-+*/<>(),.]/y;

/** Sticky matches at `i` (no slicing: a long placeholder tokenizes in linear time). */
function matchAt(re: RegExp, src: string, i: number): string | undefined {
    re.lastIndex = i;
    return re.exec(src)?.[0];
}

function tokenize(src: string, base: number): Token[] | TemplateError {
    const out: Token[] = [];
    let i = 0;
    while (i < src.length) {
        const c = src[i]!;
        if (/\s/.test(c)) {
            i++;
            continue;
        }
        let m: string | undefined;
        if ((m = matchAt(NUM, src, i))) {
            out.push({ t: 'num', v: m, at: base + i });
            i += m.length;
            continue;
        }
        if ((m = matchAt(ID, src, i))) {
            out.push({ t: 'id', v: m, at: base + i });
            i += m.length;
            continue;
        }
        if ((m = matchAt(OP, src, i))) {
            out.push({ t: 'op', v: m, at: base + i });
            i += m.length;
            continue;
        }
        if (c === '"' || c === "'") {
            const end = src.indexOf(c, i + 1);
            if (end < 0) return { message: 'Unclosed string in placeholder.', offset: base + i, length: src.length - i };
            out.push({ t: 'str', v: src.slice(i + 1, end), at: base + i });
            i = end + 1;
            continue;
        }
        return { message: `Unexpected character "${c}" in placeholder.`, offset: base + i, length: 1 };
    }
    out.push({ t: 'end', v: '', at: base + src.length });
    return out;
}

/** Parses one placeholder expression; `base` is its offset in the template text, for error ranges. */
export function parseExpression(src: string, base = 0): { expr: Expr } | { error: TemplateError } {
    const tokens = tokenize(src, base);
    if (!Array.isArray(tokens)) return { error: tokens };
    if (tokens.length === 1)
        return {
            error: { message: 'Empty placeholder: name an attribute, e.g. {title}.', offset: Math.max(0, base - 1), length: 2 },
        };
    let p = 0;
    const peek = () => tokens[p]!;
    const fail = (message: string, tok = peek()): never => {
        throw { message, offset: tok.at, length: Math.max(1, tok.v.length) } satisfies TemplateError;
    };
    const expectOp = (v: string) => {
        if (peek().t !== 'op' || peek().v !== v) fail(`Expected "${v}".`);
        p++;
    };

    let depth = 0;
    const primary = (): Expr => {
        const tok = peek();
        if (++depth > MAX_TEMPLATE_DEPTH) fail(`The placeholder nests deeper than ${MAX_TEMPLATE_DEPTH} levels; split it up.`);
        try {
            return primaryAt(tok);
        } finally {
            depth--;
        }
    };
    const primaryAt = (tok: Token): Expr => {
        if (tok.t === 'num') {
            p++;
            return { kind: 'number', value: Number(tok.v) };
        }
        if (tok.t === 'str') {
            p++;
            return { kind: 'string', value: tok.v };
        }
        if (tok.t === 'op' && tok.v === '(') {
            p++;
            const e = or();
            expectOp(')');
            return e;
        }
        if (tok.t === 'op' && tok.v === '-') {
            p++;
            return { kind: 'unary', op: '-', arg: primary() };
        }
        if (tok.t === 'id') {
            p++;
            if (tok.v === 'not') return { kind: 'unary', op: 'not', arg: comparison() };
            if (peek().t === 'op' && peek().v === '(') {
                p++;
                const args: Expr[] = [];
                if (!(peek().t === 'op' && peek().v === ')')) {
                    args.push(or());
                    while (peek().t === 'op' && peek().v === ',') {
                        p++;
                        args.push(or());
                    }
                }
                const close = peek();
                expectOp(')');
                return { kind: 'call', fn: tok.v, args, offset: tok.at, length: close.at + 1 - tok.at };
            }
            if (peek().t === 'op' && peek().v === '.') {
                p++;
                const attr = peek();
                if (attr.t !== 'id') fail('Expected an attribute name after ".".');
                p++;
                return { kind: 'name', qualifier: tok.v, name: attr.v, offset: tok.at, length: attr.at + attr.v.length - tok.at };
            }
            return { kind: 'name', name: tok.v, offset: tok.at, length: tok.v.length };
        }
        return fail(tok.t === 'end' ? 'Incomplete expression.' : `Unexpected "${tok.v}".`);
    };
    const binaryLevel = (next: () => Expr, ops: string[]) => (): Expr => {
        let left = next();
        for (;;) {
            const tok = peek();
            const op = tok.t === 'op' || tok.t === 'id' ? tok.v : '';
            if (!ops.includes(op)) return left;
            p++;
            left = { kind: 'binary', op: op as BinaryOp, left, right: next() };
        }
    };
    const product = binaryLevel(primary, ['*', '/']);
    const sum = binaryLevel(product, ['+', '-']);
    const comparison = binaryLevel(sum, ['>', '<', '>=', '<=', '==', '!=']);
    const and = binaryLevel(comparison, ['and']);
    const or = binaryLevel(and, ['or']);
    try {
        const expr = or();
        if (peek().t !== 'end') fail(`Unexpected "${peek().v}".`);
        return { expr };
    } catch (e) {
        if (e && typeof e === 'object' && 'offset' in e) return { error: e as TemplateError };
        // Anything else (it should not happen) still gets a location: the whole placeholder.
        return {
            error: {
                message: `Cannot read this placeholder: ${e instanceof Error ? e.message : String(e)}`,
                offset: base,
                length: Math.max(1, src.length),
            },
        };
    }
}

/** Every attribute name an expression reads. */
export function namesIn(expr: Expr): Extract<Expr, { kind: 'name' }>[] {
    switch (expr.kind) {
        case 'name':
            return [expr];
        case 'call':
            return expr.args.flatMap(namesIn);
        case 'unary':
            return namesIn(expr.arg);
        case 'binary':
            return [...namesIn(expr.left), ...namesIn(expr.right)];
        default:
            return [];
    }
}

export type TemplateValue = string | number | boolean | null | TemplateValue[];

/** Resolves a (possibly qualified) name to a value of the row being rendered. */
export type NameLookup = (name: string, qualifier?: string) => TemplateValue;

const MONTHS = [
    'January',
    'February',
    'March',
    'April',
    'May',
    'June',
    'July',
    'August',
    'September',
    'October',
    'November',
    'December',
];

function num(v: TemplateValue): number {
    if (typeof v === 'number') return v;
    if (typeof v === 'string' && v.trim() !== '' && !Number.isNaN(Number(v))) return Number(v);
    throw new Error(`not a number: ${JSON.stringify(v)}`);
}

export function evaluate(expr: Expr, lookup: NameLookup): TemplateValue {
    switch (expr.kind) {
        case 'number':
            return expr.value;
        case 'string':
            return expr.value;
        case 'name':
            return lookup(expr.name, expr.qualifier);
        case 'unary': {
            const v = evaluate(expr.arg, lookup);
            return expr.op === '-' ? -num(v) : !truthy(v);
        }
        case 'binary': {
            const l = evaluate(expr.left, lookup);
            if (expr.op === 'and') return truthy(l) && truthy(evaluate(expr.right, lookup));
            if (expr.op === 'or') return truthy(l) || truthy(evaluate(expr.right, lookup));
            const r = evaluate(expr.right, lookup);
            switch (expr.op) {
                case '+':
                    return typeof l === 'string' || typeof r === 'string' ? `${format(l)}${format(r)}` : num(l) + num(r);
                case '-':
                    return num(l) - num(r);
                case '*':
                    return num(l) * num(r);
                case '/':
                    return num(l) / num(r);
                case '>':
                    return num(l) > num(r);
                case '<':
                    return num(l) < num(r);
                case '>=':
                    return num(l) >= num(r);
                case '<=':
                    return num(l) <= num(r);
                case '==':
                    return format(l) === format(r);
                case '!=':
                    return format(l) !== format(r);
            }
            return null;
        }
        case 'call':
            return call(
                expr.fn,
                expr.args.map(a => evaluate(a, lookup)),
            );
    }
}

function call(fn: string, args: TemplateValue[]): TemplateValue {
    const [a, b] = args;
    switch (fn) {
        case 'decade':
            return Math.floor(num(a!) / 10) * 10;
        case 'century':
            return Math.floor((num(a!) - 1) / 100) + 1;
        case 'round': {
            const f = 10 ** (b === undefined ? 0 : num(b));
            return Math.round(num(a!) * f) / f;
        }
        case 'floor':
            return Math.floor(num(a!));
        case 'lower':
            return format(a!).toLowerCase();
        case 'upper':
            return format(a!).toUpperCase();
        case 'title':
            return format(a!).replace(/\b\w/g, c => c.toUpperCase());
        case 'count':
            return a === null ? 0 : Array.isArray(a) ? a.length : 1;
        case 'nonempty':
            return a !== null && a !== '' && !(Array.isArray(a) && a.length === 0);
        case 'first':
            return Array.isArray(a) ? (a[0] ?? null) : a!;
        case 'join':
            return Array.isArray(a) ? a.map(format).join(b === undefined ? ', ' : format(b)) : format(a!);
        case 'year':
            return Number(String(format(a!)).slice(0, 4));
        case 'article':
            return /^[aeiou]/i.test(format(a!)) ? 'an' : 'a';
        case 'month_year': {
            const m = /^(\d{4})-(\d{2})/.exec(format(a!));
            return m ? `${MONTHS[Number(m[2]) - 1]}, ${m[1]}` : format(a!);
        }
    }
    throw new Error(`unknown function ${fn}`);
}

export function truthy(v: TemplateValue): boolean {
    if (Array.isArray(v)) return v.length > 0;
    return v !== null && v !== false && v !== 0 && v !== '';
}

/** How a value appears in a question: integers without ".0", lists joined with ", ". */
export function format(v: TemplateValue): string {
    if (v === null) return '';
    if (Array.isArray(v)) return v.map(format).join(', ');
    if (typeof v === 'number') {
        if (Number.isInteger(v)) return String(v);
        // A value as written in the data (up to 15 significant digits, e.g. 43.3708833333333) prints as is;
        // arithmetic noise such as 0.1 + 0.2 is rounded away.
        return Number(v.toPrecision(15)) === v ? String(v) : String(Number(v.toFixed(10)));
    }
    return String(v);
}

/** Renders a parsed template for one row. */
export function render(template: ParsedTemplate, lookup: NameLookup): string {
    // A loop, not map + join: rendering runs several times per generated question.
    let out = '';
    for (const p of template.parts) out += p.kind === 'text' ? p.text : format(evaluate(p.expr, lookup));
    return out;
}
