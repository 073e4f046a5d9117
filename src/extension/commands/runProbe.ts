import * as vscode from 'vscode';
import type { Services } from '../services.js';
import { pickSpec, pickProbe, pickModel, argField } from './pick.js';
import { errorText, showError } from '../context.js';
import { engine } from '../state.js';
import * as settings from '../settings.js';

/** HalluProbe: Run Probe — the probe under the cursor (or picked) with the default or a picked model. */
export async function runProbe(s: Services, arg?: unknown): Promise<void> {
    const file = await pickSpec(arg);
    if (!file) return;
    try {
        const e = await engine();
        const { spec } = await e.specView(file);
        const probe = await pickProbe(spec, arg);
        if (!probe) return;
        const uri = vscode.Uri.file(file);
        const models = e.availableModels(spec, settings.settingModels(uri));
        const model =
            e.defaultModel(models, argField(arg, 'model') ?? settings.defaultModel(uri)) ??
            (await pickModel(models, `HalluProbe: run ${probe} with which model?`));
        if (!model) return;
        await s.runs.start({ file, probe, model, label: `probe ${probe} · ${model}` });
    } catch (err) {
        showError(s.ctx, errorText(err), err);
    }
}
