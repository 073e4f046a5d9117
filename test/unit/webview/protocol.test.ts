import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
    isWebviewToHost,
    isHostToWebview,
    RequestTracker,
    PROTOCOL_VERSION,
    type WebviewToHost,
} from '../../../src/protocol/webview.js';

describe('webview protocol', () => {
    it('accepts every well-formed webview message', () => {
        const ok: WebviewToHost[] = [
            { type: 'ready', version: PROTOCOL_VERSION },
            { type: 'openSource', file: '/x/movies.csv', line: 3 },
            { type: 'openQuestion', questionId: 'q1' },
            // The fact view opens a family's question for the view's model (docs/facts.md).
            { type: 'openQuestion', questionId: 'q1', model: 'simulator' },
            { type: 'log', level: 'error', message: 'boom' },
            { type: 'request', requestId: 1, method: 'expand', params: { nodeId: 'n', label: 'Avatar', relation: 'Movie' } },
            { type: 'request', requestId: 2, method: 'save', params: { format: 'svg', data: '<svg/>' } },
            // Review Answers: a key on the answer shown, undo without one (issue 34).
            { type: 'review', action: 'fail', slot: 'q1\u0000m\u00000' },
            { type: 'review', action: 'undo' },
            // An open answer's claim marked by its digit.
            { type: 'review', action: 'claim-3', slot: 'q1\u0000m\u00000' },
        ];
        for (const m of ok) assert.equal(isWebviewToHost(m), true, JSON.stringify(m));
    });

    it('rejects malformed or unknown messages from a webview', () => {
        const bad: unknown[] = [
            null,
            'ready',
            [],
            { type: 'ready' },
            { type: 'openSource', file: 'a', line: 0 },
            { type: 'openSource', file: 1, line: 2 },
            { type: 'request', requestId: 1, method: 'exec', params: {} },
            { type: 'request', requestId: 1.5, method: 'expand', params: { nodeId: 'n', label: 'x' } },
            { type: 'request', requestId: 1, method: 'save', params: { format: 'pdf', data: '' } },
            { type: 'log', level: 'debug', message: 'x' },
            { type: 'runCommand', command: 'rm' },
            { type: 'review', action: 'delete' },
            { type: 'review', action: 'pass', slot: 3 },
            { type: 'openQuestion', questionId: 'q1', model: 3 },
            { type: 'review', action: 'claim-0' },
            { type: 'review', action: 'claim-10' },
            { type: 'review', action: 'claim-x' },
        ];
        for (const m of bad) assert.equal(isWebviewToHost(m), false, JSON.stringify(m));
    });

    it('checks host messages', () => {
        assert.equal(isHostToWebview({ type: 'init', panel: 'graph', data: { view: 'schema' } }), true);
        assert.equal(isHostToWebview({ type: 'response', requestId: 3, ok: false, error: 'x' }), true);
        // The Compare Models panel's grid (issue 37).
        assert.equal(
            isHostToWebview({ type: 'update', panel: 'compare', data: { title: 't', method: 'm', matrices: [] } }),
            true,
        );
        assert.equal(isHostToWebview({ type: 'init', panel: 'review', data: { title: 't', keys: [] } }), true);
        assert.equal(isHostToWebview({ type: 'init', panel: 'table', data: {} }), false);
        assert.equal(isHostToWebview({ type: 'busy' }), false);
    });

    it('pairs responses with requests by id, resolving and rejecting', async () => {
        const sent: WebviewToHost[] = [];
        const tracker = new RequestTracker(m => sent.push(m));
        const a = tracker.request('expand', { nodeId: 'n1', label: 'Avatar' });
        const b = tracker.request('save', { format: 'png', data: 'data:' });
        assert.equal(sent.length, 2);
        const [ra, rb] = sent as Extract<WebviewToHost, { type: 'request' }>[];
        assert.notEqual(ra!.requestId, rb!.requestId);
        assert.equal(tracker.settle({ type: 'response', requestId: rb!.requestId, ok: false, error: 'cancelled' }), true);
        assert.equal(
            tracker.settle({
                type: 'response',
                requestId: ra!.requestId,
                ok: true,
                result: { nodeId: 'n1', nodes: [], edges: [] },
            }),
            true,
        );
        assert.deepEqual(await a, { nodeId: 'n1', nodes: [], edges: [] });
        await assert.rejects(b, /cancelled/);
        assert.equal(tracker.settle({ type: 'response', requestId: 99, ok: true, result: null }), false);
        assert.equal(tracker.size, 0);
    });
});
