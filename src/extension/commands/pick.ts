/** Shared by the commands: which spec, suite, probe or model the user means. */
import * as vscode from 'vscode';
import * as path from 'node:path';
import type { SpecModel, ModelDecl } from '../../core/spec/index.js';
import * as settings from '../settings.js';
import type { Services } from '../services.js';
import { engine, type EngineModule } from '../state.js';
import { sqliteStatus } from '../native.js';
import { modelDescription } from '../../core/run/light.js';
import { errorText, showError } from '../context.js';

/** A command argument, the active .probe editor, or a pick among the workspace's specs. */
export async function pickSpec(arg?: unknown): Promise<string | undefined> {
    if (arg instanceof vscode.Uri) return arg.fsPath;
    if (typeof arg === 'string' && arg.endsWith('.probe')) return arg;
    if (typeof arg === 'object' && arg !== null && typeof (arg as { file?: unknown }).file === 'string')
        return (arg as { file: string }).file;
    const doc = vscode.window.activeTextEditor?.document;
    if (doc?.languageId === 'probe' || doc?.fileName.endsWith('.probe')) return doc.uri.fsPath;
    const files = await vscode.workspace.findFiles('**/*.probe', '**/node_modules/**', 50);
    if (files.length === 0) {
        void vscode.window.showWarningMessage(
            'HalluProbe: no .probe spec in this workspace. Create one (see examples/movie/movie.probe) and try again.',
        );
        return undefined;
    }
    if (files.length === 1) return files[0]!.fsPath;
    const choice = await vscode.window.showQuickPick(
        files.map(f => ({ label: path.basename(f.fsPath), description: vscode.workspace.asRelativePath(f), file: f.fsPath })),
        { title: 'HalluProbe: which spec?' },
    );
    return choice?.file;
}

export function argField(arg: unknown, field: string): string | undefined {
    if (typeof arg !== 'object' || arg === null) return undefined;
    const v = (arg as Record<string, unknown>)[field];
    return typeof v === 'string' ? v : undefined;
}

/**
 * The suite to run: given, the only one, the default suite, or a pick; `power` gives a suite's power before the run
 * (the engine's words) as its row's detail.
 */
export async function pickSuite(
    spec: SpecModel,
    file: string,
    arg?: unknown,
    power?: (suite: string, signal: AbortSignal) => Promise<string | undefined>,
): Promise<string | undefined | null> {
    const given = argField(arg, 'suite');
    if (given) return given;
    if (spec.suites.length === 0) return undefined;
    if (spec.suites.length === 1) return spec.suites[0]!.name;
    const preferred = settings.defaultSuite(vscode.Uri.file(file));
    if (preferred && spec.suites.some(s => s.name === preferred)) return preferred;
    return pickWithDetails(
        spec.suites.map(s => ({ label: s.name, description: `${s.probes.join(', ')} · ${s.models.join(', ')}` })),
        'HalluProbe: run which suite?',
        power,
    );
}

/**
 * A quick pick whose rows get their detail line while it is open (`detail` is asked per row, in turn; dismissing the
 * pick stops the work): the label of the row picked, or null when dismissed.
 */
async function pickWithDetails(
    items: vscode.QuickPickItem[],
    title: string,
    detail?: (label: string, signal: AbortSignal) => Promise<string | undefined>,
): Promise<string | null> {
    const pick = vscode.window.createQuickPick<vscode.QuickPickItem>();
    const stop = new AbortController();
    pick.title = title;
    pick.items = items;
    pick.busy = detail !== undefined;
    const chosen = new Promise<string | null>(resolve => {
        pick.onDidAccept(() => {
            resolve(pick.selectedItems[0]?.label ?? null);
            pick.hide();
        });
        pick.onDidHide(() => {
            resolve(null);
            stop.abort();
            pick.dispose();
        });
    });
    pick.show();
    if (detail) {
        void (async () => {
            for (const item of items) {
                if (stop.signal.aborted) return;
                const text = await detail(item.label, stop.signal).catch(() => undefined);
                if (text === undefined || stop.signal.aborted) continue;
                item.detail = text;
                // Keep the row the user is on: setting items resets the active row.
                const active = pick.activeItems;
                pick.items = [...items];
                pick.activeItems = active;
            }
            pick.busy = false;
        })();
    }
    return chosen;
}

/** The probe under the cursor, or a pick. */
export async function pickProbe(spec: SpecModel, arg?: unknown): Promise<string | undefined> {
    const given = argField(arg, 'probe');
    if (given) return given;
    const editor = vscode.window.activeTextEditor;
    if (editor) {
        const line = editor.selection.active.line;
        const here = spec.probes.find(
            p => p.loc.file === editor.document.uri.fsPath && p.loc.range.start.line <= line && line <= p.loc.range.end.line,
        );
        if (here) return here.name;
    }
    const choice = await vscode.window.showQuickPick(
        spec.probes.map(p => ({ label: p.name, description: p.kind })),
        { title: 'HalluProbe: run which probe?' },
    );
    return choice?.label;
}

export async function pickModel(models: readonly ModelDecl[], title: string): Promise<string | undefined> {
    if (models.length === 0) {
        void vscode.window.showWarningMessage(
            'HalluProbe: no model is declared. Add a `model` block to the spec or the halluprobe.models setting.',
        );
        return undefined;
    }
    const choice = await vscode.window.showQuickPick(
        models.map(m => ({
            label: m.name,
            description: modelDescription(m),
            detail:
                m.provider === 'offline'
                    ? 'offline simulator (answers from the data; no model is called)'
                    : m.loc.file === 'settings.json'
                      ? 'from settings'
                      : path.basename(m.loc.file),
        })),
        { title },
    );
    return choice?.label;
}

/**
 * The frame of the commands that read the results store: which spec, whether SQLite loads, the engine and
 * the store path; errors become one notification.
 */
export async function withResultsStore(
    s: Services,
    arg: unknown,
    fn: (e: EngineModule, db: string, file: string) => Promise<void>,
): Promise<void> {
    const file = await pickSpec(arg);
    if (!file) return;
    const sqlite = sqliteStatus();
    if (!sqlite.ok) {
        showError(s.ctx, sqlite.message);
        return;
    }
    try {
        await fn(await engine(), settings.storePath(file), file);
    } catch (err) {
        showError(s.ctx, errorText(err), err);
    }
}
