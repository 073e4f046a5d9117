/** Models: one entry point that turns a resolved model declaration into a client. */
import * as path from 'node:path';
import { OfflineClient, offlineRates, type DomainFn } from './offline.js';
import { OpenAIChatClient } from './openai-client.js';
import type { ResolvedModel } from './providers.js';
import { ReplayClient } from './replay.js';
import { MODEL_SETTINGS } from './settings.js';
import type { ModelClient } from './types.js';

export * from './types.js';
export * from './providers.js';
export * from './secrets.js';
export { fileKeyBindings } from './bindings.js';
export * from './cost.js';
export { parseErbenchLog } from './erbench-log.js';
export { domainFromData, type DomainFn } from './offline.js';
export { ReplayClient } from './replay.js';
export interface ClientOptions {
    /** The key from resolveKey (held in memory only). */
    key?: string;
    /** Other values of an attribute, for the offline simulator's contradictions. */
    domain?: DomainFn;
    /** Relative replay files are resolved against this folder (the spec's). */
    baseDir?: string;
}

export function createClient(model: ResolvedModel, options: ClientOptions = {}): ModelClient {
    if (model.provider === 'offline') return new OfflineClient(model.name, offlineRates(model.settings), options.domain);
    if (model.provider === 'replay') {
        // `file` may list several transcripts (e.g. an ERBench answer log and its knowledge-probe log).
        const settings = MODEL_SETTINGS.read(model.settings);
        const files = (settings.file ?? []).map(f => path.resolve(options.baseDir ?? process.cwd(), f));
        return ReplayClient.fromFiles(model.name, files, settings.format);
    }
    return new OpenAIChatClient(model, options.key ?? '');
}
