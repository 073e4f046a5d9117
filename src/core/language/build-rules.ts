/**
 * Rules and relationship properties as plain data (src/core/rules reads them): the AST of `rule …` clauses
 * and of `symmetric` / `transitive` / `inverse` / `phrase` / `cap` / `sample` properties on fks and rules.
 */
import {
    isCapProperty,
    isInverseProperty,
    isPhraseProperty,
    isRuleComparison,
    isRuleConst,
    isRuleNegation,
    isSampleProperty,
    isSymmetricProperty,
    isTransitiveProperty,
    type EdgeProperty,
    type Rule,
    type RuleAtom,
    type RuleTerm,
} from './generated/ast.js';
import type { EdgeProperties, RuleDecl, RuleLiteralDecl, RuleTermDecl, SpecLocation } from '../spec/model.js';
import { locationOf } from './location.js';

export function edgeProperties(properties: EdgeProperty[]): EdgeProperties {
    const out: EdgeProperties = {};
    for (const p of properties) {
        const loc = locationOf(p);
        if (isSymmetricProperty(p)) out.symmetric = loc;
        else if (isTransitiveProperty(p)) out.transitive = loc;
        else if (isInverseProperty(p))
            out.inverse = { name: p.name ?? '', loc, ...(p.text !== undefined ? { text: p.text } : {}) };
        else if (isPhraseProperty(p)) out.phrase = { text: p.text ?? '', loc };
        else if (isCapProperty(p)) out.cap = { value: p.cap ?? 0, loc };
        else if (isSampleProperty(p)) out.sample = { value: p.sample ?? 0, loc };
    }
    return out;
}

function term(t: RuleTerm | undefined, fallback: SpecLocation): RuleTermDecl {
    if (!t) return { kind: 'const', value: '', loc: fallback };
    const loc = locationOf(t);
    if (isRuleConst(t)) return { kind: 'const', value: t.text ?? t.number ?? '', loc };
    return t.attribute !== undefined
        ? { kind: 'var', name: t.name ?? '', attribute: t.attribute, loc }
        : { kind: 'var', name: t.name ?? '', loc };
}

function atom(a: RuleAtom | undefined, loc: SpecLocation): { pred: string; args: RuleTermDecl[] } {
    return { pred: a?.pred ?? '', args: (a?.args ?? []).map(x => term(x, loc)) };
}

export function ruleDecl(rule: Rule, loc: SpecLocation): RuleDecl {
    const body: RuleLiteralDecl[] = rule.body.map(l => {
        const lloc = locationOf(l);
        if (isRuleComparison(l))
            return { kind: 'compare', op: l.op ?? '=', left: term(l.left, lloc), right: term(l.right, lloc), loc: lloc };
        if (isRuleNegation(l)) return { kind: 'not', ...atom(l.atom, lloc), loc: lloc };
        return { kind: 'atom', ...atom(l, lloc), loc: lloc };
    });
    return {
        name: rule.name ?? '',
        params: rule.params.map(p => ({
            name: p.name ?? '',
            type: p.type?.ref?.name ?? p.type?.$refText ?? '',
            loc: locationOf(p),
        })),
        body,
        properties: edgeProperties(rule.properties),
        loc,
    };
}
