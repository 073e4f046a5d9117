import * as vscode from 'vscode';
import type { Services } from '../services.js';
import { KeyStore } from '../secrets.js';
import { PROVIDERS, hostOf } from '../../core/models/index.js';

/**
 * HalluProbe: Set API Key — stores a provider's key in SecretStorage (the OS keychain), bound to one host;
 * a model pointing elsewhere gets it only after an explicit confirmation. Never written to a file.
 */
export async function setApiKey(s: Services): Promise<void> {
    const providers = Object.entries(PROVIDERS).filter(([, p]) => p.transport === 'http');
    const provider = await vscode.window.showQuickPick(
        providers.map(([name, p]) => ({ label: name, description: p.baseURL })),
        { title: 'HalluProbe: API key for which provider?' },
    );
    if (!provider) return;
    const host = await vscode.window.showInputBox({
        title: `HalluProbe: ${provider.label} key — for which host?`,
        value: hostOf(provider.description ?? ''),
        prompt: 'The key is only sent to this host without asking.',
        validateInput: v => (/^[a-z0-9.-]+(:\d+)?$/i.test(v.trim()) ? undefined : 'A host name such as api.openai.com'),
    });
    if (!host) return;
    const key = await vscode.window.showInputBox({
        title: `HalluProbe: ${provider.label} key for ${host}`,
        password: true,
        ignoreFocusOut: true,
        prompt: 'Stored in the OS keychain (VS Code SecretStorage). Leave empty to delete the saved key.',
    });
    if (key === undefined) return;
    const store = new KeyStore(s.ctx.extension.secrets);
    if (key.trim() === '') {
        await store.delete(provider.label);
        void vscode.window.showInformationMessage(`HalluProbe: deleted the saved ${provider.label} key.`);
        return;
    }
    await store.save(provider.label, key.trim(), host.trim());
    void vscode.window.showInformationMessage(`HalluProbe: saved the ${provider.label} key for ${host.trim()}.`);
}
