/**
 * Calls into the engine rooms (data, probes, run, store, verify, report) with the shapes engine.ts needs.
 * The store and runner are imported lazily: better-sqlite3 is native, and a missing prebuild must become a
 * message (see native.ts), not a failure to load the extension.
 */
import * as path from 'node:path';
import type { SpecModel } from '../core/spec/model.js';
import type { LoadedData } from '../core/data/types.js';
import type { ChatMessage, Question } from '../core/probes/question.js';
import type { Store } from '../core/store/index.js';
import type { GraphNeighbourhood } from '../protocol/webview.js';
import type { GenerateOptions, RunOutcome, RunRequest, ReportFormat } from './engine.js';
import { countMessageTokens } from '../core/models/cost.js';

/** A piece of the engine that another room has not delivered yet: a clear message, not a crash. */
export class EngineUnavailable extends Error {}

export async function loadData(_spec: SpecModel, _signal?: AbortSignal): Promise<LoadedData> {
    throw new EngineUnavailable('loading data is not available in this build yet (src/core/data/index.ts loadData).');
}

export function generateQuestions(_spec: SpecModel, _data: LoadedData, _options: GenerateOptions): { questions: Question[]; notes: string[]; truncated: boolean } {
    throw new EngineUnavailable('question generation is not available in this build yet (src/core/probes/index.ts generateQuestions).');
}

export function tokens(messages: ChatMessage[]): number {
    return countMessageTokens(messages);
}

let storeModule: typeof import('../core/store/index.js') | undefined;

export function withStore<T>(db: string, fn: (store: Store) => T): T {
    storeModule ??= require('../core/store/index.js') as typeof import('../core/store/index.js');
    const store = storeModule.openStore(db);
    try { return fn(store); } finally { store.close(); }
}

export async function runSuite(_req: RunRequest): Promise<RunOutcome> {
    throw new EngineUnavailable('running is not available in this build yet (src/core/run).');
}

export function report(_db: string, _runId: string, _format: ReportFormat): string {
    throw new EngineUnavailable('reports are not available in this build yet (src/core/report).');
}

export function compare(_db: string, _a: string, _b: string): string {
    throw new EngineUnavailable('comparing runs is not available in this build yet (src/core/report).');
}

export function neighbourhood(_spec: SpecModel, _data: LoadedData, node: { nodeId: string }, _limit: number): GraphNeighbourhood {
    return { nodeId: node.nodeId, nodes: [], edges: [] };
}

export const specDir = (file: string) => path.dirname(file);
