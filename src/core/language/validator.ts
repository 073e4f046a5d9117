import type { ValidationChecks } from 'langium';
import type { ProbeSpecAstType } from './generated/ast.js';
import type { ProbeServices } from './services.js';
import { checkImport, checkUniqueAttributes, checkUniqueNames } from './validation/names.js';
import {
    checkAsOf,
    checkDuring,
    checkFdSides,
    checkFkTypes,
    checkKeyAttributes,
    checkSourceShape,
} from './validation/relations.js';
import { checkTemplate } from './validation/templates.js';
import { checkProbeMembers, checkProbePath, checkProbeTarget } from './validation/probes.js';
import { checkProvider, checkSecretSetting, checkSettingName, checkSettingValue } from './validation/settings.js';
import { checkRules } from './validation/rules.js';
import { checkEndpointCredentials } from './validation/endpoints.js';
import { checkNormaliser, checkQuota, checkSample, checkSuiteShape, checkVariant } from './validation/suites.js';

/**
 * Registers the checks, one small named function per concern, per AST type. Every diagnostic carries a code
 * (see docs/language.md for the list) so that quick fixes, tests and `halluprobe check --format json` can rely on it.
 */
export function registerValidationChecks(services: ProbeServices): void {
    const text = checkTemplate(services, 'text');
    const checks: ValidationChecks<ProbeSpecAstType> = {
        Spec: [checkUniqueNames(services), checkRules(services)],
        Import: [checkImport(services)],
        Source: [checkSourceShape],
        Relation: [checkUniqueAttributes],
        Key: [checkKeyAttributes],
        During: [checkDuring],
        AsOf: [checkAsOf],
        Fd: [checkFdSides],
        Fk: [checkFkTypes],
        Normaliser: [checkNormaliser],
        Probe: [checkProbeTarget, checkProbePath(services), checkProbeMembers],
        Phrasing: [text],
        Stem: [text],
        Option: [text],
        // An ask's `when` condition is checked like a phrasing's (absent: nothing to check).
        Ask: [text, checkTemplate(services, 'condition')],
        GoldWhen: [checkTemplate(services, 'condition')],
        Model: [checkProvider],
        Setting: [checkSecretSetting, checkSettingName, checkSettingValue, checkEndpointCredentials],
        Suite: [checkSuiteShape],
        Sample: [checkSample],
        Quota: [checkQuota],
        Variant: [checkVariant],
    };
    services.validation.ValidationRegistry.register(checks);
}
