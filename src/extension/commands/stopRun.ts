import * as vscode from 'vscode';
import type { Services } from '../services.js';

/** HalluProbe: Stop Run — stops new calls at once; the run stays resumable. */
export function stopRun(s: Services): void {
    if (!s.runs.stop()) void vscode.window.showInformationMessage('HalluProbe: no run is active.');
}
