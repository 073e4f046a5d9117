// Item 9 of issue 11: time out on connect and on gaps between chunks, never on the total of a big answer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClient, ModelError, resolveModel } from '../../src/core/models/index.js';

const BIG = 'x'.repeat(5_000_000);
const TIMEOUT_MS = 800;

interface Behaviour {
    chunks: number;
    gapMs: number;
    stallAfter?: number;
    stream: boolean;
}

/** A real HTTP server sending one answer of BIG in `chunks` pieces, `gapMs` apart (or stalling after some). */
async function server(b: Behaviour): Promise<{ url: string; requests: () => number; close: () => Promise<void> }> {
    let requests = 0;
    const sockets = new Set<import('node:net').Socket>();
    const srv = http.createServer((req, res) => {
        requests++;
        req.resume();
        req.on('end', async () => {
            const pieces = b.stream ? sse() : json();
            res.writeHead(200, { 'content-type': b.stream ? 'text/event-stream' : 'application/json' });
            for (let i = 0; i < pieces.length; i++) {
                if (b.stallAfter !== undefined && i === b.stallAfter) return; // never finishes
                res.write(pieces[i]);
                await new Promise(resolve => setTimeout(resolve, b.gapMs));
            }
            res.end();
        });
    });
    srv.on('connection', s => {
        sockets.add(s);
        s.on('close', () => sockets.delete(s));
    });
    const split = (text: string) =>
        Array.from({ length: b.chunks }, (_, i) =>
            text.slice(Math.floor((i * text.length) / b.chunks), Math.floor(((i + 1) * text.length) / b.chunks)),
        );
    const json = () =>
        split(
            JSON.stringify({
                id: 'c',
                object: 'chat.completion',
                created: 0,
                model: 'm',
                choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: BIG } }],
                usage: { prompt_tokens: 1, completion_tokens: 1 },
            }),
        );
    const sse = () => [
        ...split(BIG).map(
            part =>
                `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 0, model: 'm', choices: [{ index: 0, delta: { content: part }, finish_reason: null }] })}\n\n`,
        ),
        `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 0, model: 'm', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\ndata: [DONE]\n\n`,
    ];
    await new Promise<void>(resolve => srv.listen(0, '127.0.0.1', resolve));
    return {
        url: `http://127.0.0.1:${(srv.address() as AddressInfo).port}/v1`,
        requests: () => requests,
        close: () =>
            new Promise(resolve => {
                for (const s of sockets) s.destroy();
                srv.close(() => resolve());
            }),
    };
}

const loc = { file: 'x.probe', range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } } };
function client(url: string, stream: boolean) {
    const { model } = resolveModel({
        name: 'm',
        provider: 'openai',
        settings: { id: 'm', endpoint: url, timeout_ms: TIMEOUT_MS, stream },
        loc,
    });
    return createClient(model!, { key: 'sk-timeout-test' });
}
const ask = (c: ReturnType<typeof client>, stream: boolean) =>
    c.complete({ messages: [{ role: 'user', content: 'q' }], params: { temperature: 0, stream }, sample: 0 });

for (const stream of [false, true]) {
    const mode = stream ? 'streamed' : 'JSON';
    test(`a 5 MB ${mode} answer that takes longer than the timeout in total, but keeps coming, is received once`, async () => {
        // 40 pieces 60 ms apart: about 2.4 s in total, three times the timeout, no gap near it.
        const s = await server({ chunks: 40, gapMs: 60, stream });
        try {
            const answer = await ask(client(s.url, stream), stream);
            assert.equal(answer.text.length, BIG.length);
            assert.equal(s.requests(), 1);
        } finally {
            await s.close();
        }
    });

    test(`a ${mode} answer that stalls mid-body fails with a timeout instead of hanging`, { timeout: 15_000 }, async () => {
        const s = await server({ chunks: 40, gapMs: 5, stallAfter: 10, stream });
        try {
            await assert.rejects(
                ask(client(s.url, stream), stream),
                (e: unknown) => e instanceof ModelError && e.kind === 'timeout' && e.retryable,
            );
        } finally {
            await s.close();
        }
    });
}
