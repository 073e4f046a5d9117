/**
 * Calls made on the way to a verdict or a question rather than as an answer (a rule probe's claim extraction, an
 * evidence probe's judge or enriching steps, an open probe's embeddings): models named by a probe setting,
 * resolved with their keys on first use, each request cached by its hash in the store's cache like every answer,
 * and each call recorded with the run at its price (so the run's cost counts it).
 */
import type { SpecLocation, SpecModel } from '../spec/model.js';
import type { ChatMessage, Question } from '../probes/question.js';
import type { Verdict } from '../verify/types.js';
import type { Store } from '../store/index.js';
import type { ModelStepRun } from '../probes/contract/model-steps.js';
import type { CompletionParams, ModelClient } from '../models/types.js';
import { modelFromFlag, resolveModel, type ResolvedModel } from '../models/providers.js';
import { scrubDeep } from '../models/key-scrubber.js';
import { requestHash } from './hash.js';
import { cachedCall, madeCall } from './call-record.js';
import { problemWords, warning, type Problem } from '../errors.js';

/** The key of a resolved model, as `resolveKey` gives it (the caller knows the secrets, bindings and host prompts). */
export type KeyFor = (model: ResolvedModel) => Promise<{ ok: true; key: string } | { ok: false; message: string }>;

/** A step that asks a model on the way: the probe setting that names the model, and what the step does without it. */
export interface ModelStep {
    setting: string;
    /** What happens until the model can be used, as the end of a sentence ("the pattern reader decides"). */
    fallback: string;
}

/**
 * A model step's problem, a warning (the step falls back), located where it was found: the model's declaration
 * when the model is at fault, else the probe's that names it. The remedy ends with what the step does meanwhile.
 */
function stepProblem(step: ModelStep, message: string, remedy: string | undefined, at: SpecLocation | undefined): Problem {
    const located = at && at.file ? at : undefined;
    const meanwhile = `Until then, ${step.fallback}.`;
    return warning('model-step', message, remedy ? `${remedy} ${meanwhile}` : meanwhile, located);
}

/** Where a model named by a step is declared: the spec's declaration (a `provider:id` name has none). */
function declaredAt(spec: SpecModel, name: string): SpecLocation | undefined {
    return spec.models.find(m => m.name === name)?.loc;
}

/** Where a probe is declared. */
function probeAt(spec: SpecModel, probe: string): SpecLocation | undefined {
    return spec.probes.find(p => p.name === probe)?.loc;
}

/**
 * Declared models resolved with their keys on first use (once per name), made into what a step needs; a model that
 * cannot be used gives why (the text kept on the verdict), and once a located `Problem` in `problems`.
 */
export function modelsOnDemand<T>(
    spec: SpecModel,
    step: ModelStep,
    keyFor: KeyFor,
    make: (model: ResolvedModel, key: string) => T,
    problems: Problem[],
): (name: string, probe: string) => Promise<T | string> {
    const { setting } = step;
    const ready = new Map<string, T | string>();
    return async (name, probe) => {
        const decl = modelFromFlag(name, spec.models);
        // An unknown name is the naming probe's fault: each probe that names it hears so.
        const slot = decl ? name : `${name}\u0000${probe}`;
        let c = ready.get(slot);
        if (c !== undefined) return c;
        const found: Problem[] = [];
        if (!decl) {
            const declared = spec.models.map(m => m.name);
            found.push(
                stepProblem(
                    step,
                    `${setting}: unknown model "${name}"`,
                    `Declare model ${name} with its endpoint and key_env, or name a declared model${declared.length ? ` (${declared.join(', ')})` : ''} in probe ${probe}'s ${setting}.`,
                    probeAt(spec, probe),
                ),
            );
        } else {
            const at = declaredAt(spec, name) ?? probeAt(spec, probe);
            const resolved = resolveModel(decl);
            const key = resolved.model ? await keyFor(resolved.model) : undefined;
            if (!resolved.model) {
                c = `${setting}: ${resolved.problems.map(problemWords).join(' ')}`;
                found.push(
                    ...resolved.problems.map(p =>
                        stepProblem(step, `${setting}: ${p.message}`, p.remedy ?? `Mend model ${name}'s settings.`, at),
                    ),
                );
            } else if (key && !key.ok) {
                c = `${setting} ${name}: ${key.message}`;
                // The key's message says how to give it.
                found.push(stepProblem(step, c, undefined, at));
            } else c = make(resolved.model, key!.ok ? key!.key : '');
        }
        if (c === undefined) c = found.map(p => p.message).join(' ');
        problems.push(...found);
        ready.set(slot, c);
        return c;
    };
}

/**
 * A step's call to model `name` failed: a located problem, once per message among `problems` (many answers share
 * one outage). Returns the message to keep on the verdict.
 */
export function callFailed(
    spec: SpecModel,
    step: ModelStep,
    problems: Problem[],
    name: string,
    probe: string,
    what: string,
    e: unknown,
): string {
    const message = `${what} failed: ${e instanceof Error ? e.message : String(e)}`;
    const full = `${step.setting} ${name}: ${message}`;
    if (!problems.some(p => p.message === full))
        problems.push(
            stepProblem(
                step,
                full,
                `Check that model ${name}'s endpoint is up and serves it, then report the run again (calls already made come from the cache).`,
                declaredAt(spec, name) ?? probeAt(spec, probe),
            ),
        );
    return message;
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
 * verdicts are saved back. Returns its problems, located.
 */
export async function judgeAnswers(
    run: ModelStepRun,
    step: ModelStep,
    judgeOf: (q: Question) => string | undefined,
    judge: (a: JudgedAnswer) => Promise<Verdict>,
): Promise<Problem[]> {
    const results = await run.store.loadRunResults(run.runId);
    if (!results) return [];
    const problems: Problem[] = [];
    const questions = new Map(results.questions.map(q => [q.id, q]));
    const responses = new Map(results.answers.map(a => [`${a.questionId}\u0000${a.model}\u0000${a.sample}`, a.text]));
    const clientFor = modelsOnDemand(
        run.spec,
        step,
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
        const failed = (e: unknown) => callFailed(run.spec, step, problems, name, q.probe, "the judge's call", e);
        const response = responses.get(`${v.questionId}\u0000${v.model}\u0000${v.sample}`) ?? v.rationaleText;
        updated.push(await judge({ v, q, response, name, client: () => clientFor(name, q.probe), failed }));
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

/** A JSON-mode side call at temperature 0 (a reading, an extraction), counted in `tally` as made or from the cache. */
export async function askJson(
    store: Pick<Store, 'cached' | 'recordSideCall'>,
    c: { model: ResolvedModel; client: ModelClient },
    messages: ChatMessage[],
    slot: SideSlot,
    tally: { calls: number; cached: number },
    signal?: AbortSignal,
): Promise<string> {
    const answered = await askSide(store, c, messages, { temperature: 0, json: true }, slot, signal);
    if (answered.cached) tally.cached++;
    else tally.calls++;
    return answered.text;
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
