/**
 * The slots one model still has to ask, between the producer (generation, cache hits) and the model's workers.
 * Bounded by the producer waiting for room, so a run holds a few batches of questions, not all of them.
 */
import type { PendingSlot } from './pending.js';

export class SlotQueue {
    private items: PendingSlot[] = [];
    private head = 0;
    private closed = false;
    private waiting: (() => void)[] = [];

    get size(): number {
        return this.items.length - this.head;
    }

    get isClosed(): boolean {
        return this.closed;
    }

    push(slots: readonly PendingSlot[]): void {
        if (this.closed || slots.length === 0) return;
        if (this.head > 0 && this.head >= this.items.length / 2) {
            this.items = this.items.slice(this.head);
            this.head = 0;
        }
        this.items.push(...slots);
        this.wakeAll();
    }

    /** The next slot; undefined once the queue is closed and empty. */
    async take(): Promise<PendingSlot | undefined> {
        for (;;) {
            if (this.head < this.items.length) {
                const slot = this.items[this.head]!;
                this.items[this.head++] = undefined as unknown as PendingSlot;
                this.wakeAll();
                return slot;
            }
            if (this.closed) return undefined;
            await new Promise<void>(resolve => this.waiting.push(resolve));
        }
    }

    /** Resolves once at most `limit` slots wait (or the queue is closed). */
    async room(limit: number): Promise<void> {
        while (!this.closed && this.size > limit) await new Promise<void>(resolve => this.waiting.push(resolve));
    }

    /** No more slots will come; `drop` also forgets those waiting (cancelled, or the model was given up). */
    close(drop = false): void {
        this.closed = true;
        if (drop) {
            this.items = [];
            this.head = 0;
        }
        this.wakeAll();
    }

    private wakeAll(): void {
        const waiting = this.waiting;
        this.waiting = [];
        for (const w of waiting) w();
    }
}
