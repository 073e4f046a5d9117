/**
 * One writer per run: a lease row (owner pid and host, heartbeat) taken when a run is started or resumed.
 * Another process finding a live lease refuses with a clear message; a lease is stale when its heartbeat is
 * older than the timeout, or at once when its process on this host is gone (killed runs resume immediately).
 */
import * as os from 'node:os';
import { randomBytes } from 'node:crypto';
import type Database from 'better-sqlite3';
import { ordinaryProblem } from '../errors.js';

export interface LeaseHolder { run: string; pid: number; host: string; started: string; heartbeat: number }

/** A lease not renewed for this long is free (the heartbeat renews it every fifth of that). */
export const LEASE_STALE_MS = Number(process.env.HALLUPROBE_LEASE_STALE_MS ?? 30_000);

function pidAlive(pid: number): boolean {
    try { process.kill(pid, 0); return true; } catch (e) { return (e as NodeJS.ErrnoException).code === 'EPERM'; }
}

function stale(h: LeaseHolder, now: number, staleMs: number): boolean {
    return now - h.heartbeat > staleMs || (h.host === os.hostname() && !pidAlive(h.pid));
}

export class Leases {
    private readonly mine = new Map<string, string>();
    private timer: NodeJS.Timeout | undefined;

    constructor(private readonly db: Database.Database, private readonly staleMs = LEASE_STALE_MS) {}

    /** Takes the run's lease; returns the live holder instead when another writer has it. */
    acquire(run: string): LeaseHolder | undefined {
        const take = this.db.transaction((): LeaseHolder | undefined => {
            const now = Date.now();
            const held = this.db.prepare('SELECT run, pid, host, started, heartbeat, token FROM run_leases WHERE run = ?').get(run) as (LeaseHolder & { token: string }) | undefined;
            if (held && held.token !== this.mine.get(run) && !stale(held, now, this.staleMs)) {
                const { token: _token, ...holder } = held;
                return holder;
            }
            const token = randomBytes(8).toString('hex');
            this.db.prepare('INSERT OR REPLACE INTO run_leases (run, token, pid, host, started, heartbeat) VALUES (?, ?, ?, ?, ?, ?)')
                .run(run, token, process.pid, os.hostname(), new Date(now).toISOString(), now);
            this.mine.set(run, token);
            return undefined;
        });
        const holder = take.immediate();
        if (!holder) this.startHeartbeat();
        return holder;
    }

    release(run: string): void {
        const token = this.mine.get(run);
        if (!token) return;
        this.mine.delete(run);
        if (this.mine.size === 0 && this.timer) { clearInterval(this.timer); this.timer = undefined; }
        // A store that takes no writes (a full disk) keeps the lease row: it goes stale with its heartbeat, and
        // the run is free again then; failing here would hide why the run stopped.
        unlessRefused(() => this.db.prepare('DELETE FROM run_leases WHERE run = ? AND token = ?').run(run, token));
    }

    releaseAll(): void {
        for (const run of [...this.mine.keys()]) this.release(run);
    }

    private startHeartbeat(): void {
        if (this.timer) return;
        this.timer = setInterval(() => {
            const beat = this.db.prepare('UPDATE run_leases SET heartbeat = ? WHERE run = ? AND token = ?');
            // A refused heartbeat (a full disk) is not worth a crash: the run says why its writes stopped.
            for (const [run, token] of this.mine) unlessRefused(() => beat.run(Date.now(), run, token));
        }, Math.max(50, this.staleMs / 5));
        this.timer.unref();
    }
}

/** Runs a write, letting it fail only for a reason that is not the store refusing writes (a full disk, a read-only file). */
function unlessRefused(write: () => unknown): void {
    try {
        write();
    } catch (e) {
        if (!ordinaryProblem(e)) throw e;
    }
}

/** The refusal a second writer shows. */
export function leaseMessage(h: LeaseHolder): string {
    const age = Math.round((Date.now() - new Date(h.started).getTime()) / 1000);
    return `run ${h.run} is being written by another HalluProbe (pid ${h.pid} on ${h.host}, for ${age} s); wait for it to finish, stop it, or start a separate run with --new (answers it already has come from the cache).`;
}
