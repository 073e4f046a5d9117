import * as vscode from 'vscode';
import * as path from 'node:path';
import type { Services } from '../services.js';
import { argField } from './pick.js';
import { databaseId, isPostgresUrl, passwordInUrl, safeUrl } from '../../core/data/light.js';
import * as settings from '../settings.js';
import { errorText, showError } from '../context.js';
import { engine } from '../state.js';

/** Why a typed URL cannot be used, or undefined. */
function postgresUrlProblem(value: string): string | undefined {
    const v = value.trim();
    if (!/^postgres(ql)?:\/\//i.test(v) || databaseId(v) === undefined) return 'A URL such as postgres://user@localhost:5432/db';
    if (passwordInUrl(v))
        return 'Remove the password from the URL (it is written into the spec); HalluProbe asks for it separately';
    return undefined;
}

/** Asks for a postgres URL in an input box; undefined when the user cancels. */
export async function askPostgresUrl(prompt: string): Promise<string | undefined> {
    const url = await vscode.window.showInputBox({
        title: 'HalluProbe: PostgreSQL URL',
        placeHolder: 'postgres://user@localhost:5432/database',
        ignoreFocusOut: true,
        prompt,
        validateInput: postgresUrlProblem,
    });
    return url?.trim();
}

/**
 * The postgres URLs of the open specs (as the engine reads them, unsaved text included), each with its spec, and
 * the results store's when the halluprobe.storePath setting names a server.
 */
async function openDatabaseUrls(): Promise<{ url: string; file: string }[]> {
    const e = await engine();
    const found = new Map<string, string>();
    for (const doc of vscode.workspace.textDocuments.filter(d => d.languageId === 'probe')) {
        const view = await e.specView(doc.uri.fsPath, new Map([[doc.uri.fsPath, doc.getText()]])).catch(() => undefined);
        for (const source of view?.spec.sources ?? [])
            if (source.format === 'postgres' && !found.has(source.path)) found.set(source.path, doc.uri.fsPath);
        const store = settings.storePath(doc.uri.fsPath);
        if (isPostgresUrl(store) && !found.has(store)) found.set(store, 'results store');
    }
    return [...found].map(([url, file]) => ({ url, file }));
}

/** A URL of the open specs, or a typed one; undefined when the user cancels. */
async function pickDatabaseUrl(s: Services): Promise<string | undefined> {
    const urls = (await openDatabaseUrls()).filter(u => databaseId(u.url) !== undefined && !passwordInUrl(u.url));
    const prompt = 'The database whose password to save (no password in the URL).';
    if (urls.length === 0) return askPostgresUrl(prompt);
    const typed = { label: 'Another database…', description: 'type a postgres:// URL', url: undefined as string | undefined };
    const choice = await vscode.window.showQuickPick(
        [
            ...urls.map(u => ({
                label: safeUrl(u.url),
                description: `${path.basename(u.file)}${s.passwords.get(databaseId(u.url)!) !== undefined ? ' · password saved' : ''}`,
                url: u.url as string | undefined,
            })),
            typed,
        ],
        { title: 'HalluProbe: set the password of which database?' },
    );
    if (!choice) return undefined;
    return choice.url ?? askPostgresUrl(prompt);
}

/** Asks for a database password (hidden); undefined when the user cancels, '' when the field is left empty. */
export function askDatabasePassword(url: string, emptyMeans: string): Thenable<string | undefined> {
    return vscode.window.showInputBox({
        title: `HalluProbe: password for ${safeUrl(url)}`,
        password: true,
        ignoreFocusOut: true,
        prompt: `Stored in the OS keychain (VS Code SecretStorage), never in the spec. Leave empty to ${emptyMeans}.`,
    });
}

/**
 * Saves (or, when empty, deletes) a database's password and passes it on: the engine in this host reads the
 * store directly; the language server is told; cached previews are dropped. Saving is an explicit "connect to
 * this database", so the URL is also allowed in this workspace's source gate.
 */
export async function saveDatabasePassword(s: Services, url: string, password: string): Promise<void> {
    const id = databaseId(url);
    if (id === undefined) throw new Error(`${safeUrl(url)} is not a postgres:// URL`);
    // The password is in memory as soon as set() is called; the server and the previews use it at once, while it is
    // still being written to SecretStorage (which may be slow, or fail: then it holds for this session only).
    const persisted = s.passwords.set(id, password);
    s.server?.sendDatabasePasswords();
    s.state.invalidate();
    if (password !== '') await s.state.sources.allow([url]);
    await persisted;
}

/**
 * HalluProbe: Set Database Password — a PostgreSQL source's password in SecretStorage, keyed by its database
 * (user@host:port/database). `{ url, password }` (a script, a test) skips the pickers.
 */
export async function setDatabasePassword(s: Services, arg?: unknown): Promise<void> {
    const url = argField(arg, 'url')?.trim() ?? (await pickDatabaseUrl(s));
    if (!url) return;
    const problem = postgresUrlProblem(url);
    if (problem) {
        showError(s.ctx, `${safeUrl(url)}: ${problem}`);
        return;
    }
    const password = argField(arg, 'password') ?? (await askDatabasePassword(url, 'delete the saved password'));
    if (password === undefined) return;
    try {
        await saveDatabasePassword(s, url, password);
    } catch (err) {
        showError(s.ctx, `could not save the password: ${errorText(err)}`, err);
        return;
    }
    void vscode.window.showInformationMessage(
        password === ''
            ? `HalluProbe: deleted the saved password for ${safeUrl(url)}.`
            : `HalluProbe: saved the password for ${safeUrl(url)}; specs reading it are checked again.`,
    );
}
