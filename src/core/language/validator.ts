import type { ValidationAcceptor, ValidationChecks } from 'langium';
import type { ProbeSpecAstType, Spec } from './generated/ast.js';
import type { ProbeServices } from './module.js';

/** Registers the checks, one small named method per concern, per AST type. */
export function registerValidationChecks(services: ProbeServices): void {
    const registry = services.validation.ValidationRegistry;
    const validator = services.validation.ProbeValidator;
    const checks: ValidationChecks<ProbeSpecAstType> = {
        Spec: [validator.checkUniqueNames],
    };
    registry.register(checks, validator);
}

export class ProbeValidator {
    checkUniqueNames(spec: Spec, accept: ValidationAcceptor): void {
        const seen = new Map<string, string>();
        for (const el of spec.elements) {
            const name = (el as { name?: string }).name;
            if (!name) continue;
            const key = `${el.$type}:${name}`;
            if (seen.has(key)) accept('error', `Duplicate ${el.$type.toLowerCase()} name '${name}'.`, { node: el, property: 'name', code: 'duplicate-name' });
            seen.set(key, name);
        }
    }
}
