import * as vscode from 'vscode';
import type { Services } from '../services.js';
import { pickSpec, pickModel } from './pick.js';
import { errorText, showError } from '../context.js';
import { engine } from '../state.js';
import * as settings from '../settings.js';

/** HalluProbe: Select Model — the default model of Run Probe and of suites that name none. */
export async function selectModel(s: Services, arg?: unknown): Promise<void> {
    try {
        const file = await pickSpec(arg);
        const e = await engine();
        const spec = file ? (await e.specView(file)).spec : undefined;
        const models = e.availableModels(spec, settings.settingModels(file ? vscode.Uri.file(file) : undefined));
        const name = await pickModel(models, 'HalluProbe: default model');
        if (!name) return;
        await settings.setDefaultModel(name);
        s.testing?.refreshProfiles();
        void vscode.window.showInformationMessage(`HalluProbe: default model is now ${name}.`);
    } catch (err) {
        showError(s.ctx, errorText(err), err);
    }
}
