/**
 * A local OpenAI Batch API for tests: real node:http on 127.0.0.1 with `/v1/files` (multipart upload, content),
 * `/v1/batches` (create, retrieve, list). A batch moves validating → in_progress → finalizing → its outcome, one
 * step per retrieve (held in_progress while `hold` is set); the outcome is scripted per batch: `completed` (with
 * per-request errors in an error file), `expired` (half answered, the rest `batch_expired`) or `failed` (no
 * files). Counts every request sent in a batch by question text, so a test can tell a slot was never asked twice.
 * The real `openai` SDK talks to it.
 */
import * as http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type Outcome = 'completed' | 'expired' | 'failed';

export interface BatchServerOptions {
    /** The answer to a question (the last user message); default "Yes." */
    answer?: (question: string) => string;
    /** How the n-th batch created (1-based) ends; default completed. */
    outcome?: (n: number) => Outcome;
    /** An error for one request of a completed batch (its question text and how many batches held it so far). */
    lineError?: (question: string, attempt: number) => string | undefined;
    /** The finish reason of an answer (default "stop"): an endpoint may echo anything there, the key included. */
    finishReason?: (question: string) => string;
    /** The output file's line as written (a provider that truncates or garbles one): index 0-based, batch 1-based. */
    outputLine?: (line: string, index: number, batch: number) => string;
    /** Batches (1-based creation order) the server no longer knows: retrieving one answers 404. */
    forgotten?: (n: number) => boolean;
    /** Where downloading a file's content redirects to (another origin, say), instead of answering it. */
    contentRedirect?: string;
}

export interface BatchServer {
    url: string;
    /** Batches created, in order, with the question of each of their requests. */
    readonly created: { id: string; questions: string[]; metadata: Record<string, string> }[];
    /** Per question text: how many batches held it. */
    readonly asked: Map<string, number>;
    /** Batch ids asked about (GET /v1/batches/ID) that this server never created: another provider's, say. */
    readonly unknownPolls: string[];
    /** Hold every batch in_progress until released (a run killed between submit and collect). */
    hold: boolean;
    close(): Promise<void>;
}

interface FileRec {
    id: string;
    content: string;
    filename: string;
    purpose: string;
}
interface Line {
    custom_id: string;
    body: { messages: { role: string; content: string }[] };
}
interface BatchRec {
    id: string;
    n: number;
    input: string;
    status: string;
    metadata: Record<string, string>;
    output?: string;
    error?: string;
    errors?: { code: string; message: string }[];
    counts: { total: number; completed: number; failed: number };
}

const STEPS = ['validating', 'in_progress', 'finalizing'];

export async function startBatchServer(options: BatchServerOptions = {}): Promise<BatchServer> {
    const files = new Map<string, FileRec>();
    const batches = new Map<string, BatchRec>();
    const created: BatchServer['created'] = [];
    const asked = new Map<string, number>();
    const unknownPolls: string[] = [];
    const sockets = new Set<Socket>();
    let ids = 0;
    const state = { hold: false };
    const question = (l: Line) => l.body.messages.filter(m => m.role === 'user').at(-1)?.content ?? '';
    const words = (s: string) => (s.match(/\S+/g) ?? []).length;

    const view = (b: BatchRec) => ({
        id: b.id,
        object: 'batch',
        endpoint: '/v1/chat/completions',
        input_file_id: b.input,
        completion_window: '24h',
        status: b.status,
        output_file_id: b.output ?? null,
        error_file_id: b.error ?? null,
        created_at: 0,
        metadata: b.metadata,
        errors: b.errors ? { object: 'list', data: b.errors } : null,
        request_counts: b.counts,
    });

    const addFile = (content: string, filename: string, purpose: string) => {
        const id = `file-${++ids}`;
        files.set(id, { id, content, filename, purpose });
        return id;
    };

    /** The batch reaches its outcome: output and error files as OpenAI writes them. */
    function finish(b: BatchRec): void {
        const outcome = options.outcome?.(b.n) ?? 'completed';
        const lines = files
            .get(b.input)!
            .content.split('\n')
            .filter(Boolean)
            .map(l => JSON.parse(l) as Line);
        if (outcome === 'failed') {
            b.status = 'failed';
            b.errors = [{ code: 'invalid_request', message: 'The batch could not be processed' }];
            b.counts = { total: lines.length, completed: 0, failed: 0 };
            return;
        }
        const out: string[] = [];
        const err: string[] = [];
        lines.forEach((l, i) => {
            const q = question(l);
            if (outcome === 'expired' && i >= Math.ceil(lines.length / 2)) {
                err.push(
                    JSON.stringify({
                        id: `batch_req_${i}`,
                        custom_id: l.custom_id,
                        response: null,
                        error: {
                            code: 'batch_expired',
                            message: 'This request could not be executed before the completion window expired.',
                        },
                    }),
                );
                return;
            }
            const bad = options.lineError?.(q, asked.get(q) ?? 0);
            if (bad) {
                err.push(
                    JSON.stringify({
                        id: `batch_req_${i}`,
                        custom_id: l.custom_id,
                        response: {
                            status_code: 400,
                            request_id: `req_${i}`,
                            body: { error: { message: bad, type: 'invalid_request_error' } },
                        },
                        error: null,
                    }),
                );
                return;
            }
            const text = options.answer?.(q) ?? 'Yes.';
            const usage = {
                prompt_tokens: l.body.messages.reduce((n, m) => n + words(m.content) + 4, 3),
                completion_tokens: Math.max(1, words(text)),
            };
            out.push(
                JSON.stringify({
                    id: `batch_req_${i}`,
                    custom_id: l.custom_id,
                    error: null,
                    response: {
                        status_code: 200,
                        request_id: `req_${i}`,
                        body: {
                            id: `chatcmpl-${i}`,
                            object: 'chat.completion',
                            created: 0,
                            model: 'test-model',
                            choices: [
                                {
                                    index: 0,
                                    message: { role: 'assistant', content: text },
                                    finish_reason: options.finishReason?.(q) ?? 'stop',
                                    logprobs: null,
                                },
                            ],
                            usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
                        },
                    },
                }),
            );
        });
        b.status = outcome;
        b.counts = { total: lines.length, completed: out.length, failed: err.length };
        const written = options.outputLine ? out.map((l, i) => options.outputLine!(l, i, b.n)) : out;
        if (out.length) b.output = addFile(`${written.join('\n')}\n`, `${b.id}_output.jsonl`, 'batch_output');
        if (err.length) b.error = addFile(`${err.join('\n')}\n`, `${b.id}_error.jsonl`, 'batch_output');
    }

    const server = http.createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', c => chunks.push(c as Buffer));
        req.on(
            'end',
            () => void route(req, res, Buffer.concat(chunks)).catch(e => json(res, 500, { error: { message: String(e) } })),
        );
    });

    async function route(req: http.IncomingMessage, res: http.ServerResponse, body: Buffer): Promise<void> {
        const url = (req.url ?? '').split('?')[0]!;
        if (req.method === 'POST' && url === '/v1/files') {
            const form = await new Request('http://local/', {
                method: 'POST',
                headers: { 'content-type': req.headers['content-type'] ?? '' },
                body: new Uint8Array(body),
            }).formData();
            const file = form.get('file') as File;
            const id = addFile(await file.text(), file.name, String(form.get('purpose')));
            return json(res, 200, {
                id,
                object: 'file',
                bytes: file.size,
                created_at: 0,
                filename: file.name,
                purpose: form.get('purpose'),
                status: 'processed',
            });
        }
        const content = /^\/v1\/files\/([^/]+)\/content$/.exec(url);
        if (req.method === 'GET' && content) {
            const f = files.get(content[1]!);
            if (!f) return json(res, 404, { error: { message: 'No such file' } });
            if (options.contentRedirect) {
                res.writeHead(307, { location: `${options.contentRedirect}/files/${f.id}/content` });
                return void res.end();
            }
            res.writeHead(200, { 'content-type': 'application/octet-stream' });
            return void res.end(f.content);
        }
        if (req.method === 'POST' && url === '/v1/batches') {
            const b = JSON.parse(body.toString('utf8')) as { input_file_id: string; metadata?: Record<string, string> };
            const input = files.get(b.input_file_id);
            if (!input) return json(res, 400, { error: { message: 'No such input file' } });
            const lines = input.content
                .split('\n')
                .filter(Boolean)
                .map(l => JSON.parse(l) as Line);
            const rec: BatchRec = {
                id: `batch_${++ids}`,
                n: created.length + 1,
                input: input.id,
                status: 'validating',
                metadata: b.metadata ?? {},
                counts: { total: lines.length, completed: 0, failed: 0 },
            };
            batches.set(rec.id, rec);
            const qs = lines.map(question);
            for (const q of qs) asked.set(q, (asked.get(q) ?? 0) + 1);
            created.push({ id: rec.id, questions: qs, metadata: rec.metadata });
            return json(res, 200, view(rec));
        }
        if (req.method === 'GET' && url === '/v1/batches') {
            return json(res, 200, { object: 'list', data: [...batches.values()].reverse().map(view), has_more: false });
        }
        const one = /^\/v1\/batches\/([^/]+)$/.exec(url);
        if (req.method === 'GET' && one) {
            const b = batches.get(one[1]!);
            if (!b) unknownPolls.push(one[1]!);
            if (!b || options.forgotten?.(b.n)) return json(res, 404, { error: { message: 'No such batch' } });
            const step = STEPS.indexOf(b.status);
            if (step >= 0 && !(state.hold && b.status === 'in_progress')) {
                if (step < STEPS.length - 1) b.status = STEPS[step + 1]!;
                else finish(b);
            }
            return json(res, 200, view(b));
        }
        json(res, 404, { error: { message: `no route ${req.method} ${url}` } });
    }

    server.on('connection', s => {
        sockets.add(s);
        s.on('close', () => sockets.delete(s));
    });
    await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    return {
        url: `http://127.0.0.1:${port}/v1`,
        created,
        asked,
        unknownPolls,
        get hold() {
            return state.hold;
        },
        set hold(v: boolean) {
            state.hold = v;
        },
        close: () =>
            new Promise<void>(resolve => {
                for (const s of sockets) s.destroy();
                server.close(() => resolve());
            }),
    };
}

function json(res: http.ServerResponse, status: number, body: unknown): void {
    const text = JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
    res.end(text);
}
