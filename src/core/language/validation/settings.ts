import type { AstNode, ValidationAcceptor } from 'langium';
import { isModel, isProbe, isSource, isSuite, type Model, type Setting } from '../generated/ast.js';
import { closest, didYouMean, suggestionData } from './suggest.js';
import { PROVIDER_NAMES, providerFacts } from '../../models/providers.js';
import { MODEL_SETTINGS } from '../../models/settings.js';
import { sourceSettingsTable } from '../../data/settings.js';
import { SUITE_SETTINGS } from '../../probes/settings.js';
import { RUN_SUITE_SETTINGS } from '../../run/settings.js';
import { familyKinds, probeSettings, simulatorRateSettings } from '../../probes/registry.js';
import { settingValue, settingsOf } from '../build-model.js';
import type { SettingDecl, SettingValue } from '../../spec/model.js';

/** A setting removed from a block, with where what it did is written now (a located `setting-place` error). */
const RETIRED: Readonly<Record<string, Readonly<Record<string, string>>>> = {
    suite: { knowledge_probe: "name a knows probe in the suite's `probes`: it decides the evaluation modes of the others" },
    probe: { max_hops: 'a path probe asks every hop written after `along`; write a shorter path to ask fewer' },
    model: {
        api_version: "an azure model's endpoint is its resource's v1 URL (…/openai/v1), which takes no api-version",
        deployment: "write an azure deployment's name as the model's `id`",
    },
};

/** A model block's settings: the model room's (src/core/models/settings.ts) and every family's offline-simulator rates. */
export function modelDecls(): SettingDecl[] {
    return [...MODEL_SETTINGS.decls, ...simulatorRateSettings()];
}

/** A suite's settings: its own (generation's, the run's) and the model settings a suite may set for its models. */
export function suiteDecls(): SettingDecl[] {
    return [...SUITE_SETTINGS.decls, ...RUN_SUITE_SETTINGS.decls, ...MODEL_SETTINGS.decls.filter(d => d.suite)];
}

/** The settings a source of this format reads (jsonl shares json's). */
export function sourceDecls(format: string): readonly SettingDecl[] {
    return sourceSettingsTable(format).decls;
}

/** Every declaration a block may hold, and how the block is named in messages; undefined for an unknown probe kind. */
function declsOf(block: AstNode): { decls: readonly SettingDecl[]; where: string; block: string } | undefined {
    if (isSource(block)) return { decls: sourceDecls(block.format), where: `${block.format} source`, block: 'source' };
    if (isModel(block)) return { decls: modelDecls(), where: 'model', block: 'model' };
    if (isProbe(block)) {
        const own = probeSettings(block.kind);
        return own ? { decls: own, where: `${block.kind} probe`, block: 'probe' } : undefined;
    }
    if (isSuite(block)) return { decls: suiteDecls(), where: 'suite', block: 'suite' };
    return undefined;
}

/** The declaration of a setting as written in its block (undefined: unknown there). */
function declOf(setting: Setting): SettingDecl | undefined {
    return declsOf(setting.$container)?.decls.find(d => d.name === setting.name);
}

/** Where a setting a block does not read is read instead: "a model setting", "a choice probe setting", … */
function elsewhere(name: string): string | undefined {
    if (modelDecls().some(d => d.name === name)) return 'a model setting; write it in the model block';
    const kinds = familyKinds().filter(k => probeSettings(k)!.some(d => d.name === name));
    if (kinds.length)
        return `a ${kinds.length === familyKinds().length ? '' : `${kinds.join(' / ')} `}probe setting; write it in the probe`;
    return undefined;
}

/** Setting names that hold credentials; a literal value would put a secret in a file users commit. */
const SECRET_NAMES = /^(api_?key|key|token|access_token|secret|client_secret|password|passwd|authorization|auth|bearer)$/i;

export function checkProvider(model: Model, accept: ValidationAcceptor): void {
    if (!model.provider || providerFacts(model.provider)) return;
    accept(
        'error',
        `Unknown provider '${model.provider}'.${didYouMean(model.provider, PROVIDER_NAMES)} Providers: ${PROVIDER_NAMES.join(', ')} (use openai with 'endpoint' for any other OpenAI-compatible server).`,
        { node: model, property: 'provider', code: 'unknown-provider', data: suggestionData(model.provider, PROVIDER_NAMES) },
    );
}

/** Secrets never go in a spec: only the name of the environment variable that holds the key. */
export function checkSecretSetting(setting: Setting, accept: ValidationAcceptor): void {
    if (!SECRET_NAMES.test(setting.name)) return;
    accept(
        'error',
        `Do not write a secret in the spec ('${setting.name}'): anyone who can read the file or its history can use it. Write 'key_env "ENV_NAME"' and put the key in that environment variable, or run the command "HalluProbe: Set API Key" to keep it in the OS keychain.`,
        { node: setting, code: 'secret-in-spec' },
    );
}

/**
 * Unknown setting names get a warning with the closest known one; a setting a suite cannot read (another block's, or
 * one removed) is a located error saying where it belongs; a setting given twice gets a warning too.
 */
export function checkSettingName(setting: Setting, accept: ValidationAcceptor): void {
    if (SECRET_NAMES.test(setting.name)) return;
    const known = declsOf(setting.$container);
    if (known === undefined) return;
    const names = known.decls.map(d => d.name);
    const retired = RETIRED[known.block]?.[setting.name];
    const belongs = retired ?? (known.block === 'suite' ? elsewhere(setting.name) : undefined);
    if (!names.includes(setting.name) && belongs) {
        const why = retired
            ? `not a ${known.where} setting any more: ${retired}`
            : `not a ${known.where} setting: it is ${belongs}`;
        accept('error', `'${setting.name}' is ${why}.`, { node: setting, property: 'name', code: 'setting-place' });
    } else if (!names.includes(setting.name)) {
        const hint = closest(setting.name, names);
        accept(
            'warning',
            `Unknown ${known.where} setting '${setting.name}'; it is ignored.${hint ? ` Did you mean '${hint}'?` : names.length ? ` Known: ${names.join(', ')}.` : ''}`,
            { node: setting, property: 'name', code: 'unknown-setting', data: hint ? { suggestion: hint } : undefined },
        );
    }
    const container = setting.$container as { settings?: Setting[]; members?: unknown[] };
    const siblings = (container.settings ?? container.members ?? []) as Setting[];
    const first = siblings.find(s => s.$type === 'Setting' && s.name === setting.name);
    if (first && first !== setting)
        accept('warning', `'${setting.name}' is set twice in this block; the last one wins.`, {
            node: setting,
            property: 'name',
            code: 'duplicate-setting',
        });
}

/** The names a settings block knows, for completion. */
export function settingNames(block: AstNode): string[] {
    return (declsOf(block)?.decls ?? []).map(d => d.name);
}

/** A model block's settings as the model room reads them (the model hover). */
export function modelSettingsOf(model: Model): ReturnType<typeof MODEL_SETTINGS.read> {
    return MODEL_SETTINGS.read(settingsOf(model.settings));
}

/** The hover of a setting's name: its declaration (doc, what it takes, its default, where it is read). */
export function settingHover(setting: Setting): string | undefined {
    const d = declOf(setting);
    if (!d) return undefined;
    const shown = (v: SettingValue): string => (Array.isArray(v) ? `[${v.map(shown).join(', ')}]` : String(v));
    const parts = [
        `**setting** \`${d.name}\` — ${d.doc}`,
        `Takes ${settingTakes(d)}${d.default !== undefined ? `; default \`${shown(d.default)}\`` : ''}.`,
    ];
    if (d.suite && isModel(setting.$container)) parts.push("A suite may set it for its models; the model's own value wins.");
    return parts.join('\n\n');
}

/** A value completion offers for a setting: the value, how it is written in the spec, and the setting's doc. */
export interface SettingChoice {
    value: string;
    text: string;
    doc: string;
}

/**
 * The values a setting of this block takes, for completion: its allowed values as declared, true / false for a
 * yes-or-no one; none for any other setting.
 */
export function settingChoices(block: AstNode, name: string): SettingChoice[] {
    const spec = declsOf(block)?.decls.find(x => x.name === name);
    const values = spec?.values ?? (spec?.type === 'boolean' ? ['true', 'false'] : Object.keys(spec?.named ?? {}));
    // A value that is not a bare name is written as a string.
    return values.map(value => ({ value, text: /^[_a-zA-Z]\w*$/.test(value) ? value : JSON.stringify(value), doc: spec!.doc }));
}

/**
 * A setting's value against its declaration: type, bounds, allowed values. A value that does not fit is an error
 * on the value (the reader would otherwise fall back without a word), with the closest allowed value as a "did you
 * mean" and a quick-fix suggestion.
 */
export function checkSettingValue(setting: Setting, accept: ValidationAcceptor): void {
    const spec = declOf(setting);
    if (!spec || setting.value === undefined) return;
    const problem = settingValueProblem(spec, settingValue(setting.value));
    if (!problem) return;
    accept('error', `${setting.name}: ${problem.message}`, {
        node: setting,
        property: 'value',
        code: 'setting-value',
        data: problem.suggestion ? { suggestion: problem.suggestion } : undefined,
    });
}

const TYPE_WORDS: Record<SettingDecl['type'], string> = {
    number: 'a number',
    integer: 'a whole number',
    text: 'a text',
    boolean: 'true or false',
};

/** What is wrong with a value of a declared setting, in words, with the closest allowed value; undefined when it fits. */
function settingValueProblem(spec: SettingDecl, value: SettingValue): { message: string; suggestion?: string } | undefined {
    if (Array.isArray(value) && !spec.list) return { message: `takes one value (${describe(spec)}), not a list.` };
    for (const v of Array.isArray(value) ? value : [value]) {
        if (Array.isArray(v)) return { message: `takes ${spec.list ? 'a list of ' : ''}${describe(spec)}, not a nested list.` };
        const p = oneValueProblem(spec, v);
        if (p) return p;
    }
    return undefined;
}

function oneValueProblem(spec: SettingDecl, v: string | number | boolean): { message: string; suggestion?: string } | undefined {
    const shown = typeof v === 'string' ? `'${v}'` : String(v);
    if (spec.type === 'boolean') return typeof v === 'boolean' ? undefined : { message: `is true or false, not ${shown}.` };
    if (spec.type === 'text') {
        if (v === false && spec.off !== undefined) return undefined;
        if (typeof v !== 'string') return { message: `is ${describe(spec)}, not ${shown}.` };
        if (!spec.values || spec.values.includes(v)) return undefined;
        const hint = closest(v, spec.values) ?? sameStem(v, spec.values);
        return {
            message: `${shown} is not one of ${spec.values.join(', ')}.${hint ? ` Did you mean '${hint}'?` : ''}`,
            suggestion: hint,
        };
    }
    if (typeof v === 'string' && spec.named) {
        const names = Object.keys(spec.named);
        if (names.includes(v)) return undefined;
        const hint = closest(v, names) ?? sameStem(v, names);
        return {
            message: `is ${describe(spec)} or one of ${names.join(', ')}, not ${shown}.${hint ? ` Did you mean '${hint}'?` : ''}`,
            suggestion: hint,
        };
    }
    if (typeof v !== 'number' || (spec.type === 'integer' && !Number.isInteger(v)))
        return { message: `is ${describe(spec)}, not ${shown}.` };
    if (
        (spec.min !== undefined && v < spec.min) ||
        (spec.above !== undefined && v <= spec.above) ||
        (spec.max !== undefined && v > spec.max)
    )
        return { message: `is ${describe(spec)}, not ${shown}.` };
    return undefined;
}

/** The allowed value sharing the longest beginning (at least 4 letters) with \`v\`: 'rewiring' → 'rewire'. */
function sameStem(v: string, values: readonly string[]): string | undefined {
    const common = (a: string, b: string) => {
        let i = 0;
        while (i < a.length && i < b.length && a[i] === b[i]) i++;
        return i;
    };
    const lower = v.toLowerCase();
    const best = values.map(x => ({ x, n: common(lower, x.toLowerCase()) })).sort((a, b) => b.n - a.n)[0];
    return best && best.n >= 4 ? best.x : undefined;
}

/** What a setting takes, in words (hover, docs/language.md's tables): "a whole number of at least 1", "one of a, b". */
export function settingTakes(spec: SettingDecl): string {
    const named = spec.named
        ? ` or ${Object.entries(spec.named)
              .map(([k, n]) => `${k} (${n})`)
              .join(', ')}`
        : '';
    return spec.list ? `a list, each ${describe(spec)}${named}` : `${describe(spec)}${named}`;
}

/** "a whole number from 1 to 20", "a number in (0, 1]", "one of a, b". */
function describe(spec: SettingDecl): string {
    if (spec.values) return `one of ${spec.values.join(', ')}`;
    if (spec.off !== undefined) return `${TYPE_WORDS.text} (or false)`;
    const low = spec.above !== undefined ? `(${spec.above}` : spec.min !== undefined ? `[${spec.min}` : undefined;
    if (low && spec.max !== undefined) return `${TYPE_WORDS[spec.type]} in ${low}, ${spec.max}]`;
    if (spec.above !== undefined) return `${TYPE_WORDS[spec.type]} above ${spec.above}`;
    if (spec.min !== undefined) return `${TYPE_WORDS[spec.type]} of at least ${spec.min}`;
    if (spec.max !== undefined) return `${TYPE_WORDS[spec.type]} of at most ${spec.max}`;
    return TYPE_WORDS[spec.type];
}
