/**
 * Running `COPY … TO STDOUT` on a `pg` client and taking the rows straight off the socket. `pg` parses every
 * message into an object; for a million CopyData messages (one per row) that is most of the cost of a read. This
 * query object follows pg's custom-query protocol (`submit(connection)`, then pg calls `handleError`,
 * `handleCommandComplete`, `handleReadyForQuery`): while the COPY streams it reads the connection's bytes itself,
 * hands each CopyData payload to `onData` where it lies in the socket's buffer (no copy, no object per row), and
 * gives everything from CopyDone, or from an error, back to pg's own parser.
 *
 * Message layout (PostgreSQL frontend/backend protocol): one type byte, an int32 length that counts itself,
 * then the body.
 */
import * as net from 'node:net';
import type { Socket } from 'node:net';
import type { Connection } from 'pg';

const COPY_DATA = 0x64,
    COPY_DONE = 0x63,
    COPY_OUT_RESPONSE = 0x48,
    NOTICE = 0x4e,
    PARAMETER_STATUS = 0x53,
    NOTIFICATION = 0x41;

type DataListener = (chunk: Buffer) => void;

/** The sockets made by `reusedReadStream`, each with the COPY reader that takes its reads (if one does). */
const copyReaders = new WeakMap<Socket, { reader: DataListener | undefined }>();

/**
 * pg's `stream` setting: a socket that reads into one buffer of its own, reused for every read, where Node makes
 * a fresh buffer per read. On this machine (a VM whose fresh pages cost ~25 µs each at first touch) those fresh
 * buffers were 17k of a 1M-row load's 54k page faults. While a `CopyOutQuery` reads the socket it gets each read
 * in that buffer (valid only during the call); otherwise pg gets a copy as a 'data' event, since its parser keeps
 * what it is given. With TLS, pg wraps the socket, so it is a plain one as before.
 */
export function reusedReadStream(bufferSize = 64 * 1024): (config?: { ssl?: unknown }) => Socket {
    return config => {
        if (config?.ssl) return new net.Socket(); // pg calls this with its connection settings
        const buffer = Buffer.allocUnsafeSlow(bufferSize);
        const taps = { reader: undefined as DataListener | undefined };
        const socket = new net.Socket({
            onread: {
                buffer,
                callback: (n: number) => {
                    const chunk = buffer.subarray(0, n);
                    if (taps.reader) taps.reader(chunk);
                    else socket.emit('data', Buffer.from(chunk));
                    return true;
                },
            },
        });
        copyReaders.set(socket, taps);
        return socket;
    };
}

export class CopyOutQuery {
    /** Settles when the server is ready again: resolved after the COPY, rejected with its error. */
    readonly done: Promise<void>;
    private settle!: { resolve: () => void; reject: (e: unknown) => void };
    private stream: Socket | undefined;
    private pgListener: DataListener | undefined;
    /** The socket's reads come in its one reused buffer (`reusedReadStream`), not as 'data' events. */
    private taps: { reader: DataListener | undefined } | undefined;
    private pending: Buffer | undefined;
    private failed: unknown;
    /** Whether the rows were read off the socket (else through pg's parser, the slow way). */
    readsSocket = false;

    /**
     * `onData(buf, start, end)`: one CopyData payload (valid only during the call); `onChunkEnd`: the socket's
     * chunk is used up (a reader keeping positions in `buf` must let go of them).
     */
    constructor(
        private readonly text: string,
        private readonly onData: (buf: Buffer, start: number, end: number) => void,
        private readonly onChunkEnd: () => void,
    ) {
        this.done = new Promise((resolve, reject) => {
            this.settle = { resolve, reject };
        });
        this.done.catch(() => undefined); // the caller awaits it; never an unhandled rejection meanwhile
    }

    /** Called by pg when the query's turn comes. */
    submit(connection: Connection): void {
        const stream = (connection as unknown as { stream: Socket }).stream;
        const listeners = stream.listeners('data') as DataListener[];
        const taps = copyReaders.get(stream);
        if (taps) {
            this.stream = stream;
            this.taps = taps;
            taps.reader = this.onSocketData;
            this.readsSocket = true;
        }
        // pg reads its socket through one listener; if that ever changes, pg's own parsing (handleCopyData) is the way.
        else if (listeners.length === 1) {
            this.stream = stream;
            this.pgListener = listeners[0]!;
            stream.removeListener('data', this.pgListener);
            stream.on('data', this.onSocketData);
            this.readsSocket = true;
        }
        (connection as unknown as { query(text: string): void }).query(this.text);
    }

    /** The slow way, through pg's parser: only when the socket could not be read directly. */
    handleCopyData(message: { chunk: Buffer }): void {
        try {
            this.onData(message.chunk, 0, message.chunk.length);
            this.onChunkEnd();
        } catch (e) {
            this.failed ??= e;
        }
    }

    private readonly onSocketData = (chunk: Buffer): void => {
        try {
            let pos = 0;
            if (this.pending) {
                // Finish the message the last chunk cut, copying its own bytes only (not the whole new chunk).
                const joined = this.completePending(chunk);
                if (!joined) return;
                pos = joined.used;
                const rest = this.messages(joined.message, 0);
                this.onChunkEnd();
                if (rest !== undefined) {
                    this.giveBack(Buffer.concat([rest, chunk.subarray(pos)]));
                    return;
                }
            }
            const rest = this.messages(chunk, pos);
            this.onChunkEnd();
            if (rest !== undefined) this.giveBack(rest);
        } catch (e) {
            // The reader failed on a row: stop the COPY by dropping the connection, report that error.
            this.failed ??= e;
            const stream = this.stream;
            this.giveBack(Buffer.alloc(0));
            stream?.destroy();
        }
    };

    /**
     * Handles the whole messages of `buf` from `pos`; keeps a cut last one in `pending`. Returns the bytes to give
     * back to pg once the COPY is over (from CopyDone on, or from an error), else undefined.
     */
    private messages(buf: Buffer, pos: number): Buffer | undefined {
        while (pos + 5 <= buf.length) {
            const type = buf[pos]!,
                end = pos + 1 + buf.readInt32BE(pos + 1);
            if (end > buf.length) break;
            if (type === COPY_DATA) this.onData(buf, pos + 5, end);
            else if (type === COPY_DONE) return buf.subarray(end);
            // An error (or anything unexpected) goes to pg, which parses it and calls handleError.
            else if (type !== COPY_OUT_RESPONSE && type !== NOTICE && type !== PARAMETER_STATUS && type !== NOTIFICATION)
                return buf.subarray(pos);
            pos = end;
        }
        if (pos < buf.length) this.pending = Buffer.from(buf.subarray(pos));
        return undefined;
    }

    /** The cut message completed from the start of `chunk` (and how many bytes of it that took), or undefined while still short. */
    private completePending(chunk: Buffer): { message: Buffer; used: number } | undefined {
        const have = this.pending!;
        this.pending = undefined;
        const head = have.length >= 5 ? have : Buffer.concat([have, chunk.subarray(0, 5 - have.length)]);
        const total = head.length >= 5 ? 1 + head.readInt32BE(1) : Infinity;
        if (total - have.length > chunk.length) {
            this.pending = Buffer.concat([have, chunk]);
            return undefined;
        }
        const used = total - have.length;
        return { message: Buffer.concat([have, chunk.subarray(0, used)]), used };
    }

    /** Restores pg's reading of the socket and gives it the bytes after the COPY. */
    private giveBack(rest: Buffer): void {
        const stream = this.stream,
            listener = this.pgListener;
        if (stream && this.taps) {
            this.stream = undefined;
            this.taps.reader = undefined;
            // `rest` may lie in the reused buffer, and pg's parser keeps what it is given.
            if (rest.length > 0) stream.emit('data', Buffer.from(rest));
            return;
        }
        if (!stream || !listener) return;
        this.stream = undefined;
        stream.removeListener('data', this.onSocketData);
        stream.on('data', listener);
        if (rest.length > 0) listener(rest);
    }

    handleError(err: unknown): void {
        this.giveBack(Buffer.alloc(0));
        this.settle.reject(this.failed ?? err);
    }

    handleCommandComplete(): void {
        /* the row count is not needed */
    }

    handleReadyForQuery(): void {
        if (this.failed !== undefined) this.settle.reject(this.failed);
        else if (this.pending) this.settle.reject(new Error('the COPY ended inside a message'));
        else this.settle.resolve();
    }

    /** Stops reading: the connection is dropped, which ends the COPY on the server too. */
    cancel(reason: unknown): void {
        this.failed ??= reason;
        this.giveBack(Buffer.alloc(0));
    }
}
