/**
 * Model declarations (spec `model` blocks, VS Code settings, `--model openai:gpt-4o-mini`) resolved into the
 * plain settings the runner uses. Nothing here reads a key: see secrets.ts.
 */
import { problem, type Problem } from '../errors.js';
import type { ModelDecl } from '../spec/model.js';
import { MODEL_SETTINGS } from './settings.js';
import type { CompletionParams, Limits, ResolvedModel } from './types.js';

export type { ResolvedModel } from './types.js';

/** Every fact about a provider, in this one table: the grammar, settings schema, costs and key rules read it. */
export interface ProviderFacts {
    /** 'http': an OpenAI-compatible endpoint; 'local': answers made in this process (replay, offline). */
    transport: 'http' | 'local';
    /** Default base URL for HTTP providers; '' when there is no useful default (Azure) or no HTTP at all. */
    baseURL: string;
    /** The environment variable that belongs to this provider; its key is bound to `keyHosts` over https. */
    keyEnv?: string;
    /** Hosts this provider's key may go to without asking (https only); '*.x' means any subdomain of x. */
    keyHosts: readonly string[];
    /** Local servers accept any key; the SDK still needs a non-empty one, so a dummy is sent. */
    needsKey: boolean;
    /** Answers cost nothing (local servers and in-process models). */
    free: boolean;
}

/** The one list of providers: adding a name here is all the grammar, schema and key rules need. */
export const PROVIDERS = {
    openai: {
        transport: 'http',
        baseURL: 'https://api.openai.com/v1',
        keyEnv: 'OPENAI_API_KEY',
        keyHosts: ['api.openai.com'],
        needsKey: true,
        free: false,
    },
    // Azure needs the resource's endpoint (…/openai/v1); there is no useful default host.
    azure: {
        transport: 'http',
        baseURL: '',
        keyEnv: 'AZURE_OPENAI_API_KEY',
        keyHosts: ['*.openai.azure.com', '*.cognitiveservices.azure.com', '*.services.ai.azure.com'],
        needsKey: true,
        free: false,
    },
    openrouter: {
        transport: 'http',
        baseURL: 'https://openrouter.ai/api/v1',
        keyEnv: 'OPENROUTER_API_KEY',
        keyHosts: ['openrouter.ai'],
        needsKey: true,
        free: false,
    },
    // Local servers get no key unless the spec names one with key_env and the user confirms it.
    ollama: { transport: 'http', baseURL: 'http://localhost:11434/v1', keyHosts: [], needsKey: false, free: true },
    vllm: { transport: 'http', baseURL: 'http://localhost:8000/v1', keyHosts: [], needsKey: false, free: true },
    lmstudio: { transport: 'http', baseURL: 'http://localhost:1234/v1', keyHosts: [], needsKey: false, free: true },
    llamacpp: { transport: 'http', baseURL: 'http://localhost:8080/v1', keyHosts: [], needsKey: false, free: true },
    replay: { transport: 'local', baseURL: '', keyHosts: [], needsKey: false, free: true },
    offline: { transport: 'local', baseURL: '', keyHosts: [], needsKey: false, free: true },
} as const satisfies Record<string, ProviderFacts>;

export type ProviderName = keyof typeof PROVIDERS;
export const PROVIDER_NAMES = Object.keys(PROVIDERS) as ProviderName[];

/** The facts for a provider name, or undefined (own keys only: "constructor" is not a provider). */
export function providerFacts(name: string): ProviderFacts | undefined {
    return Object.hasOwn(PROVIDERS, name) ? PROVIDERS[name as ProviderName] : undefined;
}

/** The HTTP provider's facts, or undefined for local and unknown providers. */
export function httpProvider(name: string): ProviderFacts | undefined {
    const facts = providerFacts(name);
    return facts?.transport === 'http' ? facts : undefined;
}

/** The provider whose own variable this is (OPENAI_API_KEY → openai), if any. */
export function providerOfKeyEnv(name: string): ProviderName | undefined {
    return PROVIDER_NAMES.find(p => (PROVIDERS[p] as ProviderFacts).keyEnv === name);
}

const DEFAULT_LIMITS: Limits = { concurrency: 8, rpm: 0, tpm: 0, timeoutMs: 60_000, retries: 4, pacing: 'endpoint' };

/** Turns a declaration into runner settings; `problems` says what is wrong and how to fix it (code `model-settings`). */
export function resolveModel(decl: ModelDecl): { model?: ResolvedModel; problems: Problem[] } {
    const s = MODEL_SETTINGS.read(decl.settings);
    const problems: Problem[] = [];
    const wrong = (message: string, remedy?: string) =>
        problems.push(problem('model-settings', `model ${decl.name}: ${message}`, remedy));
    const provider = decl.provider;
    if (!providerFacts(provider)) {
        wrong(`unknown provider "${provider}".`, `Use one of ${PROVIDER_NAMES.join(', ')}.`);
        return { problems };
    }
    const preset = httpProvider(provider);
    const endpoint = preset ? (s.endpoint ?? preset.baseURL).replace(/\/+$/, '') : '';
    if (preset && endpoint === '')
        wrong(`provider ${provider} needs an endpoint setting.`, "Give the resource's base URL as endpoint.");
    if (endpointHasUserinfo(endpoint))
        wrong('the endpoint holds a user name or password (user:pass@host).', 'Remove it and give the key with key_env.');
    const id = s.id ?? (preset ? '' : provider);
    if (preset && id === '') wrong('add an id setting naming the model, e.g. id "gpt-4o-mini".');
    if (provider === 'replay' && (s.file === undefined || s.file.every(f => f === '')))
        wrong('replay needs a file setting.', 'Name the transcript (JSONL, CSV or an ERBench .log) with file.');
    const params: CompletionParams = { temperature: s.temperature };
    if (s.max_tokens !== undefined) params.maxTokens = s.max_tokens;
    if (s.top_p !== undefined) params.topP = s.top_p;
    if (s.seed !== undefined && preset) params.seed = s.seed;
    if (s.stream) params.stream = true;
    const local = !preset;
    const limits: Limits = {
        // Local answers cost nothing to produce; the pool only bounds memory.
        concurrency: Math.max(1, s.concurrency ?? (local ? 64 : DEFAULT_LIMITS.concurrency)),
        rpm: s.rpm,
        tpm: s.tpm,
        timeoutMs: s.timeout_ms,
        retries: s.retries,
        pacing: s.pacing,
    };
    const priceIn = s.price_input;
    const priceOut = s.price_output;
    const model: ResolvedModel = {
        name: decl.name,
        provider,
        id,
        endpoint,
        params,
        samples: Math.max(1, s.samples),
        limits,
        settings: decl.settings,
    };
    const keyEnv = s.key_env ?? preset?.keyEnv;
    if (keyEnv) model.keyEnv = keyEnv;
    if (priceIn !== undefined || priceOut !== undefined) model.price = { input: priceIn, output: priceOut };
    if (s.expected_output_tokens !== undefined) model.expectedOutputTokens = s.expected_output_tokens;
    return problems.length ? { problems } : { model, problems };
}

/**
 * `--model` text: a spec model's name, `offline`, `replay:<file>[+<file>…]`, `NAME=<any of these>`, or `<provider>:<id>` (openai:gpt-4o-mini,
 * ollama:llama3.1). Returns a declaration so it resolves the same way as a spec block.
 */
export function modelFromFlag(text: string, declared: ModelDecl[]): ModelDecl | undefined {
    const found = declared.find(m => m.name === text);
    if (found) return found;
    // `NAME=<model>` names a model given on the command line (reports show NAME, e.g. gpt35=replay:a.log+b.log).
    const named = /^([A-Za-z_][\w.-]*)=(.+)$/.exec(text);
    if (named) {
        const inner = modelFromFlag(named[2]!, []);
        return inner && { ...inner, name: named[1]! };
    }
    const none = { file: '', range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } } };
    if (text === 'offline') return { name: 'offline', provider: 'offline', settings: { seed: 1 }, loc: none };
    const colon = text.indexOf(':');
    if (colon <= 0) return undefined;
    const provider = text.slice(0, colon);
    const rest = text.slice(colon + 1);
    // Several transcripts of one model (its answers and its knowledge-probe answers) join with '+'.
    if (provider === 'replay') {
        const files = rest
            .split('+')
            .map(f => f.trim())
            .filter(Boolean);
        return { name: text, provider, settings: { file: files.length > 1 ? files : rest }, loc: none };
    }
    if (!httpProvider(provider)) return undefined;
    return { name: text, provider, settings: { id: rest }, loc: none };
}

/** Whether a URL carries userinfo (user or user:password before the host): refused as an endpoint. */
export function endpointHasUserinfo(url: string): boolean {
    try {
        const u = new URL(url.trim());
        return u.username !== '' || u.password !== '';
    } catch {
        return /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*@/i.test(url.trim());
    }
}

export function hostOf(endpoint: string): string {
    try {
        return new URL(endpoint).host.toLowerCase();
    } catch {
        return '';
    }
}

/** Scheme, host and port (default ports dropped): "https://api.openai.com"; '' when not a URL. */
export function originOf(endpoint: string): string {
    try {
        const u = new URL(endpoint);
        return u.protocol === 'http:' || u.protocol === 'https:' ? `${u.protocol}//${u.host.toLowerCase()}` : '';
    } catch {
        return '';
    }
}
