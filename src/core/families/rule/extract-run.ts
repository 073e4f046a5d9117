/**
 * Runs the claim extraction of rule probes that set `extract_with MODEL` (extract.ts) over a verified run: one
 * JSON-mode call per answer, cached by request like every model call (the same request hash and cache table), each
 * call recorded with the run, and the triples (or why they could not be read) kept on the answer's verdict.
 */
import type { SpecModel } from '../../spec/model.js';
import type { Store } from '../../store/index.js';
import type { Verdict } from '../../verify/types.js';
import type { ModelClient, CompletionParams } from '../../models/types.js';
import type { ResolvedModel } from '../../models/providers.js';
import { modelsOnDemand, type KeyFor } from '../../run/side-call.js';
import { requestHash } from '../../run/hash.js';
import { extractionMessages, parseTriples } from './extract.js';

export { modelsOnDemand, type KeyFor } from '../../run/side-call.js';

export interface ExtractionOutcome { calls: number; cached: number; unreadable: number; problems: string[] }

const PARAMS: CompletionParams = { temperature: 0, json: true };

/** The extraction model per rule probe that asks for one. */
function extractors(spec: SpecModel): Map<string, string> {
    const out = new Map<string, string>();
    for (const p of spec.probes) if (p.kind === 'rule' && typeof p.settings.extract_with === 'string') out.set(p.name, p.settings.extract_with);
    return out;
}


export async function extractRuleClaims(store: Store, runId: string, spec: SpecModel, keyFor: KeyFor, createClient: (model: ResolvedModel, key: string) => ModelClient, signal?: AbortSignal): Promise<ExtractionOutcome> {
    const outcome: ExtractionOutcome = { calls: 0, cached: 0, unreadable: 0, problems: [] };
    const byProbe = extractors(spec);
    if (byProbe.size === 0) return outcome;
    const results = await store.loadRunResults(runId);
    if (!results) return outcome;
    const questions = new Map(results.questions.map(q => [q.id, q]));
    const clientFor = modelsOnDemand(spec, 'extract_with', keyFor, (model, key) => ({ model, client: createClient(model, key) }), outcome.problems);
    const updated: Verdict[] = [];
    for (const v of results.verdicts) {
        if (signal?.aborted) break;
        const q = questions.get(v.questionId);
        const name = q?.rule ? byProbe.get(q.probe) : undefined;
        if (!q?.rule || !name || !v.rationaleText.trim()) continue;
        const c = await clientFor(name);
        if (typeof c === 'string') { updated.push({ ...v, extracted: { model: name, error: c } }); continue; }
        const messages = extractionMessages(v.rationaleText, q.rule.premises.map(p => p.label ?? p.attribute));
        const params = { temperature: 0, response_format: 'json_object' };
        const hash = requestHash(c.model.endpoint, c.model.id, params, messages);
        const slot = { run: runId, question: q.id, model: `extract:${name}`, sample: v.sample, hash, params };
        let text: string;
        const hit = c.client.cacheable ? await store.cached(hash) : undefined;
        if (hit) {
            text = hit.text;
            outcome.cached++;
            await store.recordSideCall({ ...slot, text, tokensIn: hit.tokensIn, tokensOut: hit.tokensOut, latencyMs: 0, cost: 0, attempts: 0, finishReason: hit.finishReason, cached: true });
        } else {
            try {
                const done = await c.client.complete({ messages, params: PARAMS, sample: 0 }, signal);
                text = done.text;
                outcome.calls++;
                if (c.client.cacheable) await store.recordSideCall({ ...slot, text, tokensIn: done.tokens.input, tokensOut: done.tokens.output, latencyMs: done.latencyMs, cost: 0, attempts: 1, finishReason: done.finishReason, cached: false });
            } catch (e) {
                updated.push({ ...v, extracted: { model: name, error: `the call failed: ${e instanceof Error ? e.message : String(e)}` } });
                continue;
            }
        }
        const triples = parseTriples(text);
        if (typeof triples === 'string') outcome.unreadable++;
        updated.push({ ...v, extracted: typeof triples === 'string' ? { model: name, error: triples } : { model: name, triples } });
    }
    await store.saveVerdicts(runId, updated);
    return outcome;
}
