/**
 * One writer per run: a lease row (owner pid and host, heartbeat) taken when a run is started or resumed.
 * Another process finding a live lease refuses with a clear message; a lease is stale when its heartbeat is
 * older than the timeout, or at once when its process on this host is gone (killed runs resume immediately).
 * Heartbeats are on the database's clock, so machines sharing a server agree on what "older" means.
 */
import * as os from 'node:os';
import { randomBytes } from 'node:crypto';
import { nowMs, type Sql } from './sql.js';
import type { LeaseHolder } from './types.js';
import { ordinaryProblem } from '../errors.js';

/** A lease not renewed for this long is free (the heartbeat renews it every fifth of that). */
export const LEASE_STALE_MS = Number(process.env.HALLUPROBE_LEASE_STALE_MS ?? 30_000);

function pidAlive(pid: number): boolean {
    try {
        process.kill(pid, 0);
        return true;
    } catch (e) {
        return (e as NodeJS.ErrnoException).code === 'EPERM';
    }
}

/** A holder on this host whose process is gone: its leases are free at once. */
const deadHere = (h: { pid: number; host: string }) => h.host === os.hostname() && !pidAlive(h.pid);

export class Leases {
    private readonly mine = new Map<string, string>();
    private timer: NodeJS.Timeout | undefined;

    constructor(
        private readonly sql: Sql,
        private readonly staleMs = LEASE_STALE_MS,
    ) {}

    /** Takes the run's lease; returns the live holder instead when another writer has it. `tx`: inside this transaction. */
    async acquire(run: string, tx?: Sql): Promise<LeaseHolder | undefined> {
        const holder = await (tx ?? this.sql).transaction(async db => {
            const held = await db.get<LeaseHolder & { token: string; now: number }>(
                `SELECT run, pid, host, started, heartbeat, token, ${nowMs(db)} AS now FROM run_leases WHERE run = ?`,
                [run],
            );
            const now = held?.now ?? Date.now();
            if (held && held.token !== this.mine.get(run) && !(now - held.heartbeat > this.staleMs || deadHere(held))) {
                const { token: _token, now: _now, ...rest } = held;
                return { ...rest, pid: Number(rest.pid), heartbeat: Number(rest.heartbeat) };
            }
            const token = randomBytes(8).toString('hex');
            await db.run(
                `INSERT INTO run_leases (run, token, pid, host, started, heartbeat) VALUES (?, ?, ?, ?, ?, ${nowMs(db)})
                ON CONFLICT (run) DO UPDATE SET token = excluded.token, pid = excluded.pid, host = excluded.host, started = excluded.started, heartbeat = excluded.heartbeat`,
                [run, token, process.pid, os.hostname(), new Date().toISOString()],
            );
            this.mine.set(run, token);
            return undefined;
        }, true);
        if (!holder) this.startHeartbeat();
        return holder;
    }

    async release(run: string): Promise<void> {
        const token = this.mine.get(run);
        if (!token) return;
        this.mine.delete(run);
        if (this.mine.size === 0 && this.timer) {
            clearInterval(this.timer);
            this.timer = undefined;
        }
        // A store that takes no writes (a full disk) keeps the lease row: it goes stale with its heartbeat, and
        // the run is free again then; failing here would hide why the run stopped.
        await this.sql.run('DELETE FROM run_leases WHERE run = ? AND token = ?', [run, token]).catch(e => {
            if (!ordinaryProblem(e)) throw e;
        });
    }

    async releaseAll(): Promise<void> {
        for (const run of [...this.mine.keys()]) await this.release(run);
    }

    private startHeartbeat(): void {
        if (this.timer) return;
        this.timer = setInterval(
            () => {
                for (const [run, token] of this.mine) {
                    // A missed beat (a server restarting, a full disk) is only a later beat: the next one renews the lease.
                    this.sql
                        .run(`UPDATE run_leases SET heartbeat = ${nowMs(this.sql)} WHERE run = ? AND token = ?`, [run, token])
                        .catch(() => undefined);
                }
            },
            Math.max(50, this.staleMs / 5),
        );
        this.timer.unref();
    }
}

/** The refusal a second writer shows. */
export function leaseMessage(h: LeaseHolder): string {
    const age = Math.round((Date.now() - new Date(h.started).getTime()) / 1000);
    return `run ${h.run} is being written by another HalluProbe (pid ${h.pid} on ${h.host}, for ${age} s); wait for it to finish, stop it, or start a separate run with --new (answers it already has come from the cache).`;
}
