import type { Services } from '../services.js';
import type { ModelDecl } from '../../core/spec/index.js';
import type { EngineModule } from '../state.js';
import { pickSpec, pickSuite, argField } from './pick.js';
import { errorText, showError } from '../context.js';
import { engine } from '../state.js';
import * as settings from '../settings.js';
import * as vscode from 'vscode';

/**
 * HalluProbe: Run Suite — the suite's models, or the model chosen with Select Model when the suite has none. The
 * suite picker says under each suite what difference its questions can detect (the engine's power before a run). When
 * every one of those models has a Batch API, the picker asks how: now, or as a batch (half price, within 24 h).
 */
export async function runSuite(s: Services, arg?: unknown): Promise<void> {
    const file = await pickSpec(arg);
    if (!file) return;
    try {
        const e = await engine();
        const { spec } = await e.specView(file);
        const suite = await pickSuite(spec, file, arg, (name, signal) => e.suitePower(file, name, signal));
        if (suite === null) return;
        const uri = vscode.Uri.file(file);
        const model =
            argField(arg, 'model') ??
            e.suiteRunModel(
                spec.suites.find(x => x.name === suite),
                settings.defaultModel(uri),
            );
        const batch = await pickRunMode(e, file, suite, model, settings.settingModels(uri), argField(arg, 'mode'));
        if (batch === null) return;
        const label = `suite ${suite ?? '(all probes)'}${model ? ` · ${model}` : ''}${batch ? ' · batch' : ''}`;
        await s.runs.start({ file, suite, model, label, batch });
    } catch (err) {
        showError(s.ctx, errorText(err), err);
    }
}

const RUN_MODES = { now: 'Ask the models now', batch: 'Send as a batch' } as const;

/**
 * How to run: undefined when there is no choice (a model without a Batch API: asked now, or as the suite says),
 * true for a batch, false for now, null when the picker was dismissed. `given` ("batch" / "now") skips the picker.
 */
async function pickRunMode(
    e: EngineModule,
    file: string,
    suite: string | undefined,
    model: string | undefined,
    extra: ModelDecl[],
    given?: string,
): Promise<boolean | undefined | null> {
    if (given === 'batch' || given === 'now') return given === 'batch';
    const offer = await e.batchOffer(file, suite, model, extra);
    if (!offer.can) return undefined;
    const items = [
        { label: RUN_MODES.now, description: 'answers as they come', batch: false },
        {
            label: RUN_MODES.batch,
            description: 'half price; the provider answers within 24 h',
            detail: 'The run waits for the results in the background (status bar, Test Explorer); closing VS Code leaves the batches running: run the suite again to collect them.',
            batch: true,
        },
    ];
    const choice = await vscode.window.showQuickPick(offer.suiteSays ? [items[1]!, items[0]!] : items, {
        title: `HalluProbe: run suite ${suite ?? '(all probes)'} how?`,
    });
    return choice ? choice.batch : null;
}
