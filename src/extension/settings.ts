/** Typed access to the `halluprobe.*` settings (declared in package.json `contributes.configuration`). */
import { defaultStorePath } from '../core/places.js';
import { isPostgresUrl } from '../core/data/light.js';
import * as vscode from 'vscode';
import * as path from 'node:path';
import type { ModelDecl, SettingValue } from '../core/spec/index.js';

/**
 * Files whose change means re-checking specs. Not `.db`: the results store is one, and each answer written
 * to it would re-validate every open spec (SQLite data sources are usually .sqlite; a .db source is re-read
 * when its spec is saved).
 */
export const DATA_GLOB = '**/*.{probe,csv,tsv,sqlite,sqlite3}';

function config(scope?: vscode.Uri): vscode.WorkspaceConfiguration {
    return vscode.workspace.getConfiguration('halluprobe', scope);
}

export function concurrency(scope?: vscode.Uri): number {
    return Math.max(1, Math.floor(config(scope).get<number>('concurrency', 4)));
}

export function defaultSuite(scope?: vscode.Uri): string | undefined {
    return config(scope).get<string>('defaultSuite') || undefined;
}

export function defaultModel(scope?: vscode.Uri): string | undefined {
    return config(scope).get<string>('defaultModel') || undefined;
}

export function previewLimit(scope?: vscode.Uri): number {
    return config(scope).get<number>('preview.limit', 100_000);
}

export function questionLimit(scope?: vscode.Uri): number {
    return config(scope).get<number>('testExplorer.questionLimit', 2000);
}

/**
 * The results store of a spec: the setting — a file (relative to the workspace folder) or a team's postgres:// URL,
 * its password saved with "HalluProbe: Set Database Password" — or `.halluprobe/results.db` beside it.
 */
export function storePath(specFile: string): string {
    const uri = vscode.Uri.file(specFile);
    const setting = config(uri).get<string>('storePath')?.trim();
    if (!setting) return defaultStorePath(specFile);
    if (isPostgresUrl(setting)) return setting;
    if (path.isAbsolute(setting)) return setting;
    const folder = vscode.workspace.getWorkspaceFolder(uri);
    return path.join(folder ? folder.uri.fsPath : path.dirname(specFile), setting);
}

/** Models declared in settings, as spec model declarations (located at the settings, not in a spec). */
export function settingModels(scope?: vscode.Uri): ModelDecl[] {
    const raw = config(scope).get<unknown[]>('models', []);
    const out: ModelDecl[] = [];
    for (const m of raw) {
        if (typeof m !== 'object' || m === null) continue;
        const { name, provider, ...rest } = m as Record<string, unknown>;
        if (typeof name !== 'string' || typeof provider !== 'string') continue;
        const settings: Record<string, SettingValue> = {};
        for (const [k, v] of Object.entries(rest))
            if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') settings[k] = v;
        out.push({
            name,
            provider,
            settings,
            loc: { file: 'settings.json', range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } } },
        });
    }
    return out;
}

export async function setDefaultModel(name: string): Promise<void> {
    await config().update('defaultModel', name, vscode.ConfigurationTarget.Workspace);
}
