import type { ValidationAcceptor } from 'langium';
import { isModel, isProbe, isSource, isSuite, type Model, type Setting } from '../generated/ast.js';
import { closest, didYouMean } from './suggest.js';
import { PROVIDER_NAMES, providerFacts } from '../../models/providers.js';


/** Known settings per block; unknown ones are warnings (the engine ignores them, which is usually a typo). */
export const KNOWN_SETTINGS = {
    csv: ['delimiter', 'quote', 'header', 'encoding', 'list_separator'],
    sqlite: [] as string[],
    json: ['list_separator'],
    postgres: ['password_env', 'statement_timeout', 'version_column'],
    model: ['id', 'endpoint', 'temperature', 'max_tokens', 'seed', 'samples', 'key_env', 'price_input', 'price_output', 'concurrency',
        'rpm', 'tpm', 'timeout_ms', 'file', 'format', 'stream', 'top_p', 'api_version', 'deployment', 'knowledge', 'unsure', 'omit', 'contradict', 'follows', 'invents', 'trusts_memory',
        'wrong_premises', 'wrong_inferences', 'flips_twins'],
    // open probes (core/open/family.ts): preset … baseline.
    probe: ['none_of_above', 'limit', 'max_hops', 'subject', 'explain', 'preset', 'form', 'k', 'triplets', 'paths', 'max_nodes', 'perturb', 'levels', 'baseline', 'prizes',
        // statement probes (core/statements/family.ts)
        'statement', 'negatives', 'corrupt',
        // evidence probes (core/evidence/family.ts)
        'question', 'answer', 'passage', 'enrich_from', 'swap_with', 'prompt', 'demos',
        // ERBench (knows: known_if, asks; path: ar_ext; choice: draws_from)
        'known_if', 'asks', 'ar_ext', 'draws_from',
        // rule probes (core/rules/family.ts)
        'per_entity', 'noun', 'active', 'passive', 'system', 'temporal', 'within', 'extract_with', 'embeddings', 'similarity'],
    suite: ['concurrency', 'limit', 'seed', 'rpm', 'tpm', 'timeout_ms', 'temperature', 'max_tokens', 'knowledge_probe'],
};

/** Setting names that hold credentials; a literal value would put a secret in a file users commit. */
const SECRET_NAMES = /^(api_?key|key|token|access_token|secret|client_secret|password|passwd|authorization|auth|bearer)$/i;

export function checkProvider(model: Model, accept: ValidationAcceptor): void {
    if (!model.provider || providerFacts(model.provider)) return;
    accept('error', `Unknown provider '${model.provider}'.${didYouMean(model.provider, PROVIDER_NAMES)} Providers: ${PROVIDER_NAMES.join(', ')} (use openai with 'endpoint' for any other OpenAI-compatible server).`,
        { node: model, property: 'provider', code: 'unknown-provider' });
}

/** Secrets never go in a spec: only the name of the environment variable that holds the key. */
export function checkSecretSetting(setting: Setting, accept: ValidationAcceptor): void {
    if (!SECRET_NAMES.test(setting.name)) return;
    accept('error', `Do not write a secret in the spec ('${setting.name}'): anyone who can read the file or its history can use it. Write 'key_env "ENV_NAME"' and put the key in that environment variable, or run the command "HalluProbe: Set API Key" to keep it in the OS keychain.`,
        { node: setting, code: 'secret-in-spec' });
}

/** Unknown setting names get a warning with the closest known one; a setting given twice gets a warning too. */
export function checkSettingName(setting: Setting, accept: ValidationAcceptor): void {
    if (SECRET_NAMES.test(setting.name)) return;
    const known = knownFor(setting);
    if (known === undefined) return;
    if (!known.list.includes(setting.name)) {
        const hint = closest(setting.name, known.list);
        accept('warning', `Unknown ${known.where} setting '${setting.name}'; it is ignored.${hint ? ` Did you mean '${hint}'?` : known.list.length ? ` Known: ${known.list.join(', ')}.` : ''}`,
            { node: setting, property: 'name', code: 'unknown-setting', data: hint ? { suggestion: hint } : undefined });
    }
    const container = setting.$container as { settings?: Setting[]; members?: unknown[] };
    const siblings = (container.settings ?? container.members ?? []) as Setting[];
    const first = siblings.find(s => s.$type === 'Setting' && s.name === setting.name);
    if (first && first !== setting) accept('warning', `'${setting.name}' is set twice in this block; the last one wins.`, { node: setting, property: 'name', code: 'duplicate-setting' });
}

/** The settings a source of this format reads (jsonl shares json's). */
export function sourceSettings(format: string): string[] {
    if (format === 'sqlite' || format === 'postgres' || format === 'json') return KNOWN_SETTINGS[format];
    return format === 'jsonl' ? KNOWN_SETTINGS.json : KNOWN_SETTINGS.csv;
}

function knownFor(setting: Setting): { list: string[]; where: string } | undefined {
    const c = setting.$container;
    if (isSource(c)) return { list: sourceSettings(c.format), where: `${c.format} source` };
    if (isModel(c)) return { list: KNOWN_SETTINGS.model, where: 'model' };
    if (isProbe(c)) return { list: KNOWN_SETTINGS.probe, where: 'probe' };
    if (isSuite(c)) return { list: KNOWN_SETTINGS.suite, where: 'suite' };
    return undefined;
}
