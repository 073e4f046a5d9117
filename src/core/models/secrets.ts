/**
 * API keys: read from the environment or an injected SecretSource (VS Code SecretStorage), held in memory only,
 * never written to the spec, settings, the store, logs or reports.
 *
 * The binding rule (docs/models.md): a key is bound to an origin — scheme and host.
 *  - A provider's own variable (OPENAI_API_KEY, OPENROUTER_API_KEY, …) is bound to that provider's hosts over
 *    https, whichever model names it: OPENAI_API_KEY never goes to openrouter.ai or to http://api.openai.com
 *    without asking.
 *  - A custom `key_env` variable and a saved key are bound to the origin they were first confirmed (or saved) for.
 *  - Local servers (ollama, vllm, …) get no key unless the spec names one with key_env and the user confirms it.
 * Any other origin needs an explicit confirmation (prompt, --yes, or HALLUPROBE_TRUSTED_HOSTS) every time the
 * binding is new.
 */
import { keyScrubber } from './key-scrubber.js';
import { httpProvider, originOf, providerOfKeyEnv, PROVIDERS, type ProviderFacts, type ResolvedModel } from './providers.js';

export interface SavedKey {
    key: string;
    host: string;
}

/** Where saved keys live (the extension backs this with SecretStorage). Keyed by provider, e.g. "openai". */
export interface SecretSource {
    get(provider: string): Promise<SavedKey | undefined>;
}

/** Remembers the origin a custom key variable was first confirmed for (names and origins only, never keys). */
export interface KeyBindings {
    get(source: string): string | undefined;
    set(source: string, origin: string): void;
}

/** Asked before a key goes to an origin it is not bound to; true only on the user's explicit confirmation. */
export type ConfirmHost = (question: { model: string; keyFrom: string; savedFor: string; host: string }) => Promise<boolean>;

export type KeyResult = { ok: true; key: string; from: string } | { ok: false; message: string };

interface Candidate {
    key: string;
    from: string;
    /** Origins (or https '*.suffix' patterns) the key may go to without asking. */
    boundTo: string[];
    /** A custom variable whose first confirmed origin becomes its binding. */
    remember?: string;
}

/**
 * Origins the user trusts with environment keys, from the user's own environment (never from a spec).
 * "host[:port]" means https only; write "http://host:port" to trust plain HTTP.
 */
function trustedOrigins(env: NodeJS.ProcessEnv): Set<string> {
    const entries = (env.HALLUPROBE_TRUSTED_HOSTS ?? '')
        .split(',')
        .map(h => h.trim())
        .filter(Boolean);
    return new Set(entries.map(h => originOf(h.includes('://') ? h : `https://${h}`)).filter(Boolean));
}

/** Whether `origin` is one of `bound` ("https://host" exactly, or "https://*.suffix"). */
function originBound(origin: string, bound: readonly string[]): boolean {
    return bound.some(b => {
        if (!b.includes('*.')) return b === origin;
        const [scheme, pattern] = b.split('//*');
        return origin.startsWith(`${scheme}//`) && origin.endsWith(pattern!) && !origin.includes('@');
    });
}

function providerOrigins(facts: ProviderFacts): string[] {
    return facts.keyHosts.map(h => `https://${h}`);
}

function savedOrigin(host: string): string {
    return originOf(host.includes('://') ? host : `https://${host}`);
}

function candidates(
    model: ResolvedModel,
    saved: SavedKey | undefined,
    env: NodeJS.ProcessEnv,
    bindings?: KeyBindings,
): Candidate[] {
    const out: Candidate[] = [];
    if (saved?.key) out.push({ key: saved.key, from: 'saved key', boundTo: [savedOrigin(saved.host)].filter(Boolean) });
    const envName = model.keyEnv;
    const envKey = envName ? env[envName] : undefined;
    if (!envName || !envKey) return out;
    const owner = providerOfKeyEnv(envName);
    if (owner) out.push({ key: envKey, from: `$${envName}`, boundTo: providerOrigins(PROVIDERS[owner]) });
    else {
        const first = bindings?.get(`$${envName}`);
        out.push({
            key: envKey,
            from: `$${envName}`,
            boundTo: first ? [first] : [],
            remember: first ? undefined : `$${envName}`,
        });
    }
    return out;
}

export async function resolveKey(
    model: ResolvedModel,
    secrets: SecretSource | undefined,
    confirmHost: ConfirmHost,
    env: NodeJS.ProcessEnv = process.env,
    bindings?: KeyBindings,
): Promise<KeyResult> {
    const facts = httpProvider(model.provider);
    if (!facts) return { ok: true, key: '', from: 'none' };
    const target = originOf(model.endpoint);
    const found = candidates(model, await secrets?.get(model.provider), env, bindings);
    // HALLUPROBE_TRUSTED_HOSTS extends where environment keys may go; a saved key stays bound to its own origin.
    const trusted = trustedOrigins(env);
    for (const c of found) {
        if (originBound(target, c.boundTo) || (c.from.startsWith('$') && trusted.has(target)))
            return { ok: true, key: c.key, from: c.from };
    }
    for (const c of found) {
        const savedFor = c.boundTo.join(' or ') || '(no origin yet)';
        if (target && (await confirmHost({ model: model.name, keyFrom: c.from, savedFor, host: target }))) {
            if (c.remember) bindings?.set(c.remember, target);
            return { ok: true, key: c.key, from: c.from };
        }
    }
    if (!facts.needsKey) return { ok: true, key: 'not-needed', from: 'none' };
    if (found.length > 0) {
        return {
            ok: false,
            message: `model ${model.name}: the key from ${found.map(c => c.from).join(' / ')} is bound to ${found[0]!.boundTo.join(' or ') || 'no origin yet'}, not ${target || model.endpoint}; confirm sending it (--yes, or answer the prompt) or add ${target} to HALLUPROBE_TRUSTED_HOSTS.`,
        };
    }
    // A key-needing provider pointed at a server on this machine or the local network: it is most likely a local
    // server, which the keyless providers reach without any key.
    const local = localHost(target || model.endpoint)
        ? ` ${target || model.endpoint} looks like a local server: declare the model with a keyless local provider (${KEYLESS_LOCAL.join(', ')}) instead of ${model.provider}, and no key is needed.`
        : '';
    return {
        ok: false,
        message: `model ${model.name}: no API key; set ${model.keyEnv ?? 'the key_env variable'} in the environment (or save a key in VS Code with "HalluProbe: Set API Key").${local}`,
    };
}

/** The providers for a server of one's own that need no key. */
const KEYLESS_LOCAL = ['vllm', 'ollama', 'lmstudio', 'llamacpp'];

/** localhost, a loopback or private-network address: a server of the user's own, not a hosted API. */
function localHost(endpoint: string): boolean {
    let host: string;
    try {
        host = new URL(endpoint).hostname.replace(/^\[|\]$/g, '');
    } catch {
        return false;
    }
    return (
        host === 'localhost' ||
        host.endsWith('.localhost') ||
        host.endsWith('.local') ||
        host === '::1' ||
        /^127\./.test(host) ||
        /^10\./.test(host) ||
        /^192\.168\./.test(host) ||
        /^172\.(1[6-9]|2\d|3[01])\./.test(host) ||
        host === '0.0.0.0'
    );
}

/** Replaces every occurrence of the keys (and anything shaped like an API key) in text meant for people or files. */
export function redact(text: string, keys: readonly string[]): string {
    let out = text;
    for (const k of keys) out = keyScrubber(k)(out);
    return out
        .replace(/\b(sk|rk|pk)-[A-Za-z0-9_-]{8,}/g, '[redacted]')
        .replace(/(Bearer\s+)[^\s"'\\]+/gi, '$1[redacted]')
        .replace(/(Basic\s+)[A-Za-z0-9+/=_-]{8,}/gi, '$1[redacted]');
}

export { keyScrubber } from './key-scrubber.js';
