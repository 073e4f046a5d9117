import type { AstNode, ValidationAcceptor } from 'langium';
import { isModel, isProbe, isSource, isSuite, type Model, type Setting } from '../generated/ast.js';
import { closest, didYouMean, suggestionData } from './suggest.js';
import { PROVIDER_NAMES, providerFacts } from '../../models/providers.js';
import { familySimulatorRates, probeSettings } from '../../probes/families.js';
import type { FamilySetting } from '../../probes/family.js';
import { settingValue } from '../build-model.js';
import type { SettingValue } from '../../spec/model.js';


/**
 * Known settings per block; unknown ones are warnings (the engine ignores them, which is usually a typo). A
 * probe's settings are its family's (\`ProbeFamily.settings\`, through the registry), and so are a model block's offline-simulator rates.
 */
export const KNOWN_SETTINGS = {
    csv: ['delimiter', 'quote', 'header', 'encoding', 'list_separator'],
    sqlite: [] as string[],
    json: ['list_separator'],
    postgres: ['password_env', 'statement_timeout', 'version_column'],
    model: ['id', 'endpoint', 'temperature', 'max_tokens', 'seed', 'samples', 'key_env', 'price_input', 'price_output', 'concurrency',
        'rpm', 'tpm', 'pacing', 'timeout_ms', 'retries', 'file', 'format', 'stream', 'top_p', 'api_version', 'deployment', 'knowledge', 'unsure', 'omit', 'contradict'],
    suite: ['concurrency', 'limit', 'seed', 'rpm', 'tpm', 'pacing', 'timeout_ms', 'temperature', 'max_tokens', 'knowledge_probe', 'batch'],
};

/** A model block's settings: the shared ones and every family's offline-simulator rates (`ProbeFamily.simulatorRates`). */
export function modelSettings(): string[] {
    return [...KNOWN_SETTINGS.model, ...familySimulatorRates().map(r => r.name)];
}

/** Setting names that hold credentials; a literal value would put a secret in a file users commit. */
const SECRET_NAMES = /^(api_?key|key|token|access_token|secret|client_secret|password|passwd|authorization|auth|bearer)$/i;

export function checkProvider(model: Model, accept: ValidationAcceptor): void {
    if (!model.provider || providerFacts(model.provider)) return;
    accept('error', `Unknown provider '${model.provider}'.${didYouMean(model.provider, PROVIDER_NAMES)} Providers: ${PROVIDER_NAMES.join(', ')} (use openai with 'endpoint' for any other OpenAI-compatible server).`,
        { node: model, property: 'provider', code: 'unknown-provider', data: suggestionData(model.provider, PROVIDER_NAMES) });
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

/** The setting a probe of this kind declares under this name (undefined: not a probe setting, or unknown). */
export function probeSettingOf(setting: Setting): FamilySetting | undefined {
    const c = setting.$container;
    return isProbe(c) ? probeSettings(c.kind)?.find(x => x.name === setting.name) : undefined;
}

/** The names a settings block knows, for completion: a probe's are its family's. */
export function settingNames(block: AstNode): string[] {
    if (isSource(block)) return sourceSettings(block.format);
    if (isModel(block)) return modelSettings();
    if (isProbe(block)) return (probeSettings(block.kind) ?? []).map(x => x.name);
    if (isSuite(block)) return KNOWN_SETTINGS.suite;
    return [];
}

/** A value completion offers for a setting: the value, how it is written in the spec, and the setting's doc. */
export interface SettingChoice { value: string; text: string; doc: string }

/**
 * The values a setting of this block takes, for completion: a probe setting's allowed values as its family declares
 * them, true / false for a yes-or-no one; none for any other setting.
 */
export function settingChoices(block: AstNode, name: string): SettingChoice[] {
    const spec = isProbe(block) ? probeSettings(block.kind)?.find(x => x.name === name) : undefined;
    const values = spec?.values ?? (spec?.type === 'boolean' ? ['true', 'false'] : []);
    // A value that is not a bare name is written as a string.
    return values.map(value => ({ value, text: /^[_a-zA-Z]\w*$/.test(value) ? value : JSON.stringify(value), doc: spec!.doc }));
}

/**
 * A probe setting's value against its family's declaration: type, bounds, allowed values. A value that does
 * not fit is an error on the value (a family would otherwise fall back without a word), with the closest
 * allowed value as a "did you mean" and a quick-fix suggestion.
 */
export function checkSettingValue(setting: Setting, accept: ValidationAcceptor): void {
    const spec = probeSettingOf(setting);
    if (!spec || setting.value === undefined) return;
    const problem = settingValueProblem(spec, settingValue(setting.value));
    if (!problem) return;
    accept('error', `${setting.name}: ${problem.message}`, { node: setting, property: 'value', code: 'setting-value', data: problem.suggestion ? { suggestion: problem.suggestion } : undefined });
}

const TYPE_WORDS: Record<FamilySetting['type'], string> = { number: 'a number', integer: 'a whole number', text: 'a text', boolean: 'true or false' };

/** What is wrong with a value of a declared setting, in words, with the closest allowed value; undefined when it fits. */
export function settingValueProblem(spec: FamilySetting, value: SettingValue): { message: string; suggestion?: string } | undefined {
    if (Array.isArray(value) && !spec.list) return { message: `takes one value (${describe(spec)}), not a list.` };
    for (const v of Array.isArray(value) ? value : [value]) {
        if (Array.isArray(v)) return { message: `takes ${spec.list ? 'a list of ' : ''}${describe(spec)}, not a nested list.` };
        const p = oneValueProblem(spec, v);
        if (p) return p;
    }
    return undefined;
}

function oneValueProblem(spec: FamilySetting, v: string | number | boolean): { message: string; suggestion?: string } | undefined {
    const shown = typeof v === 'string' ? `'${v}'` : String(v);
    if (spec.type === 'boolean') return typeof v === 'boolean' ? undefined : { message: `is true or false, not ${shown}.` };
    if (spec.type === 'text') {
        if (typeof v !== 'string') return { message: `is ${describe(spec)}, not ${shown}.` };
        if (!spec.values || spec.values.includes(v)) return undefined;
        const hint = closest(v, spec.values) ?? sameStem(v, spec.values);
        return { message: `${shown} is not one of ${spec.values.join(', ')}.${hint ? ` Did you mean '${hint}'?` : ''}`, suggestion: hint };
    }
    if (typeof v !== 'number' || (spec.type === 'integer' && !Number.isInteger(v))) return { message: `is ${describe(spec)}, not ${shown}.` };
    if ((spec.min !== undefined && v < spec.min) || (spec.above !== undefined && v <= spec.above) || (spec.max !== undefined && v > spec.max)) return { message: `is ${describe(spec)}, not ${shown}.` };
    return undefined;
}

/** The allowed value sharing the longest beginning (at least 4 letters) with \`v\`: 'rewiring' → 'rewire'. */
function sameStem(v: string, values: readonly string[]): string | undefined {
    const common = (a: string, b: string) => { let i = 0; while (i < a.length && i < b.length && a[i] === b[i]) i++; return i; };
    const lower = v.toLowerCase();
    const best = values.map(x => ({ x, n: common(lower, x.toLowerCase()) })).sort((a, b) => b.n - a.n)[0];
    return best && best.n >= 4 ? best.x : undefined;
}

/** "a whole number from 1 to 20", "a number in (0, 1]", "one of a, b". */
function describe(spec: FamilySetting): string {
    if (spec.values) return `one of ${spec.values.join(', ')}`;
    const low = spec.above !== undefined ? `(${spec.above}` : spec.min !== undefined ? `[${spec.min}` : undefined;
    if (low && spec.max !== undefined) return `${TYPE_WORDS[spec.type]} in ${low}, ${spec.max}]`;
    if (spec.above !== undefined) return `${TYPE_WORDS[spec.type]} above ${spec.above}`;
    if (spec.min !== undefined) return `${TYPE_WORDS[spec.type]} of at least ${spec.min}`;
    if (spec.max !== undefined) return `${TYPE_WORDS[spec.type]} of at most ${spec.max}`;
    return TYPE_WORDS[spec.type];
}

/** The settings a source of this format reads (jsonl shares json's). */
export function sourceSettings(format: string): string[] {
    if (format === 'sqlite' || format === 'postgres' || format === 'json') return KNOWN_SETTINGS[format];
    return format === 'jsonl' ? KNOWN_SETTINGS.json : KNOWN_SETTINGS.csv;
}

function knownFor(setting: Setting): { list: string[]; where: string } | undefined {
    const c = setting.$container;
    if (isSource(c)) return { list: sourceSettings(c.format), where: `${c.format} source` };
    if (isModel(c)) return { list: modelSettings(), where: 'model' };
    if (isProbe(c)) {
        const own = probeSettings(c.kind);
        return own ? { list: own.map(x => x.name), where: `${c.kind} probe` } : undefined;
    }
    if (isSuite(c)) return { list: KNOWN_SETTINGS.suite, where: 'suite' };
    return undefined;
}
