import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { CopyOutQuery } from '../../../src/core/data/postgres-wire.js';

/** One backend message: type byte, int32 length counting itself, body. */
function message(type: string, body: Buffer): Buffer {
    const head = Buffer.alloc(5);
    head.write(type, 0, 'latin1');
    head.writeInt32BE(body.length + 4, 1);
    return Buffer.concat([head, body]);
}

// The bytes a server sends for a COPY TO STDOUT: CopyOutResponse, rows (with a notice between), CopyDone, then
// CommandComplete and ReadyForQuery, which belong to pg again.
const rows = Array.from({ length: 40 }, (_, i) => Buffer.from(`row ${i} ${'x'.repeat(i * 7)}`));
const after = Buffer.concat([message('C', Buffer.from('COPY 40\0')), message('Z', Buffer.from('I'))]);
const wire = Buffer.concat([
    message('H', Buffer.from([1, 0, 0])),
    ...rows.slice(0, 20).map(r => message('d', r)),
    message('N', Buffer.from('Snotice\0\0')),
    ...rows.slice(20).map(r => message('d', r)),
    message('c', Buffer.alloc(0)),
    after,
]);

function run(pieces: number[]) {
    const stream = new EventEmitter();
    const givenBack: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => givenBack.push(Buffer.from(chunk)));
    const payloads: Buffer[] = [];
    let chunkEnds = 0;
    const copy = new CopyOutQuery(
        'COPY x TO STDOUT',
        (buf, start, end) => payloads.push(Buffer.from(buf.subarray(start, end))),
        () => chunkEnds++,
    );
    let sent = '';
    copy.submit({
        stream,
        query: (text: string) => {
            sent = text;
        },
    } as never);
    for (let at = 0, k = 0; at < wire.length; k++) {
        const n = pieces[k % pieces.length]!;
        stream.emit('data', wire.subarray(at, at + n));
        at += n;
    }
    return {
        sent,
        payloads,
        givenBack: Buffer.concat(givenBack),
        chunkEnds,
        readsSocket: copy.readsSocket,
        listeners: stream.listenerCount('data'),
    };
}

test('the COPY reader takes every row off the socket however the bytes are cut, and gives pg back what follows', () => {
    for (const pieces of [[wire.length], [1], [2, 3], [5], [4, 17, 1], [64]]) {
        const r = run(pieces);
        assert.equal(r.sent, 'COPY x TO STDOUT');
        assert.equal(r.readsSocket, true);
        assert.deepEqual(r.payloads, rows, `pieces of ${pieces.join(', ')} bytes`);
        assert.deepEqual(r.givenBack, after, 'CommandComplete and ReadyForQuery go back to pg');
        assert.equal(r.listeners, 1, "pg's listener alone reads the socket again");
        assert.ok(r.chunkEnds >= 1);
    }
});

test('an error from the server mid-COPY goes back to pg whole, with the rows before it delivered', () => {
    const before = Buffer.concat([message('H', Buffer.from([1, 0, 0])), message('d', rows[0]!)]);
    const failing = Buffer.concat([
        before,
        message('E', Buffer.from('SERROR\0C57014\0Mcanceling statement due to statement timeout\0\0')),
        message('Z', Buffer.from('I')),
    ]);
    const stream = new EventEmitter();
    const givenBack: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => givenBack.push(Buffer.from(chunk)));
    const payloads: Buffer[] = [];
    const copy = new CopyOutQuery(
        'COPY',
        (buf, start, end) => payloads.push(Buffer.from(buf.subarray(start, end))),
        () => undefined,
    );
    copy.submit({ stream, query: () => undefined } as never);
    for (let at = 0; at < failing.length; at += 3) stream.emit('data', failing.subarray(at, at + 3));
    assert.deepEqual(payloads, [rows[0]]);
    assert.deepEqual(Buffer.concat(givenBack), failing.subarray(before.length), 'from the ErrorResponse on, for pg to report');
});
