import type { ValidationAcceptor } from 'langium';
import { isModel, isStringValue, type Setting } from '../generated/ast.js';
import { endpointHasUserinfo } from '../../models/providers.js';

/**
 * A model endpoint with a user and password in it (`http://user:pass@host/v1`) would print, store and send the
 * password with every request: refused, like a key written in the spec.
 */
export function checkEndpointCredentials(setting: Setting, accept: ValidationAcceptor): void {
    if (setting.name !== 'endpoint' || !isModel(setting.$container) || !isStringValue(setting.value)) return;
    if (!endpointHasUserinfo(setting.value.value)) return;
    accept(
        'error',
        'The endpoint holds a user name or password (user:pass@host): it would be printed, stored and sent with every request. Remove it; give the key with key_env "ENV_NAME" (or "HalluProbe: Set API Key").',
        { node: setting, property: 'value', code: 'secret-in-spec' },
    );
}
