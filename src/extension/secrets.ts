/**
 * API keys in VS Code's SecretStorage (the OS keychain), one per provider, each bound to the host it was
 * saved for. The engine's resolveKey decides whether a key may go to a model's host; asking the user for
 * a different host is the `confirmHost` prompt below.
 */
import * as vscode from 'vscode';
import type { SavedKey, SecretSource, ConfirmHost } from '../core/models/index.js';

const storageKey = (provider: string) => `halluprobe.apiKey.${provider}`;

export class KeyStore implements SecretSource {
    constructor(private readonly storage: vscode.SecretStorage) {}

    async get(provider: string): Promise<SavedKey | undefined> {
        const raw = await this.storage.get(storageKey(provider));
        if (!raw) return undefined;
        try {
            const v = JSON.parse(raw) as Partial<SavedKey>;
            return typeof v.key === 'string' && typeof v.host === 'string' ? { key: v.key, host: v.host } : undefined;
        } catch {
            return undefined;
        }
    }

    async save(provider: string, key: string, host: string): Promise<void> {
        await this.storage.store(storageKey(provider), JSON.stringify({ key, host: host.toLowerCase() }));
    }

    async delete(provider: string): Promise<void> {
        await this.storage.delete(storageKey(provider));
    }
}

/** A modal question: the key goes to another host only when the user says so explicitly. */
export const confirmHost: ConfirmHost = async q => {
    const send = 'Send the key';
    const answer = await vscode.window.showWarningMessage(
        `Model ${q.model} points at ${q.host}, but the ${q.keyFrom} is for ${q.savedFor}. Send it to ${q.host}?`,
        { modal: true, detail: 'Only agree when you trust this host: a spec or workspace setting chose it.' },
        send,
    );
    return answer === send;
};

const passwordSlot = (databaseId: string) => `halluprobe.databasePassword.${databaseId}`;
/** The ids of the databases with a saved password (SecretStorage cannot list its keys); never a password. */
const PASSWORD_IDS = 'halluprobe.databasePasswordIds';

/**
 * Database passwords in SecretStorage, one per database id (`user@host:port/database`, see `databaseId`). The
 * ids live in globalState so the passwords can be loaded at activation; the passwords are kept in memory for
 * the engine's registry and the language server, and written nowhere else.
 */
export class DatabasePasswords {
    private readonly known = new Map<string, string>();

    constructor(
        private readonly storage: vscode.SecretStorage,
        private readonly memory: vscode.Memento,
    ) {}

    /** Reads every saved password into memory (ids whose secret is gone are dropped from the list). */
    async load(): Promise<void> {
        const ids = this.memory.get<string[]>(PASSWORD_IDS) ?? [];
        for (const id of ids) {
            const password = await this.storage.get(passwordSlot(id));
            if (password !== undefined) this.known.set(id, password);
        }
        if (this.known.size !== ids.length) await this.memory.update(PASSWORD_IDS, [...this.known.keys()]);
    }

    readonly get = (databaseId: string): string | undefined => this.known.get(databaseId);

    /** Every saved password by database id, for the language server. */
    all(): Record<string, string> {
        return Object.fromEntries(this.known);
    }

    /** Saves a password for a database; an empty one deletes the saved password. Memory changes before the first await. */
    async set(databaseId: string, password: string): Promise<void> {
        if (password === '') this.known.delete(databaseId);
        else this.known.set(databaseId, password);
        if (password === '') await this.storage.delete(passwordSlot(databaseId));
        else await this.storage.store(passwordSlot(databaseId), password);
        await this.memory.update(PASSWORD_IDS, [...this.known.keys()]);
    }
}
