import * as vscode from 'vscode';
import type { Services } from '../services.js';

/** The status bar item's command: where the active run is, with a way to stop it. */
export async function showRunProgress(s: Services): Promise<void> {
    const text = s.runs.describe();
    if (!text) {
        s.ctx.output.show(true);
        return;
    }
    const stop = 'Stop Run',
        log = 'Show Log';
    const choice = await vscode.window.showInformationMessage(`HalluProbe: ${text}`, stop, log);
    if (choice === stop) s.runs.stop();
    if (choice === log) s.ctx.output.show(true);
}
