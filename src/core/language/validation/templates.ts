import { AstUtils, GrammarUtils, type AstNode, type ValidationAcceptor } from 'langium';
import type { Range } from 'vscode-languageserver-types';
import { isFd, isProbe, type Attribute, type Probe, type Relation } from '../generated/ast.js';
import { parseExpression, parseTemplate, TEMPLATE_FUNCTIONS, type Expr } from '../../spec/template.js';
import type { ProbeServices } from '../services.js';
import { joinedRelations, visibleFks } from './context.js';
import { closest, didYouMean } from './suggest.js';

/** Functions that take a list-valued attribute as a whole; elsewhere a list has no single value to show. */
const LIST_FUNCTIONS = new Set(['count', 'join', 'first', 'nonempty']);

/** The attributes a probe's templates may name: unqualified (the probe's own relations) and qualified (joined ones). */
export interface TemplateScope {
    unqualified: Relation[];
    qualified: Relation[];
    /** A relation or FD the probe names is itself unknown: its templates' names are not judged (the name is reported there). */
    unresolved?: boolean;
}

export function templateScope(probe: Probe, services: ProbeServices): TemplateScope {
    const own: Relation[] = [];
    const fd = probe.fd?.ref;
    if (isFd(fd) && fd.relation?.ref) own.push(fd.relation.ref);
    if (probe.relation?.ref) own.push(probe.relation?.ref);
    for (const step of probe.path) if (step.relation?.ref) own.push(step.relation?.ref);
    const named = [probe.relation, ...probe.path.map(s => s.relation), ...(isFd(fd) ? [fd.relation] : [])];
    const unresolved = (probe.fd !== undefined && fd === undefined) || named.some(r => r !== undefined && r.ref === undefined);
    return {
        unqualified: own,
        qualified: joinedRelations(own, visibleFks(probe, services)),
        ...(unresolved ? { unresolved } : {}),
    };
}

/** Maps an index in a STRING's value to the document offset of that character (escapes take two raw characters). */
export function stringOffsets(node: AstNode, property: string): ((valueIndex: number) => number) | undefined {
    const cst = GrammarUtils.findNodeForProperty(node.$cstNode, property);
    if (!cst) return undefined;
    const raw = cst.text;
    const map: number[] = [];
    for (let i = 1; i < raw.length - 1; i++) {
        map.push(cst.offset + i);
        if (raw[i] === '\\') i++;
    }
    map.push(cst.offset + raw.length - 1);
    return (k: number) => map[Math.max(0, Math.min(k, map.length - 1))]!;
}

function rangeIn(node: AstNode, property: string, offset: number, length: number): Range | undefined {
    const at = stringOffsets(node, property);
    if (!at) return undefined;
    const doc = AstUtils.getDocument(node).textDocument;
    const start = at(offset);
    const end = Math.max(start + 1, at(offset + length - 1) + 1);
    return { start: doc.positionAt(start), end: doc.positionAt(end) };
}

/** Checks a template string (`text`) or a gold condition (`condition`) of any probe member. */
export function checkTemplate(services: ProbeServices, property: 'text' | 'condition') {
    return (node: AstNode, accept: ValidationAcceptor): void => {
        const text = (node as unknown as Record<string, unknown>)[property];
        if (typeof text !== 'string') return;
        const probe = AstUtils.getContainerOfType(node, isProbe);
        const scope = probe ? templateScope(probe, services) : { unqualified: [], qualified: [] };
        const report: Report = (message, offset, length, code, suggestion) => {
            const range = rangeIn(node, property, offset, length);
            const data = suggestion === undefined ? {} : { data: { suggestion } };
            accept('error', message, range ? { node, range, code, ...data } : { node, property, code, ...data });
        };
        if (property === 'condition') {
            const parsed = parseExpression(text, 0);
            if ('error' in parsed)
                report(
                    `The when condition does not parse: ${parsed.error.message}`,
                    parsed.error.offset,
                    parsed.error.length,
                    'condition-syntax',
                );
            else checkExpr(parsed.expr, scope, false, report);
            return;
        }
        const parsed = parseTemplate(text);
        for (const e of parsed.errors) report(e.message, e.offset, e.length, 'template-syntax');
        for (const part of parsed.parts) if (part.kind === 'placeholder') checkExpr(part.expr, scope, false, report);
    };
}

/** `suggestion`: the text that replaces the flagged span (the quick fix reads it from the diagnostic's data). */
type Report = (message: string, offset: number, length: number, code: string, suggestion?: string) => void;

function checkExpr(expr: Expr, scope: TemplateScope, inListFunction: boolean, report: Report): void {
    switch (expr.kind) {
        case 'name':
            return checkName(expr, scope, inListFunction, report);
        case 'call': {
            const fn = TEMPLATE_FUNCTIONS[expr.fn];
            if (!fn) {
                report(
                    `Unknown template function '${expr.fn}'.${didYouMean(expr.fn, Object.keys(TEMPLATE_FUNCTIONS))} Known: ${Object.keys(TEMPLATE_FUNCTIONS).join(', ')}.`,
                    expr.offset,
                    expr.fn.length,
                    'unknown-function',
                    closest(expr.fn, Object.keys(TEMPLATE_FUNCTIONS)),
                );
            } else if (expr.args.length < fn.min || expr.args.length > fn.max) {
                const want = fn.min === fn.max ? `${fn.min}` : `${fn.min} to ${fn.max}`;
                report(
                    `${expr.fn} takes ${want} argument(s), not ${expr.args.length}: ${fn.doc}.`,
                    expr.offset,
                    expr.length,
                    'function-arity',
                );
            }
            for (const a of expr.args) checkExpr(a, scope, LIST_FUNCTIONS.has(expr.fn), report);
            return;
        }
        case 'unary':
            return checkExpr(expr.arg, scope, false, report);
        case 'binary':
            checkExpr(expr.left, scope, false, report);
            checkExpr(expr.right, scope, false, report);
            return;
        default:
            return;
    }
}

function checkName(expr: Extract<Expr, { kind: 'name' }>, scope: TemplateScope, inListFunction: boolean, report: Report): void {
    let attribute: Attribute | undefined;
    // One misspelt relation, one diagnostic (issue 36 item 9): the names of a probe whose relation is unknown are not judged.
    if (scope.unresolved) return;
    if (expr.qualifier !== undefined) {
        const relation = scope.qualified.find(r => r.name === expr.qualifier);
        if (!relation) {
            const names = scope.qualified.map(r => r.name);
            report(
                `'${expr.qualifier}' is not a relation this probe can reach (its own relation or one joined to it by an fk).${didYouMean(expr.qualifier, names)}`,
                expr.offset,
                expr.qualifier.length,
                'unknown-attribute',
                closest(expr.qualifier, names),
            );
            return;
        }
        attribute = relation.attributes.find(a => a.name === expr.name);
        if (!attribute) {
            const wanted = closest(
                expr.name,
                relation.attributes.map(a => a.name),
            );
            report(
                `Relation ${relation.name} has no attribute '${expr.name}'.${didYouMean(
                    expr.name,
                    relation.attributes.map(a => a.name),
                )}`,
                expr.offset,
                expr.length,
                'unknown-attribute',
                wanted === undefined ? undefined : `${expr.qualifier}.${wanted}`,
            );
            return;
        }
    } else {
        if (scope.unqualified.length === 0) return; // the probe's target is itself unresolved: reported there
        attribute = scope.unqualified.flatMap(r => r.attributes).find(a => a.name === expr.name);
        if (!attribute) {
            const names = scope.unqualified.flatMap(r => r.attributes.map(a => a.name));
            const joined = scope.qualified.find(r => r.attributes.some(a => a.name === expr.name));
            const hint = joined
                ? ` It is an attribute of the joined relation ${joined.name}: write {${joined.name}.${expr.name}}.`
                : didYouMean(expr.name, names);
            report(
                `Unknown attribute '${expr.name}' in this template (attributes of ${scope.unqualified.map(r => r.name).join(', ')}).${hint}`,
                expr.offset,
                expr.length,
                'unknown-attribute',
                joined ? `${joined.name}.${expr.name}` : closest(expr.name, names),
            );
            return;
        }
    }
    if (attribute.type?.list && !inListFunction) {
        report(
            `'${expr.name}' is a list (list<${attribute.type.element}>): use it inside count(), join(), first() or nonempty(), e.g. {join(${expr.name})}.`,
            expr.offset,
            expr.length,
            'list-attribute',
        );
    }
}
