import * as vscode from 'vscode';
import type { Services } from '../services.js';
import { errorText, showError } from '../context.js';

/** HalluProbe: Restart Language Server — a fresh server process (diagnostics, hover, completion) without reloading the window. */
export async function restartServer(s: Services): Promise<void> {
    if (!s.server) return;
    try {
        await vscode.window.withProgress(
            { location: vscode.ProgressLocation.Window, title: 'HalluProbe: restarting the language server' },
            () => s.server!.restart(),
        );
    } catch (err) {
        showError(s.ctx, `the language server did not restart: ${errorText(err)}`, err);
    }
}
