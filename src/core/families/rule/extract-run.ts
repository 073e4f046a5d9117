/**
 * Runs the claim extraction of rule probes that set `extract_with MODEL` (extract.ts) over a verified run: one
 * JSON-mode call per answer, cached by request like every model call (the same request hash and cache table), each
 * call recorded with the run, and the triples (or why they could not be read) kept on the answer's verdict.
 */
import type { SpecModel } from '../../spec/model.js';
import type { ModelStepStore } from '../../probes/contract/model-steps.js';
import type { Verdict } from '../../verify/types.js';
import type { ModelClient } from '../../models/types.js';
import type { ResolvedModel } from '../../models/providers.js';
import { askJson, modelsOnDemand, scrubParsed, type KeyFor } from '../../run/side-call.js';
import { extractionMessages, parseTriples } from './extract.js';
import { RULE_SETTINGS } from './settings.js';
import { PROBE_SETTINGS } from '../../probes/settings.js';
import type { Problem } from '../../problem.js';

export { modelsOnDemand, type KeyFor } from '../../run/side-call.js';

export interface ExtractionOutcome {
    calls: number;
    cached: number;
    unreadable: number;
    /** Why a probe's extractor could not be used (located warnings: its claims come from the patterns). */
    problems: Problem[];
}

/** The extraction model per rule probe that asks for one. */
function extractors(spec: SpecModel): Map<string, string> {
    const out = new Map<string, string>();
    for (const p of spec.probes) {
        // `extract_with` names the claim extractor; without it the probe's model reader (`read_with`) extracts too.
        const name = RULE_SETTINGS.read(p.settings).extract_with ?? PROBE_SETTINGS.read(p.settings).read_with;
        if (p.kind === 'rule' && name !== undefined) out.set(p.name, name);
    }
    return out;
}

/**
 * Probes whose pattern reader keeps deciding, the extraction only compared: `decide_by patterns`, or a probe that
 * extracts only through its model reader (`read_with`, whose default is patterns) without `decide_by reader`.
 */
function patternsDecide(spec: SpecModel): Set<string> {
    return new Set(
        spec.probes
            .filter(p => {
                const decideBy = PROBE_SETTINGS.read(p.settings).decide_by;
                return (
                    decideBy === 'patterns' ||
                    (RULE_SETTINGS.read(p.settings).extract_with === undefined && decideBy !== 'reader')
                );
            })
            .map(p => p.name),
    );
}

export async function extractRuleClaims(
    store: ModelStepStore,
    runId: string,
    spec: SpecModel,
    keyFor: KeyFor,
    createClient: (model: ResolvedModel, key: string) => ModelClient,
    signal?: AbortSignal,
): Promise<ExtractionOutcome> {
    const outcome: ExtractionOutcome = { calls: 0, cached: 0, unreadable: 0, problems: [] };
    const byProbe = extractors(spec);
    const compareOnly = patternsDecide(spec);
    if (byProbe.size === 0) return outcome;
    const results = await store.loadRunResults(runId);
    if (!results) return outcome;
    const questions = new Map(results.questions.map(q => [q.id, q]));
    const clientFor = modelsOnDemand(
        spec,
        { setting: 'extract_with', fallback: "the rule's claims come from the patterns" },
        keyFor,
        (model, key) => ({ model, client: createClient(model, key) }),
        outcome.problems,
    );
    const updated: Verdict[] = [];
    for (const v of results.verdicts) {
        if (signal?.aborted) break;
        const q = questions.get(v.questionId);
        const name = q?.rule ? byProbe.get(q.probe) : undefined;
        if (!q?.rule || !name || !v.rationaleText.trim()) continue;
        const c = await clientFor(name, q.probe);
        if (typeof c === 'string') {
            updated.push({ ...v, extracted: { model: name, error: c } });
            continue;
        }
        const messages = extractionMessages(
            v.rationaleText,
            q.rule.premises.map(p => p.label ?? p.attribute),
        );
        let text: string;
        try {
            text = await askJson(
                store,
                c,
                messages,
                { run: runId, question: q.id, sample: v.sample, step: 'extract' },
                outcome,
                signal,
            );
        } catch (e) {
            updated.push({
                ...v,
                extracted: { model: name, error: `the call failed: ${e instanceof Error ? e.message : String(e)}` },
            });
            continue;
        }
        const triples = scrubParsed(c.client, parseTriples(text));
        if (typeof triples === 'string') outcome.unreadable++;
        const extracted: NonNullable<Verdict['extracted']> =
            typeof triples === 'string' ? { model: name, error: triples } : { model: name, triples };
        if (compareOnly.has(q.probe)) extracted.decides = false;
        updated.push({ ...v, extracted });
    }
    await store.saveVerdicts(runId, updated);
    return outcome;
}
