import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolveKey, redact, type ConfirmHost, type SecretSource } from '../../../src/core/models/secrets.js';
import { resolveModel } from '../../../src/core/models/providers.js';
import type { ModelDecl } from '../../../src/core/spec/model.js';

const loc = { file: 'x.probe', range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } } };
const model = (provider: string, settings: ModelDecl['settings']) => resolveModel({ name: 'm', provider, settings, loc }).model!;
const never: ConfirmHost = async () => {
    throw new Error('must not ask');
};
const saved = (key: string, host: string): SecretSource => ({ get: async () => ({ key, host }) });

test('an environment key goes to its own provider host without asking', async () => {
    const r = await resolveKey(model('openai', { id: 'gpt-4o-mini' }), undefined, never, { OPENAI_API_KEY: 'sk-env-1234567890' });
    assert.deepEqual(r, { ok: true, key: 'sk-env-1234567890', from: '$OPENAI_API_KEY' });
});

test('a spec pointing the model at another host gets no key unless the user confirms', async () => {
    const m = model('openai', { id: 'gpt-4o-mini', endpoint: 'https://evil.example/v1' });
    const asked: string[] = [];
    const refuse: ConfirmHost = async q => {
        asked.push(`${q.keyFrom}->${q.host}`);
        return false;
    };
    const r = await resolveKey(m, undefined, refuse, { OPENAI_API_KEY: 'sk-env-1234567890' });
    assert.equal(r.ok, false);
    assert.deepEqual(asked, ['$OPENAI_API_KEY->https://evil.example']);
    assert.ok(!r.ok && !r.message.includes('sk-env-1234567890') && /HALLUPROBE_TRUSTED_HOSTS/.test(r.message));
    const ok = await resolveKey(m, undefined, async () => true, { OPENAI_API_KEY: 'sk-env-1234567890' });
    assert.equal(ok.ok, true);
});

test('a saved key is bound to the host it was saved for', async () => {
    const m = model('openai', { id: 'x', endpoint: 'https://proxy.example/v1' });
    assert.deepEqual(await resolveKey(m, saved('sk-saved-123456789', 'proxy.example'), never, {}), {
        ok: true,
        key: 'sk-saved-123456789',
        from: 'saved key',
    });
    const elsewhere = await resolveKey(
        model('openai', { id: 'x' }),
        saved('sk-saved-123456789', 'proxy.example'),
        async () => false,
        {},
    );
    assert.equal(elsewhere.ok, false);
});

test("trusted hosts come from the user's environment", async () => {
    const m = model('openai', { id: 'x', endpoint: 'http://127.0.0.1:9/v1' });
    const r = await resolveKey(m, undefined, never, {
        OPENAI_API_KEY: 'sk-env-1234567890',
        HALLUPROBE_TRUSTED_HOSTS: 'http://127.0.0.1:9',
    });
    assert.equal(r.ok, true);
    // Trusting a host for environment keys does not send a key saved for another host there.
    const savedOnly = await resolveKey(m, saved('sk-saved-123456789', 'api.openai.com'), async () => false, {
        HALLUPROBE_TRUSTED_HOSTS: 'http://127.0.0.1:9',
    });
    assert.equal(savedOnly.ok, false);
});

test('local servers work without a key; hosted ones explain how to set one', async () => {
    assert.deepEqual(await resolveKey(model('ollama', { id: 'llama3' }), undefined, never, {}), {
        ok: true,
        key: 'not-needed',
        from: 'none',
    });
    const r = await resolveKey(model('openai', { id: 'x' }), undefined, never, {});
    assert.ok(!r.ok && /OPENAI_API_KEY/.test(r.message));
    // A custom variable has no binding until the user confirms one.
    const custom = await resolveKey(model('openai', { id: 'x', key_env: 'MY_KEY' }), undefined, async () => true, {
        MY_KEY: 'k-abcdef',
    });
    assert.deepEqual(custom, { ok: true, key: 'k-abcdef', from: '$MY_KEY' });
});

test('redact removes the key and anything shaped like one', () => {
    assert.equal(redact('bad key abcd-SECRET-efgh here', ['abcd-SECRET-efgh']), 'bad key [redacted] here');
    assert.equal(redact('Incorrect API key provided: sk-proj-ABCDEFGH12345', []), 'Incorrect API key provided: [redacted]');
    assert.equal(redact('Authorization: Bearer xyz.123', []), 'Authorization: Bearer [redacted]');
    // An endpoint echoing the key base64- or URL-encoded.
    const key = 'abcd+SECRET/efgh?';
    const echoed = `got ${Buffer.from(key).toString('base64')} and ${Buffer.from(key).toString('base64url')} and ${encodeURIComponent(key)}`;
    assert.equal(redact(echoed, [key]), 'got [redacted] and [redacted] and [redacted]');
});
