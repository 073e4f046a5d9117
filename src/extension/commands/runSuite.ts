import type { Services } from '../services.js';
import { pickSpec, pickSuite, argField } from './pick.js';
import { errorText, showError } from '../context.js';
import { engine } from '../state.js';
import * as settings from '../settings.js';
import * as vscode from 'vscode';

/** HalluProbe: Run Suite — the suite's models, or the model chosen with Select Model when the suite has none. */
export async function runSuite(s: Services, arg?: unknown): Promise<void> {
    const file = await pickSpec(arg);
    if (!file) return;
    try {
        const e = await engine();
        const { spec } = await e.specView(file);
        const suite = await pickSuite(spec, file, arg);
        if (suite === null) return;
        const model = argField(arg, 'model') ?? (spec.suites.find(x => x.name === suite)?.models.length ? undefined : settings.defaultModel(vscode.Uri.file(file)));
        await s.runs.start({ file, suite, model, label: `suite ${suite ?? '(all probes)'}${model ? ` · ${model}` : ''}` });
    } catch (err) {
        showError(s.ctx, errorText(err), err);
    }
}
