import { AstUtils, type ValidationAcceptor } from 'langium';
import { isRule, type Spec } from '../generated/ast.js';
import type { ProbeServices } from '../services.js';
import { buildSpecModel, documentPath } from '../build-model.js';
import { translateRules } from '../../rules/translate.js';
import { visibleSpecs } from './context.js';

/**
 * Rules as a whole (names, types, safety, sound negation, recursion and caps): translated once per file with
 * every file it imports, each problem reported where it is written when that is in this file.
 */
export function checkRules(services: ProbeServices) {
    return (spec: Spec, accept: ValidationAcceptor): void => {
        const visible = visibleSpecs(spec, services);
        const mine = visible[0]?.doc;
        if (!mine) return;
        const hasRules = visible.some(
            v =>
                v.spec.elements.some(isRule) ||
                v.spec.elements.some(e => e.$type === 'Fk' && (e as { properties?: unknown[] }).properties?.length),
        );
        if (!hasRules) return;
        const model = buildSpecModel(visible.map(v => v.doc));
        const file = documentPath(AstUtils.getDocument(spec).uri);
        for (const p of translateRules(model).problems) {
            if (p.location?.file !== file) continue;
            accept('error', p.message, { node: spec, range: p.location.range, code: p.code });
        }
    };
}
