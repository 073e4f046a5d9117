/**
 * Model outputs that question generation reads (`ModelAids`, probes/contract/core.ts): an evidence probe's enriching steps
 * (`enrich_with`), an open probe's question-aware prizes (`embeddings`). Generation stays synchronous and
 * deterministic: plans read answers from the store's cache and note what is missing. Before a run generates,
 * `fetchAids` generates the run's questions with a collecting reader, asks the models for what was wanted (chat
 * answers one request each, embeddings in batches), caches the answers, and repeats while a step's request depends
 * on an earlier answer (merging needs the selected sentence and the summary). Calls are gated by the same cost
 * question as the run and recorded with the run once it exists, at their price. On a server store generation cannot
 * wait for the cache, so it reads answers read ahead (`CacheView`): each round first reads what was wanted.
 */
import type { SpecModel } from '../spec/model.js';
import type { LoadedData } from '../data/types.js';
import type { ChatMessage } from '../probes/question.js';
import type { ModelAids } from '../probes/contract/core.js';
import { generateQuestions, type GenerateOptions } from '../probes/index.js';
import { findCapability } from '../probes/registry.js';
import type { AnswerRecord, CacheEntry, Store } from '../store/index.js';
import type { ModelClient } from '../models/types.js';
import { modelFromFlag, resolveModel, type ResolvedModel } from '../models/providers.js';
import { OpenAIEmbeddingsClient } from '../models/openai-embeddings.js';
import { costOf, countMessageTokens, priceOf, type CostForecast } from '../models/cost.js';
import { requestHash } from './hash.js';
import { sideHash, sideParams, type KeyFor } from './side-call.js';
import { madeCall } from './call-record.js';
import { problemWords, warning, type Problem } from '../errors.js';

/** The cache key of one text's embedding (the rule family's embeddings oracle uses the same: a text is embedded once per store). */
function embedHash(model: ResolvedModel, text: string): string {
    return requestHash(model.endpoint, model.id, { embedding: true }, [{ role: 'user', content: text }]);
}

type Wanted = { model: ResolvedModel; name: string } & (
    { kind: 'chat'; messages: ChatMessage[]; json: boolean } | { kind: 'embed'; text: string }
);

/** Parsed vectors kept for reuse, at most this many (a text met again in another question is not parsed again). */
const VECTOR_MEMO = 50_000;

/** `ModelAids` over the store's cache: answers that are there, and what was wanted and is not. */
export class StoreAids implements ModelAids {
    readonly wanted = new Map<string, Wanted>();
    /** A model name the spec cannot resolve, with why (the plan does without it). */
    readonly unusable = new Map<string, string>();
    private readonly models = new Map<string, ResolvedModel | undefined>();
    private readonly vectors = new Map<string, readonly number[]>();

    constructor(
        private readonly spec: SpecModel,
        private readonly cached: (hash: string) => string | undefined,
    ) {}

    private model(name: string): ResolvedModel | undefined {
        if (!this.models.has(name)) {
            const decl = modelFromFlag(name, this.spec.models);
            const resolved = decl ? resolveModel(decl) : undefined;
            if (!decl) this.unusable.set(name, `unknown model "${name}"`);
            else if (!resolved?.model) this.unusable.set(name, resolved!.problems.map(problemWords).join(' '));
            this.models.set(name, resolved?.model);
        }
        return this.models.get(name);
    }

    chat(name: string, messages: ChatMessage[], options: { json?: boolean } = {}): string | undefined {
        const model = this.model(name);
        if (!model) return undefined;
        const hash = sideHash(model, messages, { temperature: 0, json: options.json });
        const hit = this.cached(hash);
        if (hit === undefined) this.wanted.set(hash, { model, name, kind: 'chat', messages, json: options.json === true });
        return hit;
    }

    embed(name: string, texts: readonly string[]): (readonly number[])[] | undefined {
        const model = this.model(name);
        if (!model) return undefined;
        const out: (readonly number[])[] = [];
        let missing = false;
        for (const text of texts) {
            const hash = embedHash(model, text);
            let v = this.vectors.get(hash);
            if (!v) {
                const hit = this.cached(hash);
                if (hit !== undefined) {
                    v = JSON.parse(hit) as number[];
                    if (this.vectors.size >= VECTOR_MEMO) this.vectors.clear();
                    this.vectors.set(hash, v);
                }
            }
            if (v) out.push(v);
            else {
                missing = true;
                this.wanted.set(hash, { model, name, kind: 'embed', text });
            }
        }
        return missing ? undefined : out;
    }
}

/**
 * The store's cache as synchronous generation reads it: at once from a file, or, on a server, the answers read
 * ahead for the hashes generation wanted (`readAhead`) and those asked since (`put`).
 */
export class CacheView {
    private readonly reader: ((hash: string) => CacheEntry | undefined) | undefined;
    private readonly ahead = new Map<string, string>();

    constructor(private readonly store: Pick<Store, 'cacheReader' | 'cachedMany'>) {
        this.reader = store.cacheReader();
    }

    readonly get = (hash: string): string | undefined => (this.reader ? this.reader(hash)?.text : this.ahead.get(hash));

    /** Reads from a server the answers of these hashes; the hashes still missing. */
    async readAhead(hashes: readonly string[]): Promise<string[]> {
        if (this.reader) return hashes.filter(h => this.get(h) === undefined);
        const found = await this.store.cachedMany(hashes.filter(h => !this.ahead.has(h)));
        for (const [hash, entry] of found) this.ahead.set(hash, entry.text);
        return hashes.filter(h => !this.ahead.has(h));
    }

    /** An answer just cached (a server's read-ahead must know it without reading it back). */
    put(hash: string, text: string): void {
        if (!this.reader) this.ahead.set(hash, text);
    }
}

/** The store's cache as the aids read it. */
export function storeAids(spec: SpecModel, view: CacheView): StoreAids {
    return new StoreAids(spec, view.get);
}

/**
 * Reads ahead, from a server store, every answer generation will read: generates, reads what it wanted, and again
 * while that found more (a merge step's request needs the answers of the steps before it). Nothing is asked.
 */
export async function readAheadAids(spec: SpecModel, data: LoadedData, options: GenerateOptions, view: CacheView): Promise<void> {
    if (!readsModels(spec, options)) return;
    for (let round = 0; round < MAX_ROUNDS; round++) {
        const aids = storeAids(spec, view);
        generateAll(spec, data, options, aids);
        const wanted = [...aids.wanted.keys()];
        if (wanted.length === 0 || (await view.readAhead(wanted)).length === wanted.length) return;
    }
}

function generateAll(spec: SpecModel, data: LoadedData, options: GenerateOptions, aids: StoreAids): void {
    const generation = generateQuestions(spec, data, { ...options, aids });
    for (let r = generation.questions.next(); !r.done; r = generation.questions.next()) {
        /* generate only to learn what is wanted */
    }
}

/** A call asked before its run existed, recorded with the run once it does. */
type PendingCall = Omit<AnswerRecord, 'cacheable' | 'run'>;

export interface AidsRequest {
    spec: SpecModel;
    data: LoadedData;
    store: Store;
    /** The run's generation options (suite, probe, limit, seed): the questions the run will ask. */
    options: GenerateOptions;
    keyFor: KeyFor;
    client: (model: ResolvedModel, key: string) => ModelClient;
    /** Asked once when the calls' estimate goes above `threshold` (US dollars); false stops before those calls. */
    confirm: (usd: number, forecasts: CostForecast[]) => Promise<boolean>;
    threshold: number;
    signal?: AbortSignal;
}

export interface AidsOutcome {
    /** What generation reads from now on (the store's cache). */
    aids: StoreAids;
    /** Calls made, to record with the run. */
    calls: PendingCall[];
    /** Why some outputs could not be had, as warnings (the plans did without them and say so): code `generation-model`. */
    problems: Problem[];
    /** The cost question was answered no. */
    declined?: boolean;
}

/** Whether any probe the run generates reads models while generating. */
function readsModels(spec: SpecModel, options: GenerateOptions): boolean {
    const suite = options.suite === undefined ? undefined : spec.suites.find(s => s.name === options.suite);
    const names = options.probe !== undefined ? [options.probe] : suite ? suite.probes : spec.probes.map(p => p.name);
    return spec.probes.some(
        p => names.includes(p.name) && (findCapability(p.kind, 'modelSteps')?.generationModels?.(p).length ?? 0) > 0,
    );
}

/** Chat requests asked at once (the answers are long: summaries, merged passages). */
const CHAT_CONCURRENCY = 4;
/** Texts per embeddings request. */
const EMBED_BATCH = 64;
/** Rounds of generate-then-ask (select and summarise, then merge, then nothing more). */
const MAX_ROUNDS = 5;
/** Output tokens a generation step's answer is estimated at, when the model declares none. */
const STEP_OUTPUT_TOKENS = 250;

export async function fetchAids(req: AidsRequest): Promise<AidsOutcome> {
    const { spec, store } = req;
    const view = new CacheView(store);
    const outcome: AidsOutcome = { aids: storeAids(spec, view), calls: [], problems: [] };
    if (!readsModels(spec, req.options)) return outcome;
    const failed = new Set<string>();
    const clients = new Map<string, { model: ResolvedModel; client: ModelClient; key: string } | string>();
    let spent = 0,
        confirmed = false;
    for (let round = 0; round < MAX_ROUNDS && !req.signal?.aborted; round++) {
        const aids = storeAids(spec, view);
        generateAll(spec, req.data, req.options, aids);
        for (const [name, why] of aids.unusable) note(outcome, `${name}: ${why}`);
        // On a server, what another run cached already is read, not asked.
        const missing = new Set(await view.readAhead([...aids.wanted.keys()]));
        const wanted = [...aids.wanted].filter(([hash]) => missing.has(hash) && !failed.has(hash));
        if (wanted.length === 0 && missing.size === aids.wanted.size) break;
        if (wanted.length === 0) continue;
        const forecasts = forecast(wanted.map(([, w]) => w));
        const usd = forecasts.reduce((n, e) => n + (e.usd ?? 0), 0);
        if (!confirmed && spent + usd > req.threshold) {
            if (!(await req.confirm(spent + usd, forecasts))) {
                outcome.declined = true;
                break;
            }
            confirmed = true;
        }
        spent += usd;
        const byModel = new Map<string, [string, Wanted][]>();
        for (const w of wanted) byModel.set(w[1].name, [...(byModel.get(w[1].name) ?? []), w]);
        for (const [name, list] of byModel) {
            const c = await clientFor(name, list[0]![1].model);
            if (typeof c === 'string') {
                note(outcome, c);
                list.forEach(([h]) => failed.add(h));
                continue;
            }
            const chats = list.filter((w): w is [string, Wanted & { kind: 'chat' }] => w[1].kind === 'chat');
            const texts = list.filter((w): w is [string, Wanted & { kind: 'embed' }] => w[1].kind === 'embed');
            await askChats(c, chats);
            await embedTexts(c, texts);
        }
    }
    return outcome;

    async function clientFor(name: string, model: ResolvedModel) {
        let c = clients.get(name);
        if (c === undefined) {
            const key = await req.keyFor(model);
            c = !key.ok ? `${name}: ${key.message}` : { model, key: key.key, client: req.client(model, key.key) };
            // Generation reads answers from the cache: a model whose answers are not cached (offline, replay) cannot serve it.
            if (typeof c !== 'string' && !c.client.cacheable)
                c = `${name}: generation steps need a model whose answers are cached (an OpenAI-compatible endpoint); ${model.provider} models are not`;
            clients.set(name, c);
        }
        return c;
    }

    async function askChats(c: { model: ResolvedModel; client: ModelClient }, list: [string, Wanted & { kind: 'chat' }][]) {
        let next = 0;
        const worker = async () => {
            while (next < list.length && !req.signal?.aborted) {
                const [hash, w] = list[next++]!;
                const params = { temperature: 0, json: w.json };
                try {
                    const done = await c.client.complete({ messages: w.messages, params, sample: 0 }, req.signal);
                    await store.cacheAnswers([
                        {
                            hash,
                            text: done.text,
                            tokensIn: done.tokens.input,
                            tokensOut: done.tokens.output,
                            finishReason: done.finishReason,
                            latencyMs: done.latencyMs,
                        },
                    ]);
                    view.put(hash, done.text);
                    outcome.calls.push({
                        question: 'generation',
                        model: `generate:${c.model.name}`,
                        sample: 0,
                        hash,
                        params: sideParams(params),
                        ...madeCall(c.model, done),
                    });
                } catch (e) {
                    failed.add(hash);
                    note(outcome, `${w.name}: a generation step's call failed: ${e instanceof Error ? e.message : String(e)}`);
                }
            }
        };
        await Promise.all(Array.from({ length: Math.min(CHAT_CONCURRENCY, list.length) }, worker));
    }

    async function embedTexts(c: { model: ResolvedModel; key: string }, list: [string, Wanted & { kind: 'embed' }][]) {
        const client = new OpenAIEmbeddingsClient(c.model, c.key);
        for (let i = 0; i < list.length && !req.signal?.aborted; i += EMBED_BATCH) {
            const batch = list.slice(i, i + EMBED_BATCH);
            try {
                const got = await client.embed(
                    batch.map(([, w]) => w.text),
                    req.signal,
                );
                const entries = batch.map(([hash], j) => ({
                    hash,
                    text: JSON.stringify(got.vectors[j]),
                    tokensIn: 0,
                    tokensOut: 0,
                    finishReason: 'embedding',
                    latencyMs: got.latencyMs,
                }));
                await store.cacheAnswers(entries);
                for (const e of entries) view.put(e.hash, e.text);
                outcome.calls.push({
                    question: 'generation',
                    model: `embed:${c.model.name}`,
                    sample: 0,
                    hash: batch[0]![0],
                    params: { embedding: true },
                    text: '',
                    tokensIn: got.tokens,
                    tokensOut: 0,
                    latencyMs: got.latencyMs,
                    cost: costOf(priceOf(c.model), { input: got.tokens, output: 0 }),
                    attempts: 1,
                    finishReason: 'embedding',
                    cached: false,
                });
            } catch (e) {
                batch.forEach(([h]) => failed.add(h));
                note(outcome, `${c.model.name}: the embeddings call failed: ${e instanceof Error ? e.message : String(e)}`);
            }
        }
    }
}

function note(outcome: AidsOutcome, message: string): void {
    if (outcome.problems.some(p => p.message === message)) return;
    outcome.problems.push(
        warning(
            'generation-model',
            message,
            'Name a model declared in the spec, with its endpoint and key_env; until then the cases that need it are left out (enrich_with) or fall back (embeddings: BM25 prizes).',
        ),
    );
}

/** What the wanted calls cost, per model (embeddings: input tokens only, about four characters a token). */
function forecast(wanted: readonly Wanted[]): CostForecast[] {
    const byModel = new Map<string, { model: ResolvedModel; requests: number; input: number; output: number }>();
    for (const w of wanted) {
        const e = byModel.get(w.name) ?? { model: w.model, requests: 0, input: 0, output: 0 };
        e.requests++;
        if (w.kind === 'chat') {
            e.input += countMessageTokens(w.messages);
            e.output += w.model.expectedOutputTokens ?? STEP_OUTPUT_TOKENS;
        } else e.input += Math.ceil(w.text.length / 4);
        byModel.set(w.name, e);
    }
    return [...byModel.values()].map(e => {
        const price = priceOf(e.model);
        const out: CostForecast = {
            model: e.model.name,
            requests: e.requests,
            inputTokens: e.input,
            outputTokens: e.output,
            outputFrom: e.model.expectedOutputTokens !== undefined ? 'setting' : 'default',
        };
        if (price) out.usd = costOf(price, { input: e.input, output: e.output });
        return out;
    });
}
