/** The suite settings a run reads (src/core/run/spec-run.ts; the editor's run-mode choice). */
import type { ModelDecl, SuiteDecl } from '../spec/model.js';
import { declareSettings } from '../spec/settings.js';
import { MODEL_SETTINGS } from '../models/settings.js';

export const RUN_SUITE_SETTINGS = declareSettings('suite', {
    batch: { type: 'boolean', default: false, doc: "Send the run to the provider's Batch API (also `halluprobe run --batch`)." },
});

/** Whether the suite asks for a batch run itself (`batch true`). */
export function suiteAsksBatch(suite: SuiteDecl | undefined): boolean {
    return RUN_SUITE_SETTINGS.read(suite?.settings).batch;
}

/** How a model is shown where one is picked: its provider and, when it names one, its id. */
export function modelDescription(model: ModelDecl): string {
    const id = MODEL_SETTINGS.read(model.settings).id;
    return `${model.provider}${id ? ` · ${id}` : ''}`;
}

/**
 * The one shadowing rule of model declarations: the spec's own models, then those declared elsewhere (the editor's
 * `halluprobe.models` setting) whose names the spec does not use — a spec's declaration shadows any other of its
 * name. A suite's `models` and a run's named models (`--model`, the editor's pick) choose among these.
 */
export function availableModels(own: readonly ModelDecl[], extra: readonly ModelDecl[]): ModelDecl[] {
    const names = new Set(own.map(m => m.name));
    return [...own, ...extra.filter(m => !names.has(m.name))];
}

/**
 * The model a run asks when the person names none: the preferred one (the editor's `halluprobe.defaultModel`) when it
 * is among those available, else the only one available; else undefined (a choice to make), or the first with
 * `firstOfMany` (where one must be the default, as a Test Explorer run profile).
 */
export function defaultModel(
    available: readonly Pick<ModelDecl, 'name'>[],
    preferred: string | undefined,
    firstOfMany = false,
): string | undefined {
    if (preferred !== undefined && available.some(m => m.name === preferred)) return preferred;
    return available.length === 1 || firstOfMany ? available[0]?.name : undefined;
}

/**
 * The model named for a suite's run when the person names none: none when the suite names its own models (they are
 * asked), else the preferred one (a suite without models otherwise asks the offline simulator).
 */
export function suiteRunModel(suite: Pick<SuiteDecl, 'models'> | undefined, preferred: string | undefined): string | undefined {
    return suite?.models.length ? undefined : preferred;
}
