/**
 * Timeouts that measure silence, not size: a request fails when the endpoint does not answer (headers) within
 * the timeout, or when its body stops for longer than the timeout between two chunks. A 5 MB answer that keeps
 * arriving is never cut off (and so never paid twice); a stalled one fails instead of hanging.
 */
import { ModelError } from './types.js';

type Fetch = typeof globalThis.fetch;

export function idleTimeoutFetch(ms: number, base: Fetch = globalThis.fetch): Fetch {
    return async (input, init) => {
        const controller = new AbortController();
        const outer = init?.signal;
        if (outer?.aborted) controller.abort(outer.reason);
        outer?.addEventListener('abort', () => controller.abort(outer.reason), { once: true });
        // Until the headers arrive: the caller's (SDK's) own timeout maps this to a connection timeout.
        const connect = setTimeout(() => controller.abort(), ms);
        let res: Response;
        try {
            res = await sameOriginOnly(base, input, { ...init, signal: controller.signal });
        } finally {
            clearTimeout(connect);
        }
        if (!res.body) return res;
        return new Response(gapLimited(res.body, ms, controller), {
            status: res.status,
            statusText: res.statusText,
            headers: res.headers,
        });
    };
}

const MAX_REDIRECTS = 5;

/**
 * Follows redirects within the endpoint's origin only: a redirect to another origin would send the question (and,
 * by some clients, the key) elsewhere and store that answer under the declared endpoint. It becomes a 421 answer
 * saying where it pointed, which the runner records as a request error (not retried).
 */
async function sameOriginOnly(base: Fetch, input: Parameters<Fetch>[0], init: RequestInit): Promise<Response> {
    let url = new URL(input instanceof Request ? input.url : String(input));
    const origin = url.origin;
    for (let hop = 0; ; hop++) {
        const res = await base(hop === 0 ? input : url, { ...init, redirect: 'manual' });
        const location = res.status >= 300 && res.status < 400 ? res.headers.get('location') : null;
        if (!location) return res;
        await res.body?.cancel().catch(() => undefined);
        const next = new URL(location, url);
        const refusal =
            next.origin !== origin
                ? `the endpoint ${origin} redirected to another origin (${next.origin}); HalluProbe does not follow redirects across origins — point the model's endpoint at the server that answers`
                : hop >= MAX_REDIRECTS
                  ? `the endpoint ${origin} redirected more than ${MAX_REDIRECTS} times`
                  : undefined;
        if (refusal)
            return new Response(JSON.stringify({ error: { message: refusal, type: 'redirect_refused' } }), {
                status: 421,
                headers: { 'content-type': 'application/json' },
            });
        // 301 / 302 / 303 turn a POST into a GET in browsers; an API endpoint that does so is misconfigured anyway.
        url = next;
    }
}

/** The body, failing with a timeout when a read waits longer than `ms` for the next chunk. */
function gapLimited(body: ReadableStream<Uint8Array>, ms: number, controller: AbortController): ReadableStream<Uint8Array> {
    const reader = body.getReader();
    return new ReadableStream<Uint8Array>({
        async pull(out) {
            let timer: NodeJS.Timeout | undefined;
            const stalled = new Promise<never>((_, reject) => {
                timer = setTimeout(() => {
                    reject(new ModelError('timeout', `the endpoint sent nothing for ${ms} ms in the middle of its answer`));
                    controller.abort();
                }, ms);
            });
            try {
                const { done, value } = await Promise.race([reader.read(), stalled]);
                if (done) out.close();
                else out.enqueue(value);
            } catch (e) {
                out.error(e);
            } finally {
                clearTimeout(timer);
            }
        },
        cancel(reason) {
            return reader.cancel(reason);
        },
    });
}
