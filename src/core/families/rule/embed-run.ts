/**
 * The paper's oracle with embeddings (issue 14, item 4): `embeddings MODEL` on a rule probe (and `similarity T`,
 * default 0.8 as in HalluVault) matches the node and edge overlap's elements — the proof's against the
 * rationale's claims — when the cosine of their embeddings is at least T, instead of exactly / by alias. Vectors
 * come from an OpenAI-compatible `/v1/embeddings` endpoint through the openai SDK; each text's vector is cached by
 * request in the store's cache (so a text is embedded once per store), and each request is recorded with the run.
 */
import type { SpecModel } from '../../spec/model.js';
import type { ModelStepRun, ModelStepStore } from '../../probes/contract/model-steps.js';
import type { Verdict } from '../../verify/types.js';
import type { ResolvedModel } from '../../models/providers.js';
import { cosine, OpenAIEmbeddingsClient } from '../../models/openai-embeddings.js';
import { requestHash } from '../../run/hash.js';
import { checkRuleAnswer, overlapElements } from './claims.js';
import { extractRuleClaims, modelsOnDemand, type KeyFor } from './extract-run.js';
import { callFailed } from '../../run/side-call.js';
import type { Problem } from '../../problem.js';
import { RULE_SETTINGS } from './settings.js';

/** After verification: the claim extraction, then the embeddings oracle (which reads the extracted claims). Returns problems to show. */
export async function ruleModelSteps({ store, runId, spec, keyFor, client, signal }: ModelStepRun): Promise<Problem[]> {
    const extraction = await extractRuleClaims(store, runId, spec, keyFor, client, signal);
    const embedding = await embedOverlaps(store, runId, spec, keyFor, signal);
    return [...extraction.problems, ...embedding];
}

/** Jaccard with one-to-one matching: pairs at or above the threshold, most similar first. */
export function similarJaccard(a: readonly number[][], b: readonly number[][], threshold: number): number {
    if (a.length === 0 && b.length === 0) return 1;
    const pairs: { i: number; j: number; s: number }[] = [];
    a.forEach((x, i) =>
        b.forEach((y, j) => {
            const s = cosine(x, y);
            if (s >= threshold) pairs.push({ i, j, s });
        }),
    );
    pairs.sort((p, q) => q.s - p.s);
    const usedA = new Set<number>(),
        usedB = new Set<number>();
    for (const p of pairs)
        if (!usedA.has(p.i) && !usedB.has(p.j)) {
            usedA.add(p.i);
            usedB.add(p.j);
        }
    const m = usedA.size;
    return m / (a.length + b.length - m);
}

function settingsOf(spec: SpecModel): Map<string, { model: string; threshold: number }> {
    const out = new Map<string, { model: string; threshold: number }>();
    for (const p of spec.probes) {
        const s = RULE_SETTINGS.read(p.settings);
        if (p.kind !== 'rule' || s.embeddings === undefined) continue;
        out.set(p.name, { model: s.embeddings, threshold: s.similarity });
    }
    return out;
}

type Vectors = (texts: string[], questionId: string) => Promise<Map<string, number[]>>;

/** Vectors for texts: from the cache, else one request for the missing ones (each recorded, each vector cached). */
function vectorSource(
    store: ModelStepStore,
    runId: string,
    model: ResolvedModel,
    client: OpenAIEmbeddingsClient,
    signal?: AbortSignal,
): Vectors {
    const params = { embedding: true };
    const hashOf = (text: string) => requestHash(model.endpoint, model.id, params, [{ role: 'user', content: text }]);
    return async (texts, questionId) => {
        const out = new Map<string, number[]>();
        const missing: string[] = [];
        for (const t of new Set(texts)) {
            const hit = await store.cached(hashOf(t));
            if (hit) out.set(t, JSON.parse(hit.text) as number[]);
            else missing.push(t);
        }
        if (missing.length === 0) return out;
        const got = await client.embed(missing, signal);
        const entries = missing.map((t, i) => ({ hash: hashOf(t), text: JSON.stringify(got.vectors[i]) }));
        missing.forEach((t, i) => out.set(t, got.vectors[i]!));
        await store.recordSideCall(
            {
                run: runId,
                question: questionId,
                model: `embed:${model.name}`,
                sample: 0,
                hash: entries[0]!.hash,
                params,
                text: '',
                tokensIn: got.tokens,
                tokensOut: 0,
                latencyMs: got.latencyMs,
                cost: 0,
                attempts: 1,
                finishReason: 'embedding',
                cached: false,
            },
            entries,
        );
        return out;
    };
}

/** The embeddings oracle as a model step: without its model, overlaps match exactly or by alias. */
const EMBED_STEP = { setting: 'embeddings', fallback: 'the overlaps match exactly or by alias' };

async function embedOverlaps(
    store: ModelStepStore,
    runId: string,
    spec: SpecModel,
    keyFor: KeyFor,
    signal?: AbortSignal,
): Promise<Problem[]> {
    const byProbe = settingsOf(spec);
    if (byProbe.size === 0) return [];
    const results = await store.loadRunResults(runId);
    if (!results) return [];
    const problems: Problem[] = [];
    const questions = new Map(results.questions.map(q => [q.id, q]));
    const sourceFor = modelsOnDemand(
        spec,
        EMBED_STEP,
        keyFor,
        (model, key) => vectorSource(store, runId, model, new OpenAIEmbeddingsClient(model, key), signal),
        problems,
    );
    const updated: Verdict[] = [];
    for (const v of results.verdicts) {
        if (signal?.aborted) break;
        const q = questions.get(v.questionId);
        const setting = q?.rule ? byProbe.get(q.probe) : undefined;
        const check = setting && q ? checkRuleAnswer(q, { ...v, similarity: undefined }) : undefined;
        if (!setting || !check || check.category === 'refused') continue;
        const base = { model: setting.model, threshold: setting.threshold };
        const source = await sourceFor(setting.model, q!.probe);
        if (typeof source === 'string') {
            updated.push({ ...v, similarity: { ...base, error: source } });
            continue;
        }
        const el = overlapElements(q!.rule!.premises, check.claims);
        try {
            const vec = await source([...el.proofNodes, ...el.saidNodes, ...el.proofEdges, ...el.saidEdges], v.questionId);
            const of = (xs: string[]) => xs.map(x => vec.get(x)!);
            updated.push({
                ...v,
                similarity: {
                    ...base,
                    nodeOverlap: similarJaccard(of(el.proofNodes), of(el.saidNodes), setting.threshold),
                    edgeOverlap: similarJaccard(of(el.proofEdges), of(el.saidEdges), setting.threshold),
                },
            });
        } catch (e) {
            const message = callFailed(spec, EMBED_STEP, problems, setting.model, q!.probe, 'the embeddings call', e);
            updated.push({ ...v, similarity: { ...base, error: message } });
        }
    }
    await store.saveVerdicts(runId, updated);
    return problems;
}
