/**
 * API keys: read from the environment or an injected SecretSource (VS Code SecretStorage), held in memory only,
 * never written to the spec, settings, the store, logs or reports. A key belongs to the host it was saved for:
 * a spec or workspace setting that points a model elsewhere gets it only with the user's explicit OK.
 */
import { hostOf, PROVIDERS, type ResolvedModel } from './providers.js';

export interface SavedKey { key: string; host: string }

/** Where saved keys live (the extension backs this with SecretStorage). Keyed by provider, e.g. "openai". */
export interface SecretSource {
    get(provider: string): Promise<SavedKey | undefined>;
}

/** Asked before a key goes to a host it was not saved for; true only on the user's explicit confirmation. */
export type ConfirmHost = (question: { model: string; keyFrom: string; savedFor: string; host: string }) => Promise<boolean>;

export type KeyResult =
    | { ok: true; key: string; from: string }
    | { ok: false; message: string };

/** Hosts the user trusts with environment keys, from the user's own environment (never from a spec). */
function trustedHosts(env: NodeJS.ProcessEnv): Set<string> {
    return new Set((env.HALLUPROBE_TRUSTED_HOSTS ?? '').split(',').map(h => h.trim().toLowerCase()).filter(Boolean));
}

export async function resolveKey(
    model: ResolvedModel, secrets: SecretSource | undefined, confirmHost: ConfirmHost,
    env: NodeJS.ProcessEnv = process.env,
): Promise<KeyResult> {
    const preset = PROVIDERS[model.provider];
    if (!preset) return { ok: true, key: '', from: 'none' };
    const host = hostOf(model.endpoint);
    const candidates: { key: string; from: string; savedFor: string }[] = [];
    const saved = await secrets?.get(model.provider);
    if (saved?.key) candidates.push({ key: saved.key, from: 'saved key', savedFor: saved.host.toLowerCase() });
    const envName = model.keyEnv;
    const envKey = envName ? env[envName] : undefined;
    // An environment key is meant for the provider's own service; trusted hosts extend that.
    if (envKey) candidates.push({ key: envKey, from: `$${envName}`, savedFor: hostOf(preset.baseURL) });
    // HALLUPROBE_TRUSTED_HOSTS extends where environment keys may go; a saved key stays bound to its own host.
    const trusted = trustedHosts(env);
    for (const c of candidates) {
        if (c.savedFor === host || (c.from.startsWith('$') && trusted.has(host))) return { ok: true, key: c.key, from: c.from };
    }
    for (const c of candidates) {
        if (await confirmHost({ model: model.name, keyFrom: c.from, savedFor: c.savedFor || '(no host)', host })) {
            return { ok: true, key: c.key, from: c.from };
        }
    }
    if (!preset.needsKey) return { ok: true, key: 'not-needed', from: 'none' };
    if (candidates.length > 0) {
        return { ok: false, message: `model ${model.name}: the key from ${candidates.map(c => c.from).join(' / ')} is for ${candidates[0]!.savedFor || 'another host'}, not ${host}; confirm sending it (--yes, or answer the prompt) or add ${host} to HALLUPROBE_TRUSTED_HOSTS.` };
    }
    return { ok: false, message: `model ${model.name}: no API key; set ${envName ?? 'the key_env variable'} in the environment (or save a key in VS Code with "HalluProbe: Set API Key").` };
}

/** Replaces every occurrence of the keys (and anything shaped like an API key) in text meant for people or files. */
export function redact(text: string, keys: readonly string[]): string {
    let out = text;
    for (const k of keys) if (k && k.length >= 4) out = out.split(k).join('[redacted]');
    return out.replace(/\b(sk|rk|pk)-[A-Za-z0-9_-]{8,}/g, '[redacted]').replace(/(Bearer\s+)[^\s"']+/gi, '$1[redacted]');
}
