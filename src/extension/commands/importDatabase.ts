import * as vscode from 'vscode';
import * as path from 'node:path';
import type { Services } from '../services.js';
import { engine } from '../state.js';
import { errorText, showError } from '../context.js';
import { argField } from './pick.js';
import { askDatabasePassword, askPostgresUrl, saveDatabasePassword } from './setDatabasePassword.js';
import { databaseId } from '../../core/data/light.js';

type Kind = 'sqlite' | 'csv' | 'postgres';

const KINDS: { source: Kind; label: string; detail: string }[] = [
    { source: 'sqlite', label: 'SQLite file', detail: 'tables, primary keys, unique constraints and foreign keys as declared' },
    { source: 'csv', label: 'Folder of CSV files', detail: 'types, keys and foreign keys found in the data' },
    {
        source: 'postgres',
        label: 'PostgreSQL database',
        detail: 'a postgres:// URL; the password is asked for and kept in the OS keychain (or PGPASSWORD), never in the URL',
    },
];

/** Where the database is: a picked file or folder, or a typed URL; undefined when the user cancels. */
async function pickInput(kind: Kind): Promise<string | undefined> {
    if (kind === 'postgres') {
        return askPostgresUrl(
            'No password in the URL (it is written into the spec): HalluProbe asks for it next, or run "HalluProbe: Set Database Password" later; PGPASSWORD in the environment VS Code starts with works too.',
        );
    }
    const picked = await vscode.window.showOpenDialog({
        title: kind === 'sqlite' ? 'HalluProbe: SQLite database to import' : 'HalluProbe: folder of CSV files to import',
        canSelectFiles: kind === 'sqlite',
        canSelectFolders: kind === 'csv',
        canSelectMany: false,
        defaultUri: vscode.workspace.workspaceFolders?.[0]?.uri,
        ...(kind === 'sqlite' ? { filters: { 'SQLite database': ['db', 'sqlite', 'sqlite3', 'db3'], 'Any file': ['*'] } } : {}),
    });
    return picked?.[0]?.fsPath;
}

/** The spec file to write, next to the database (or in the workspace for a URL). */
function defaultTarget(kind: Kind, input: string): vscode.Uri {
    const name =
        kind === 'postgres'
            ? (input.split('/').pop() || 'database').replace(/\?.*$/, '')
            : path.basename(input).replace(/\.\w+$/, '');
    const folder =
        kind === 'postgres' ? (vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? process.cwd()) : path.dirname(input);
    return vscode.Uri.file(path.join(folder, `${name}.probe`));
}

/**
 * HalluProbe: Import Database… — the engine's import (the same step as `halluprobe import --fds`) from a SQLite
 * file, a folder of CSV files or a PostgreSQL URL into a spec file, which is then opened. An argument
 * `{ input, out }` (a script, a test) skips the pickers.
 */
export async function importDatabase(s: Services, arg?: unknown): Promise<void> {
    const given = argField(arg, 'input'),
        out = argField(arg, 'out');
    if (given && out) return runImport(s, given, vscode.Uri.file(out));
    const choice = await vscode.window.showQuickPick(KINDS, { title: 'HalluProbe: import from' });
    if (!choice) return;
    const input = await pickInput(choice.source);
    if (!input) return;
    if (choice.source === 'postgres' && !(await offerPassword(s, input))) return;
    const target = await vscode.window.showSaveDialog({
        title: 'HalluProbe: write the spec to',
        defaultUri: defaultTarget(choice.source, input),
        filters: { 'HalluProbe spec': ['probe'] },
    });
    if (!target) return;
    return runImport(s, input, target);
}

/**
 * Before a PostgreSQL import, a database without a saved password gets the chance of one (saved like "Set
 * Database Password"); empty leaves it to PGPASSWORD / ~/.pgpass. False when the user cancels.
 */
async function offerPassword(s: Services, url: string): Promise<boolean> {
    const id = databaseId(url);
    if (id === undefined || s.passwords.get(id) !== undefined) return true;
    const password = await askDatabasePassword(url, 'use PGPASSWORD or ~/.pgpass');
    if (password === undefined) return false;
    if (password !== '') await saveDatabasePassword(s, url, password);
    return true;
}

async function runImport(s: Services, input: string, target: vscode.Uri): Promise<void> {
    try {
        const e = await engine();
        const result = await vscode.window.withProgress(
            {
                location: vscode.ProgressLocation.Notification,
                title: 'HalluProbe: importing the database and discovering its FDs',
            },
            () => e.importDatabase({ input, out: target.fsPath, fds: true }),
        );
        await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(target));
        const errors = result.diagnostics.filter(d => d.severity === 'error').length;
        // The engine's summary and advice, as the CLI prints them: declarations counted apart from commented-out ones.
        if (errors > 0)
            void vscode.window.showWarningMessage(
                `HalluProbe: imported ${result.summary.text}; the spec has ${errors} problem(s), shown in the editor.`,
            );
        else void vscode.window.showInformationMessage(`HalluProbe: imported ${result.summary.text}. ${result.advice}`);
    } catch (err) {
        // A HalluProbeError carries the located problem and its remedy in its message; nothing was written.
        showError(s.ctx, `import failed, nothing written: ${errorText(err)}`, err);
    }
}
