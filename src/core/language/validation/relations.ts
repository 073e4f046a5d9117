import type { ValidationAcceptor } from 'langium';
import type { AsOf, Attribute, AttributeTuple, During, Fd, Fk, Key, Source } from '../generated/ast.js';
import { PASSWORD_REMEDY, passwordPlace } from '../../data/postgres-url.js';
import { asOfYear } from '../../spec/model.js';

const typeText = (a: Attribute): string => (a.type ? (a.type.list ? `list<${a.type.element}>` : a.type.element) : 'text');

/** A key names each attribute once. */
export function checkKeyAttributes(key: Key, accept: ValidationAcceptor): void {
    const seen = new Set<string>();
    key.attributes.forEach((ref, index) => {
        const name = ref.$refText;
        if (seen.has(name))
            accept('error', `The key names '${name}' twice; list each attribute once.`, {
                node: key,
                property: 'attributes',
                index,
                code: 'key-duplicate-attribute',
            });
        seen.add(name);
    });
}

/**
 * `during (begin, end)`: once per relation, two different attributes holding years (`int`, or `date` / `text`
 * holding ISO dates, whose year is read; rules/temporal.ts).
 */
export function checkDuring(during: During, accept: ValidationAcceptor): void {
    const relation = during.$container;
    if (relation.during.indexOf(during) > 0)
        accept('error', `${relation.name} declares 'during' twice; a relation's rows hold over one interval: keep one.`, {
            node: during,
            code: 'during-duplicate',
        });
    const [begin, end] = during.attributes;
    if (begin && end && begin.$refText === end.$refText)
        accept('error', `'during' needs two attributes, the first and the last year; '${begin.$refText}' is named twice.`, {
            node: during,
            property: 'attributes',
            index: 1,
            code: 'during-attributes',
        });
    during.attributes.forEach((ref, index) => {
        const a = ref.ref;
        if (a?.type && (a.type.list || !['int', 'date', 'text'].includes(a.type.element ?? 'text'))) {
            accept(
                'error',
                `'during' reads years from '${ref.$refText}', which is ${typeText(a)}; use an int (a year) or a date attribute.`,
                { node: during, property: 'attributes', index, code: 'during-attributes' },
            );
        }
    });
}

/** `as of` names one year: `as of 2019`, or a date in quotes that names its year once (`as of "June 2019"`). */
export function checkAsOf(asOf: AsOf, accept: ValidationAcceptor): void {
    if (asOfYear(asOf.year, asOf.text) !== undefined) return;
    const written = asOf.year !== undefined ? String(asOf.year) : `"${asOf.text ?? ''}"`;
    accept(
        'error',
        `'as of ${written}' does not name a year: write the year the data was true, e.g. 'as of 2019', or a date that names its year once, e.g. 'as of "June 2019"'.`,
        { node: asOf, property: asOf.year !== undefined ? 'year' : 'text', code: 'as-of-value' },
    );
}

/** An attribute on both sides of an FD makes it trivial (it determines itself). */
export function checkFdSides(fd: Fd, accept: ValidationAcceptor): void {
    const lhs = new Set(fd.lhs.map(r => r.$refText));
    fd.rhs.forEach((ref, index) => {
        if (lhs.has(ref.$refText)) {
            accept(
                'error',
                `'${ref.$refText}' is on both sides of the fd; an attribute trivially determines itself, so remove it from the right-hand side.`,
                { node: fd, property: 'rhs', index, code: 'fd-overlap' },
            );
        }
    });
    for (const [property, side] of [
        ['lhs', fd.lhs],
        ['rhs', fd.rhs],
    ] as const) {
        const seen = new Set<string>();
        side.forEach((ref, index) => {
            if (seen.has(ref.$refText))
                accept('warning', `'${ref.$refText}' is listed twice on this side of the fd.`, {
                    node: fd,
                    property,
                    index,
                    code: 'fd-duplicate-attribute',
                });
            seen.add(ref.$refText);
        });
    }
}

/** Both ends of an FK name the same number of attributes, pairwise of compatible types. */
export function checkFkTypes(fk: Fk, accept: ValidationAcceptor): void {
    const from = fk.from;
    const to = fk.to;
    if (!from || !to) return;
    if (from.attributes.length !== to.attributes.length) {
        accept(
            'error',
            `The fk has ${from.attributes.length} attribute(s) on the left and ${to.attributes.length} on the right; both sides need the same number, paired in order.`,
            { node: fk, property: 'to', code: 'fk-arity' },
        );
        return;
    }
    from.attributes.forEach((ref, i) => {
        const a = ref.ref;
        const b = to.attributes[i]?.ref;
        if (!a || !b) return;
        const verdict = compatibility(a, b);
        if (verdict === 'ok') return;
        const msg = `${side(from, i)} is ${typeText(a)} but ${side(to, i)} is ${typeText(b)}`;
        if (verdict === 'warn')
            accept('warning', `${msg}; values are compared as numbers, so 2009 and 2009.0 match, but check this is intended.`, {
                node: fk,
                property: 'to',
                code: 'fk-type',
            });
        else
            accept('error', `${msg}; an fk must join attributes of the same type. Change one attribute's type.`, {
                node: fk,
                property: 'to',
                code: 'fk-type',
            });
    });
}

function side(t: AttributeTuple, i: number): string {
    return `${t.relation?.$refText}.${t.attributes[i]?.$refText ?? '?'}`;
}

function compatibility(a: Attribute, b: Attribute): 'ok' | 'warn' | 'error' {
    const sa = a.type?.element ?? 'text';
    const sb = b.type?.element ?? 'text';
    // A list-valued attribute may reference a scalar key (each element is a reference); not the reverse.
    if (b.type?.list && !a.type?.list) return 'error';
    if (sa === sb) return 'ok';
    const numeric = (s: string) => s === 'int' || s === 'real';
    return numeric(sa) && numeric(sb) ? 'warn' : 'error';
}

/** csv and json sources have no table or query; sqlite and postgres sources need exactly one of them. */
export function checkSourceShape(source: Source, accept: ValidationAcceptor): void {
    if (
        source.format !== 'sqlite' &&
        source.format !== 'postgres' &&
        (source.table !== undefined || source.query !== undefined)
    ) {
        accept(
            'error',
            `A ${source.format} source reads the whole file; 'table' and 'query' are for sqlite and postgres sources. Remove it, or write 'source ${source.name} sqlite ...'.`,
            { node: source, property: source.table !== undefined ? 'table' : 'query', code: 'source-shape' },
        );
    }
    if (
        (source.format === 'sqlite' || source.format === 'postgres') &&
        source.table === undefined &&
        source.query === undefined
    ) {
        accept(
            'error',
            `A ${source.format} source needs a table or a query, e.g. 'source ${source.name} ${source.format} "${source.path}" table "movies"'.`,
            { node: source, property: 'format', code: 'source-shape' },
        );
    }
    const place = source.format === 'postgres' && source.path !== undefined ? passwordPlace(source.path) : undefined;
    if (place) {
        accept(
            'error',
            `The URL holds a password in ${place}; a spec is shared, a password is not. Remove it and ${PASSWORD_REMEDY}.`,
            { node: source, property: 'path', code: 'source-secret' },
        );
    }
    if (source.path !== undefined && source.path.trim() === '')
        accept('error', 'The source path is empty; give the data file, relative to this spec.', {
            node: source,
            property: 'path',
            code: 'source-shape',
        });
}
