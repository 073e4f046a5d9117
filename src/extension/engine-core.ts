/**
 * Calls into the engine rooms (data, probes, run, store, verify, report) with the shapes engine.ts needs.
 * The store, runner and reports are required lazily: better-sqlite3 is native, and a missing prebuild must
 * become a message (see native.ts), not a failure to load the extension.
 */
import * as path from 'node:path';
import type { ModelDecl, SpecModel } from '../core/spec/model.js';
import type { LoadedData, RelationTable } from '../core/data/types.js';
import type { ChatMessage, Question } from '../core/probes/question.js';
import type { Store } from '../core/store/index.js';
import type { GraphNeighbourhood } from '../protocol/webview.js';
import type { GenerateOptions, RunOutcome, RunRequest, ReportFormat } from './engine.js';
import { countMessageTokens, modelFromFlag, domainFromData } from '../core/models/index.js';
import { loadData as loadTables, DataCache } from '../core/data/index.js';
import { format, type TemplateValue } from '../core/spec/template.js';
import { generateQuestions as generate } from '../core/probes/index.js';
import { keyValues } from '../core/probes/scope.js';

const cache = new DataCache();

export function loadData(spec: SpecModel, signal?: AbortSignal): Promise<LoadedData> {
    return loadTables(spec, cache, signal);
}

/** Collects the streamed generation up to `limit`, and says in words what was skipped and why. */
export function generateQuestions(spec: SpecModel, data: LoadedData, options: GenerateOptions): { questions: Question[]; notes: string[]; truncated: boolean } {
    const limit = options.limit ?? Number.POSITIVE_INFINITY;
    const gen = generate(spec, data, { ...options, limit: Number.isFinite(limit) ? limit + 1 : undefined });
    const questions: Question[] = [];
    for (const q of gen.questions) questions.push(q);
    const truncated = questions.length > limit;
    if (truncated) questions.length = limit;
    const notes = gen.diagnostics.map(d => `${path.basename(d.file)}:${d.range.start.line + 1}: ${d.message}`);
    for (const [probe, st] of Object.entries(gen.stats.byProbe)) {
        const skipped = [
            st.skippedNull && `${st.skippedNull} with empty values`, st.skippedViolating && `${st.skippedViolating} in FD-violating groups`,
            st.skippedDangling && `${st.skippedDangling} with dangling FKs`, st.skippedCycle && `${st.skippedCycle} on cycles`, st.skippedInvalid && `${st.skippedInvalid} invalid`,
        ].filter(Boolean);
        if (skipped.length) notes.push(`${probe}: skipped rows — ${skipped.join(', ')}.`);
    }
    return { questions, notes, truncated };
}

export function tokens(messages: ChatMessage[]): number {
    return countMessageTokens(messages);
}

type StoreModule = typeof import('../core/store/index.js');
let storeModule: StoreModule | undefined;

function openStore(db: string): Store {
    storeModule ??= require('../core/store/index.js') as StoreModule;
    return storeModule.openStore(db);
}

export function withStore<T>(db: string, fn: (store: Store) => T): T {
    const store = openStore(db);
    try { return fn(store); } finally { store.close(); }
}


/** Load, generate, prepare (models, keys, resume), run and verify — the same steps as `halluprobe run`. */
export async function runSuite(req: RunRequest): Promise<RunOutcome> {
    const { generate: generateAll, availableModels, suiteModels } = await import('./engine.js');
    const gen = await generateAll(req.file, { suite: req.suite, probe: req.probe, limit: req.limit, seed: req.seed }, req.signal);
    const spec = gen.spec;
    const wanted = req.questionIds && new Set(req.questionIds);
    const questions = wanted ? gen.questions.filter(q => wanted.has(q.id)) : gen.questions;
    if (questions.length === 0) throw new Error('no questions to ask: the selection generates none (see Preview Questions for why).');
    const declared = availableModels(spec, req.extraModels);
    const models: ModelDecl[] = suiteModels(spec, req.suite, req.model).map(name => {
        const m = modelFromFlag(name, declared);
        if (!m) throw new Error(`unknown model "${name}": declare it in the spec or in the halluprobe.models setting.`);
        return m;
    });
    const { prepareRun, startRun } = require('../core/run/index.js') as typeof import('../core/run/index.js');
    const { verifyRun } = require('../core/verify/index.js') as typeof import('../core/verify/index.js');
    const store = openStore(req.db);
    try {
        const { prepared, problems } = await prepareRun({
            store, spec: req.file, suite: req.suite ?? req.probe ?? '', questions, models,
            // A Test Explorer selection is its own run (its answers still come from the cache).
            resume: wanted ? 'new' : 'auto', secrets: req.secrets, confirmHost: req.confirmHost,
            domain: domainFromData(gen.data), baseDir: path.dirname(req.file), concurrency: req.concurrency,
            settings: { limit: req.limit, seed: req.seed, probe: req.probe, from: 'vscode' },
        });
        if (!prepared) throw new Error(problems.join(' '));
        const outcome = await startRun(store, prepared, {
            signal: req.signal,
            onProgress: p => req.onProgress({ done: p.done, total: p.total, cached: p.cached, failed: p.failed, cost: p.cost }),
        });
        if (outcome.status === 'completed') verifyRun(store, prepared.run.id, spec, gen.data);
        const results = store.loadRunResults(prepared.run.id)!;
        return { runId: prepared.run.id, status: outcome.status, results, cached: store.cachedAnswers(prepared.run.id) };
    } finally {
        store.close();
    }
}

function reportData(store: Store, runId: string) {
    const { buildReport } = require('../core/report/index.js') as typeof import('../core/report/index.js');
    const { loadOverrides } = require('../core/verify/index.js') as typeof import('../core/verify/index.js');
    const results = store.loadRunResults(runId);
    if (!results) throw new Error(`no run ${runId} in ${store.file}.`);
    return buildReport(results, loadOverrides(store.db, runId));
}

export function report(db: string, runId: string, format: ReportFormat): string {
    const { renderReport } = require('../core/report/index.js') as typeof import('../core/report/index.js');
    return withStore(db, store => renderReport(reportData(store, runId), format));
}

export function compare(db: string, a: string, b: string): string {
    const { compareRuns, renderComparison } = require('../core/report/index.js') as typeof import('../core/report/index.js');
    return withStore(db, store => renderComparison(compareRuns(reportData(store, a), reportData(store, b))));
}

const entityId = (relation: string, key: string[]) => `${relation}(${key.join(', ')})`;
/** A cell as the graph's nodes show it (as questions do: no quotes, lists joined), so ids and labels match. */
const shown = (table: RelationTable, row: number, attribute: string) => format(table.value(row, attribute) as TemplateValue);

function rowsWhere(table: RelationTable, attribute: string, value: string, limit: number): number[] {
    const out: number[] = [];
    for (let r = 0; r < table.rowCount && out.length < limit; r++) if (shown(table, r, attribute) === value) out.push(r);
    return out;
}

/**
 * The data around a graph node: for an entity, its attribute values and the entities its FKs reach (and
 * that reach it); for a value, the entities that have it. Read from the loaded tables, at most `limit`.
 */
export function neighbourhood(spec: SpecModel, data: LoadedData, node: { nodeId: string; relation?: string; label: string }, limit: number): GraphNeighbourhood {
    const out: GraphNeighbourhood = { nodeId: node.nodeId, nodes: [], edges: [] };
    const relation = spec.relations.find(r => r.name === node.relation);
    const table = relation && data.tables.get(relation.name);
    if (!relation || !table) return out;
    const value = /^[^.]+\.([^=]+)=/.exec(node.nodeId);
    if (value) {
        for (const r of rowsWhere(table, value[1]!, node.label, limit)) {
            const key = keyValues(relation, table, r);
            out.nodes.push({ id: entityId(relation.name, key), label: key.join(', '), kind: 'entity', relation: relation.name });
            out.edges.push({ from: entityId(relation.name, key), to: node.nodeId, label: value[1]! });
        }
        return out;
    }
    const key = node.label.split(', ');
    let row = -1;
    for (let r = 0; r < table.rowCount; r++) if (keyValues(relation, table, r).join(', ') === node.label) { row = r; break; }
    if (row < 0) return out;
    for (const a of relation.attributes) {
        const v = shown(table, row, a.name);
        if (v === '' || key.includes(v)) continue;
        const id = `${relation.name}.${a.name}=${v}`;
        out.nodes.push({ id, label: v, kind: 'value', relation: relation.name });
        out.edges.push({ from: node.nodeId, to: id, label: a.label ?? a.name });
    }
    for (const fk of spec.fks) {
        if (fk.from.relation === relation.name) {
            const to = spec.relations.find(r => r.name === fk.to.relation);
            const target = to && data.tables.get(to.name);
            if (!to || !target) continue;
            const v = shown(table, row, fk.from.attributes[0]!);
            for (const r of rowsWhere(target, fk.to.attributes[0]!, v, 1)) {
                const k = keyValues(to, target, r);
                out.nodes.push({ id: entityId(to.name, k), label: k.join(', '), kind: 'entity', relation: to.name });
                out.edges.push({ from: node.nodeId, to: entityId(to.name, k), label: fk.name ?? fk.id });
            }
        }
        if (fk.to.relation === relation.name) {
            const from = spec.relations.find(r => r.name === fk.from.relation);
            const source = from && data.tables.get(from.name);
            if (!from || !source) continue;
            const v = shown(table, row, fk.to.attributes[0]!);
            for (const r of rowsWhere(source, fk.from.attributes[0]!, v, limit)) {
                const k = keyValues(from, source, r);
                out.nodes.push({ id: entityId(from.name, k), label: k.join(', '), kind: 'entity', relation: from.name });
                out.edges.push({ from: entityId(from.name, k), to: node.nodeId, label: fk.name ?? fk.id });
            }
        }
    }
    return out;
}
