/** The webview side of the protocol: the VS Code API handle, the ready handshake and request pairing. */
import {
    isHostToWebview,
    PROTOCOL_VERSION,
    RequestTracker,
    type HostToWebview,
    type WebviewToHost,
} from '../../src/protocol/webview.js';

interface VsCodeApi {
    postMessage(msg: unknown): void;
    getState(): unknown;
    setState(state: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const api = acquireVsCodeApi();

export function post(msg: WebviewToHost): void {
    api.postMessage(msg);
}

export const requests = new RequestTracker(post);

/** Listens for host messages (validated), then says `ready` so the host flushes what it queued. */
export function connect(onMessage: (msg: HostToWebview) => void): void {
    window.addEventListener('message', (event: MessageEvent<unknown>) => {
        const msg = event.data;
        if (!isHostToWebview(msg)) return;
        if (requests.settle(msg)) return;
        try {
            onMessage(msg);
        } catch (err) {
            post({ type: 'log', level: 'error', message: err instanceof Error ? err.message : String(err) });
        }
    });
    post({ type: 'ready', version: PROTOCOL_VERSION });
}

/** Creates an element with text content only: data never becomes markup. */
export function el<K extends keyof HTMLElementTagNameMap>(
    tag: K,
    attrs: Record<string, string> = {},
    text?: string,
): HTMLElementTagNameMap[K] {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    return e;
}

export function status(message: string, kind: 'busy' | 'error' = 'busy'): void {
    const app = document.getElementById('app')!;
    app.replaceChildren(el('p', { class: `status ${kind}`, id: 'status', role: kind === 'error' ? 'alert' : 'status' }, message));
}
