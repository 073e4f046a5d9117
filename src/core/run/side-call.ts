/**
 * Calls made on the way to a verdict or a question rather than as an answer (a rule probe's claim extraction, an
 * evidence probe's judge or enriching steps, an open probe's embeddings): models named by a probe setting,
 * resolved with their keys on first use, each request cached by its hash in the store's cache like every answer,
 * and each call recorded with the run at its price (so the run's cost counts it).
 */
import type { SpecModel } from '../spec/model.js';
import type { ChatMessage, Question } from '../probes/question.js';
import type { Verdict } from '../verify/types.js';
import type { Store } from '../store/index.js';
import type { ModelStepRun } from '../probes/contract/model-steps.js';
import type { CompletionParams, ModelClient } from '../models/types.js';
import { modelFromFlag, resolveModel, type ResolvedModel } from '../models/providers.js';
import { scrubDeep } from '../models/key-scrubber.js';
import { requestHash } from './hash.js';
import { cachedCall, madeCall } from './call-record.js';
import { problemWords } from '../errors.js';

/** The key of a resolved model, as `resolveKey` gives it (the caller knows the secrets, bindings and host prompts). */
export type KeyFor = (model: ResolvedModel) => Promise<{ ok: true; key: string } | { ok: false; message: string }>;

/**
 * Declared models resolved with their keys on first use (once per name), made into what a step needs; a model that
 * cannot be used gives why, once in `problems`.
 */
export function modelsOnDemand<T>(
    spec: SpecModel,
    setting: string,
    keyFor: KeyFor,
    make: (model: ResolvedModel, key: string) => T,
    problems: string[],
): (name: string) => Promise<T | string> {
    const ready = new Map<string, T | string>();
    return async name => {
        let c = ready.get(name);
        if (c === undefined) {
            const decl = modelFromFlag(name, spec.models);
            const resolved = decl ? resolveModel(decl) : undefined;
            const key = resolved?.model ? await keyFor(resolved.model) : undefined;
            c = !decl
                ? `${setting}: unknown model "${name}"`
                : !resolved?.model
                  ? `${setting}: ${resolved!.problems.map(problemWords).join(' ')}`
                  : !key!.ok
                    ? `${setting} ${name}: ${key!.message}`
                    : make(resolved.model, key!.key);
            ready.set(name, c);
            if (typeof c === 'string') problems.push(c);
        }
        return c;
    };
}

/** A side call's model and client, as `modelsOnDemand` makes them. */
interface SideClient {
    model: ResolvedModel;
    client: ModelClient;
}

/** One answered verdict as a judge works on it: the verdict, its question, the answer's text and the judge named. */
export interface JudgedAnswer {
    v: Verdict;
    q: Question;
    response: string;
    name: string;
    /** The judge's client, resolved with its key on first use; a string says why it cannot be had. */
    client(): Promise<SideClient | string>;
    /** Notes a call that failed (once per message among the step's problems); returns the message to keep on the verdict. */
    failed(e: unknown): string;
}

/**
 * A step after verification that asks a judge about each answer (evidence: entailment; open: G-Eval): for every
 * verdict whose question names a judge (`judgeOf`), `judge` returns the verdict with the judge's reading, and the
 * verdicts are saved back. Returns problems in words.
 */
export async function judgeAnswers(
    run: ModelStepRun,
    setting: string,
    judgeOf: (q: Question) => string | undefined,
    judge: (a: JudgedAnswer) => Promise<Verdict>,
): Promise<string[]> {
    const results = await run.store.loadRunResults(run.runId);
    if (!results) return [];
    const problems: string[] = [];
    const questions = new Map(results.questions.map(q => [q.id, q]));
    const responses = new Map(results.answers.map(a => [`${a.questionId}\u0000${a.model}\u0000${a.sample}`, a.text]));
    const clientFor = modelsOnDemand(
        run.spec,
        setting,
        run.keyFor,
        (model, key) => ({ model, client: run.client(model, key) }),
        problems,
    );
    const updated: Verdict[] = [];
    for (const v of results.verdicts) {
        if (run.signal?.aborted) break;
        const q = questions.get(v.questionId);
        const name = q ? judgeOf(q) : undefined;
        if (!q || !name) continue;
        const failed = (e: unknown) => {
            const message = `the judge's call failed: ${e instanceof Error ? e.message : String(e)}`;
            if (!problems.some(p => p.endsWith(message))) problems.push(`${setting} ${name}: ${message}`);
            return message;
        };
        const response = responses.get(`${v.questionId}\u0000${v.model}\u0000${v.sample}`) ?? v.rationaleText;
        updated.push(await judge({ v, q, response, name, client: () => clientFor(name), failed }));
    }
    await run.store.saveVerdicts(run.runId, updated);
    return problems;
}

/** The parameters a side call's cache key holds (JSON mode named as the endpoint sees it). */
export function sideParams(params: CompletionParams): Record<string, unknown> {
    const out: Record<string, unknown> = { temperature: params.temperature };
    if (params.maxTokens !== undefined) out.max_tokens = params.maxTokens;
    if (params.json) out.response_format = 'json_object';
    return out;
}

/** The cache key of a side call to a chat model. */
export function sideHash(model: ResolvedModel, messages: ChatMessage[], params: CompletionParams): string {
    return requestHash(model.endpoint, model.id, sideParams(params), messages);
}

/** Where a side call is recorded: the run, the question it served (or a label for a generation step), a label per step. */
export interface SideSlot {
    run: string;
    question: string;
    sample: number;
    step: string;
}

/**
 * One chat call on the way: from the cache when it holds the request (recorded as cached, no cost), else asked and
 * recorded with its tokens and price. Throws the client's error (the caller says what the step does without it).
 */
export async function askSide(
    store: Pick<Store, 'cached' | 'recordSideCall'>,
    c: { model: ResolvedModel; client: ModelClient },
    messages: ChatMessage[],
    params: CompletionParams,
    slot: SideSlot,
    signal?: AbortSignal,
): Promise<{ text: string; cached: boolean }> {
    const hash = sideHash(c.model, messages, params);
    const base = {
        run: slot.run,
        question: slot.question,
        model: `${slot.step}:${c.model.name}`,
        sample: slot.sample,
        hash,
        params: sideParams(params),
    };
    const scrub = c.client.scrub ?? (t => t);
    // A cache entry written before the scrubber knew a form of the key loses it too.
    const stored = c.client.cacheable ? await store.cached(hash) : undefined;
    const hit = stored ? { ...stored, text: scrub(stored.text), finishReason: scrub(stored.finishReason) } : undefined;
    if (hit) {
        await store.recordSideCall({ ...base, ...cachedCall(hit) });
        return { text: hit.text, cached: true };
    }
    const done = await c.client.complete({ messages, params, sample: 0 }, signal);
    if (c.client.cacheable) {
        await store.recordSideCall({ ...base, ...madeCall(c.model, done) });
    }
    return { text: scrub(done.text), cached: false };
}

/** What was parsed out of a client's answer, every string in it scrubbed of the client's key once more. */
export function scrubParsed<T>(client: Pick<ModelClient, 'scrub'>, value: T): T {
    return client.scrub ? scrubDeep(value, client.scrub) : value;
}

/** A JSON object's string field, or why the text is not one. */
export function jsonField(text: string, field: string): string | { error: string } {
    const start = text.indexOf('{'),
        end = text.lastIndexOf('}');
    if (start < 0 || end < start) return { error: 'the answer is not a JSON object' };
    try {
        const value = (JSON.parse(text.slice(start, end + 1)) as Record<string, unknown>)[field];
        return typeof value === 'string' ? value : { error: `the JSON object has no text field "${field}"` };
    } catch {
        return { error: 'the answer is not valid JSON' };
    }
}
