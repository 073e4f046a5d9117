/**
 * The slots a run still has to ask, per model: which are unanswered, their request hashes, and the cache entries
 * answering some of them.
 */
import type { Question } from '../probes/question.js';
import type { Price } from '../models/cost.js';
import type { ResolvedModel } from '../models/providers.js';
import type { ModelClient } from '../models/types.js';
import { slotKey, type AnswerRecord, type CacheEntry, type Store } from '../store/index.js';
import { answerParams, requestHash } from './hash.js';
import { cachedCall } from './call-record.js';

export interface RunModel {
    model: ResolvedModel;
    client: ModelClient;
    price?: Price;
    /** Key text to scrub from any error stored or shown (belt and braces: clients already redact). */
    secret?: string;
}

/**
 * An unanswered (question × model × sample) of a run: its request hash and, when known, the cache entry answering
 * it; in a shared run, the chunk it belongs to (told when the slot is settled; its slots are dropped once lost).
 */
export interface PendingSlot {
    question: Question;
    sample: number;
    hash?: string;
    hit?: CacheEntry | null;
    chunk?: SlotChunk;
}

/** The chunk of a shared run a slot came from. */
export interface SlotChunk {
    readonly lost: boolean;
    settled(): void;
    /** Just before a request for one of its slots is sent: false once the chunk is another worker's (not sent then). */
    send(): Promise<boolean>;
}

/**
 * The slots of one model a run has not answered yet (request hash and cache hit worked out once, for cacheable
 * clients: the cache is read for all of them at once).
 */
export async function pendingSlots(
    store: Store,
    runId: string,
    questions: readonly Question[],
    rm: RunModel,
    answered?: ReadonlySet<string>,
): Promise<PendingSlot[]> {
    const { model, client } = rm;
    const done = answered ?? (await store.answered(runId));
    const out: PendingSlot[] = [];
    for (const q of questions) {
        for (let s = 0; s < model.samples; s++) {
            if (done.has(slotKey(q.id, model.name, s))) continue;
            if (!client.cacheable) {
                out.push({ question: q, sample: s });
                continue;
            }
            out.push({
                question: q,
                sample: s,
                hash: requestHash(model.endpoint, model.id, answerParams(model.params, s), q.messages),
            });
        }
    }
    if (!client.cacheable || out.length === 0) return out;
    const hits = await store.cachedMany(out.map(p => p.hash!));
    for (const p of out) p.hit = hits.get(p.hash!) ?? null;
    return out;
}

/** The answer record of a slot served from the cache (nothing was called, nothing paid). */
export function cacheRecord(
    runId: string,
    { model }: RunModel,
    question: Question,
    sample: number,
    hash: string,
    hit: CacheEntry,
): AnswerRecord {
    return {
        run: runId,
        question: question.id,
        model: model.name,
        sample,
        hash,
        params: answerParams(model.params, sample),
        ...cachedCall(hit),
        cacheable: false,
    };
}
