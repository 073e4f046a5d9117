/**
 * The store writes of a run, and what happens when one fails for an ordinary reason (a full disk, a read-only or
 * unwritable store): the first failure stops new calls at once; answers that arrive afterwards — calls already
 * made, so already paid — are held in memory, with the write that failed, and written as soon as the store takes
 * writes again (every later write tries them first; once the calls in flight are done, the run keeps trying for a
 * while, saying so). What still cannot be written is named slot by slot in the error the run ends with, so
 * nothing paid for goes missing unnoticed. Anything else a write throws is a bug and is not held.
 */
import { HalluProbeError, ordinaryProblem, problem } from '../errors.js';
import type { AnswerRecord, FailureRecord, Store } from '../store/index.js';
import type { Question } from '../probes/question.js';
import { sleep } from './limiter.js';
import type { Progress } from './progress.js';

/** How long a run whose store stopped taking writes keeps trying to write what it holds, after its last call. */
const HOLD_WRITES_MS = 15_000;

/** One write waiting for the store, and what it would lose if it never happens. */
interface Held {
    write: () => Promise<void>;
    /** Answers from the endpoint (paid for), by slot, and their cost. */
    paid: { slot: string; cost: number }[];
    /** Answers served from the cache (nothing paid; a resume serves them again). */
    cached: number;
}

/** How a slot is named to the user: probe/question id · model · sample. */
function slotName(question: Pick<Question, 'probe' | 'id'>, model: string, sample: number): string {
    return `${question.probe}/${question.id} · ${model} · sample ${sample}`;
}

export class RunWrites {
    private failure: unknown;
    private readonly held: Held[] = [];
    /** Answers held after the failure that were written later. */
    private rescued = 0;

    /** `stop`: called once, at the first failed write (no new calls). `changed`: what is held changed (report it). */
    constructor(
        private readonly store: Store,
        private readonly stop: () => void,
        private readonly changed: () => void,
    ) {}

    /** A write failed: no new calls are made. */
    get failed(): boolean {
        return this.failure !== undefined;
    }

    /** Answers waiting in memory for the store. */
    get waiting(): number {
        return this.held.reduce((n, h) => n + h.paid.length + h.cached, 0);
    }

    /** The failure, as the user reads it (undefined while none). */
    get problemText(): string | undefined {
        return this.failure === undefined ? undefined : ordinaryProblem(this.failure)?.message;
    }

    answer(record: AnswerRecord, question: Question): Promise<void> {
        const paid = record.cached ? [] : [{ slot: slotName(question, record.model, record.sample), cost: record.cost }];
        return this.commit({ write: () => this.store.recordAnswer(record), paid, cached: record.cached ? 1 : 0 });
    }

    /** Answers from the cache, in one transaction. */
    cachedAnswers(records: AnswerRecord[]): Promise<void> {
        return this.commit({ write: () => this.store.recordAnswers(records), paid: [], cached: records.length });
    }

    /** A slot whose call failed (a resumed run asks it again). */
    unanswered(record: FailureRecord): Promise<void> {
        return this.commit({ write: () => this.store.recordFailure(record), paid: [], cached: 0 });
    }

    /** A write that is not an answer (questions, status) failed for an ordinary reason: stop as for an answer. */
    fail(e: unknown): void {
        if (!ordinaryProblem(e)) throw e;
        if (this.failure === undefined) {
            this.failure = e;
            this.stop();
        }
        this.changed();
    }

    private async commit(item: Held): Promise<void> {
        if (this.held.length > 0 || this.flushing) {
            this.held.push(item);
            await this.flush();
            this.changed();
            return;
        }
        try {
            await item.write();
        } catch (e) {
            this.held.push(item);
            this.fail(e);
        }
    }

    /** The one drain in progress: concurrent askers share it, so no held write is made twice. */
    private flushing: Promise<boolean> | undefined;

    /** Writes what is held, in order; false when the store still refuses. */
    flush(): Promise<boolean> {
        this.flushing ??= this.drain().finally(() => {
            this.flushing = undefined;
        });
        return this.flushing;
    }

    private async drain(): Promise<boolean> {
        while (this.held.length > 0) {
            const item = this.held[0]!;
            try {
                await item.write();
            } catch (e) {
                if (!ordinaryProblem(e)) throw e;
                return false;
            }
            this.held.shift();
            this.rescued += item.paid.length + item.cached;
        }
        return true;
    }

    /**
     * After the last call: keeps trying to write what is held (every half second or so, for HOLD_WRITES_MS, or
     * until cancelled), then returns the error the run ends with: undefined when no write failed.
     */
    async settle(signal?: AbortSignal): Promise<HalluProbeError | undefined> {
        if (this.failure === undefined) return undefined;
        const until = Date.now() + HOLD_WRITES_MS;
        for (let wait = 250; !(await this.flush()) && !signal?.aborted && Date.now() < until; wait = Math.min(2 * wait, 2_000)) {
            this.changed();
            await sleep(Math.min(wait, Math.max(0, until - Date.now())), signal);
        }
        this.changed();
        const base = ordinaryProblem(this.failure)!;
        const resume =
            base.code === 'store-unreachable'
                ? base.remedy
                : 'Free some space (or pass --db on another disk) and run again: what is stored is kept, and the resumed run asks only the rest.';
        if (this.held.length === 0) {
            const kept = this.rescued
                ? ` The ${this.rescued} answer(s) that arrived after it were held in memory and have been written.`
                : '';
            return new HalluProbeError(
                problem(
                    base.code,
                    `${base.message} The run stopped at the first answer it could not store: no new questions were asked.${kept}`,
                    resume,
                ),
            );
        }
        const paid = this.held.flatMap(h => h.paid);
        const cached = this.held.reduce((n, h) => n + h.cached, 0);
        const cost = paid.reduce((s, p) => s + p.cost, 0);
        const lost = paid.length
            ? ` ${paid.length} answer${paid.length === 1 ? '' : 's'} paid for could not be written and ${paid.length === 1 ? 'is' : 'are'} lost${cost > 0 ? ` ($${cost.toFixed(4)})` : ''}: ${paid.map(p => p.slot).join('; ')}.`
            : '';
        const fromCache = cached
            ? ` ${cached} answer(s) from the cache were not written either (a resumed run serves them again).`
            : '';
        return new HalluProbeError(
            problem(
                base.code,
                `${base.message} The run stopped at the first answer it could not store: no new questions were asked.${lost}${fromCache}`,
                `${resume}${paid.length ? ' The lost answers are asked again (and paid again).' : ''}`,
            ),
        );
    }
}

/** A run's writes whose held answers and store problem are shown with its progress (`stop`: no new calls). */
export function progressWrites(store: Store, stop: () => void, progress: Progress, emit: () => void): RunWrites {
    const writes: RunWrites = new RunWrites(store, stop, () => {
        progress.held = writes.waiting;
        progress.storeProblem = writes.problemText;
        emit();
    });
    return writes;
}
