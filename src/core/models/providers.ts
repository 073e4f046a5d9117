/**
 * Model declarations (spec `model` blocks, VS Code settings, `--model openai:gpt-4o-mini`) resolved into the
 * plain settings the runner uses. Nothing here reads a key: see secrets.ts.
 */
import type { ModelDecl, Settings, SettingValue } from '../spec/model.js';
import type { CompletionParams } from './types.js';

export interface ProviderPreset {
    baseURL: string;
    /** The environment variable holding the key when the model does not name one with `key_env`. */
    keyEnv?: string;
    /** Local servers accept any key; the SDK still needs a non-empty one. */
    needsKey: boolean;
}

export const PROVIDERS: Record<string, ProviderPreset> = {
    openai: { baseURL: 'https://api.openai.com/v1', keyEnv: 'OPENAI_API_KEY', needsKey: true },
    // Azure needs the resource's endpoint (…/openai/v1); there is no useful default host.
    azure: { baseURL: '', keyEnv: 'AZURE_OPENAI_API_KEY', needsKey: true },
    openrouter: { baseURL: 'https://openrouter.ai/api/v1', keyEnv: 'OPENROUTER_API_KEY', needsKey: true },
    ollama: { baseURL: 'http://localhost:11434/v1', needsKey: false },
    vllm: { baseURL: 'http://localhost:8000/v1', keyEnv: 'VLLM_API_KEY', needsKey: false },
    lmstudio: { baseURL: 'http://localhost:1234/v1', needsKey: false },
    llamacpp: { baseURL: 'http://localhost:8080/v1', needsKey: false },
};

export const LOCAL_PROVIDERS = new Set(['replay', 'offline']);

export interface Limits {
    concurrency: number;
    /** Requests per minute; 0 = no limit. */
    rpm: number;
    /** Tokens per minute (input + expected output); 0 = no limit. */
    tpm: number;
    timeoutMs: number;
    /** Attempts after the first. */
    retries: number;
}

export interface ResolvedModel {
    /** The name results are stored under: the spec's model name or the `--model` text. */
    name: string;
    provider: string;
    /** The model id sent to the endpoint (`gpt-4o-mini`). */
    id: string;
    /** Base URL for HTTP providers; '' for replay / offline. */
    endpoint: string;
    params: CompletionParams;
    samples: number;
    limits: Limits;
    keyEnv?: string;
    /** Per 1M tokens, from the model's settings; undefined → the price table. */
    price?: { input?: number; output?: number };
    /** Expected output tokens per answer for estimates when the cache has none. */
    expectedOutputTokens?: number;
    settings: Settings;
}

export const DEFAULT_LIMITS: Limits = { concurrency: 8, rpm: 0, tpm: 0, timeoutMs: 60_000, retries: 4 };

function num(s: Settings, name: string): number | undefined {
    const v = s[name];
    if (typeof v === 'number') return v;
    if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
    return undefined;
}

function str(s: Settings, name: string): string | undefined {
    const v: SettingValue | undefined = s[name];
    return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined;
}

/** Turns a declaration into runner settings; `problems` says what is wrong and how to fix it. */
export function resolveModel(decl: ModelDecl): { model?: ResolvedModel; problems: string[] } {
    const s = decl.settings;
    const problems: string[] = [];
    const provider = decl.provider;
    const preset = PROVIDERS[provider];
    if (!preset && !LOCAL_PROVIDERS.has(provider)) {
        return { problems: [`model ${decl.name}: unknown provider "${provider}"; use one of ${[...Object.keys(PROVIDERS), ...LOCAL_PROVIDERS].join(', ')}.`] };
    }
    const endpoint = preset ? (str(s, 'endpoint') ?? preset.baseURL).replace(/\/+$/, '') : '';
    if (preset && endpoint === '') problems.push(`model ${decl.name}: provider ${provider} needs an endpoint setting (the resource's base URL).`);
    const id = str(s, 'id') ?? (preset ? '' : provider);
    if (preset && id === '') problems.push(`model ${decl.name}: add an id setting naming the model, e.g. id "gpt-4o-mini".`);
    if (provider === 'replay' && (s.file === undefined || s.file === '')) problems.push(`model ${decl.name}: replay needs a file setting (JSONL, CSV or an ERBench .log).`);
    const stream = s.stream === true || s.stream === 'true';
    const maxTokens = num(s, 'max_tokens');
    const seed = num(s, 'seed');
    const params: CompletionParams = { temperature: num(s, 'temperature') ?? 0 };
    if (maxTokens !== undefined) params.maxTokens = maxTokens;
    if (seed !== undefined && preset) params.seed = seed;
    if (stream) params.stream = true;
    const local = !preset;
    const limits: Limits = {
        // Local answers cost nothing to produce; the pool only bounds memory.
        concurrency: Math.max(1, Math.floor(num(s, 'concurrency') ?? (local ? 64 : DEFAULT_LIMITS.concurrency))),
        rpm: num(s, 'rpm') ?? 0,
        tpm: num(s, 'tpm') ?? 0,
        timeoutMs: num(s, 'timeout_ms') ?? DEFAULT_LIMITS.timeoutMs,
        retries: num(s, 'retries') ?? DEFAULT_LIMITS.retries,
    };
    const priceIn = num(s, 'price_input');
    const priceOut = num(s, 'price_output');
    const model: ResolvedModel = {
        name: decl.name, provider, id, endpoint, params,
        samples: Math.max(1, Math.floor(num(s, 'samples') ?? 1)), limits, settings: s,
    };
    const keyEnv = str(s, 'key_env') ?? preset?.keyEnv;
    if (keyEnv) model.keyEnv = keyEnv;
    if (priceIn !== undefined || priceOut !== undefined) model.price = { input: priceIn, output: priceOut };
    const expected = num(s, 'expected_output_tokens');
    if (expected !== undefined) model.expectedOutputTokens = expected;
    return problems.length ? { problems } : { model, problems };
}

/**
 * `--model` text: a spec model's name, `offline`, `replay:<file>`, or `<provider>:<id>` (openai:gpt-4o-mini,
 * ollama:llama3.1). Returns a declaration so it resolves the same way as a spec block.
 */
export function modelFromFlag(text: string, declared: ModelDecl[]): ModelDecl | undefined {
    const found = declared.find(m => m.name === text);
    if (found) return found;
    const none = { file: '', range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } } };
    if (text === 'offline') return { name: 'offline', provider: 'offline', settings: { seed: 1 }, loc: none };
    const colon = text.indexOf(':');
    if (colon <= 0) return undefined;
    const provider = text.slice(0, colon);
    const rest = text.slice(colon + 1);
    if (provider === 'replay') return { name: text, provider, settings: { file: rest }, loc: none };
    if (!PROVIDERS[provider]) return undefined;
    return { name: text, provider, settings: { id: rest }, loc: none };
}

export function hostOf(endpoint: string): string {
    try { return new URL(endpoint).host.toLowerCase(); } catch { return ''; }
}
