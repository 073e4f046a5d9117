import * as vscode from 'vscode';
import * as path from 'node:path';
import type { Services } from '../services.js';
import { pickSpec } from './pick.js';
import { errorText, showError } from '../context.js';
import { engine } from '../state.js';
import * as settings from '../settings.js';
import { PreviewPanel } from '../panels/preview.js';

/** HalluProbe: Preview Questions — works in untrusted workspaces (it reads data, never calls a model). */
export async function previewQuestions(s: Services, arg?: unknown): Promise<void> {
    const file = await pickSpec(arg);
    if (!file) return;
    const panel = PreviewPanel.show(s.ctx, file);
    panel.busy(`Generating questions for ${path.basename(file)}…`);
    try {
        const gen = await vscode.window.withProgress(
            { location: vscode.ProgressLocation.Window, title: 'HalluProbe: generating questions' },
            () => s.state.generation(file),
        );
        const e = await engine();
        const models = e.availableModels(gen.spec, settings.settingModels(vscode.Uri.file(file)));
        panel.show(e.previewData(gen, models, `Questions · ${path.basename(file)}`));
    } catch (err) {
        panel.error(errorText(err));
        showError(s.ctx, errorText(err), err);
    }
}
