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
