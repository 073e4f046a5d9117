/**
 * API keys in VS Code's SecretStorage (the OS keychain), one per provider, each bound to the host it was
 * saved for. The engine's resolveKey decides whether a key may go to a model's host; asking the user for
 * a different host is the `confirmHost` prompt below.
 */
import * as vscode from 'vscode';
import type { SavedKey, SecretSource, ConfirmHost } from '../core/models/secrets.js';

const slot = (provider: string) => `halluprobe.apiKey.${provider}`;

export class KeyStore implements SecretSource {
    constructor(private readonly storage: vscode.SecretStorage) {}

    async get(provider: string): Promise<SavedKey | undefined> {
        const raw = await this.storage.get(slot(provider));
        if (!raw) return undefined;
        try {
            const v = JSON.parse(raw) as Partial<SavedKey>;
            return typeof v.key === 'string' && typeof v.host === 'string' ? { key: v.key, host: v.host } : undefined;
        } catch {
            return undefined;
        }
    }

    async save(provider: string, key: string, host: string): Promise<void> {
        await this.storage.store(slot(provider), JSON.stringify({ key, host: host.toLowerCase() }));
    }

    async delete(provider: string): Promise<void> {
        await this.storage.delete(slot(provider));
    }
}

/** A modal question: the key goes to another host only when the user says so explicitly. */
export const confirmHost: ConfirmHost = async q => {
    const send = 'Send the key';
    const answer = await vscode.window.showWarningMessage(
        `Model ${q.model} points at ${q.host}, but the ${q.keyFrom} is for ${q.savedFor}. Send it to ${q.host}?`,
        { modal: true, detail: 'Only agree when you trust this host: a spec or workspace setting chose it.' }, send);
    return answer === send;
};
