// Item 1 of issue 11: a key goes only to the origin (scheme + host) it is bound to; anything else is confirmed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { resolveKey, type ConfirmHost, type KeyBindings } from '../../src/core/models/secrets.js';
import { resolveModel } from '../../src/core/models/providers.js';
import type { ModelDecl } from '../../src/core/spec/model.js';
import { startOpenAIServer } from '../support/openai-server.js';
import { tempDir, writeSpec } from '../support/runner-fixtures.js';
import { cli } from '../support/cli-process.js';

const loc = { file: 'x.probe', range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } } };
const model = (provider: string, settings: ModelDecl['settings']) => resolveModel({ name: 'm', provider, settings, loc }).model!;
const KEY = 'sk-binding-test-0123456789';

/** Refuses every confirmation and records what was asked. */
function refusing(): { asked: string[]; confirm: ConfirmHost } {
    const asked: string[] = [];
    return {
        asked,
        confirm: async q => {
            asked.push(`${q.keyFrom} -> ${q.host}`);
            return false;
        },
    };
}

const memoryBindings = (): KeyBindings & { all: Map<string, string> } => {
    const all = new Map<string, string>();
    return {
        all,
        get: s => all.get(s),
        set: (s, o) => {
            if (!all.has(s)) all.set(s, o);
        },
    };
};

test('OPENAI_API_KEY over plain http to api.openai.com is not sent without confirmation', async () => {
    const r = refusing();
    const res = await resolveKey(
        model('openai', { id: 'x', endpoint: 'http://api.openai.com/v1', key_env: 'OPENAI_API_KEY' }),
        undefined,
        r.confirm,
        { OPENAI_API_KEY: KEY },
    );
    assert.equal(res.ok, false);
    assert.deepEqual(r.asked, ['$OPENAI_API_KEY -> http://api.openai.com']);
    // With an explicit port it is the same origin, and the same answer.
    const r80 = refusing();
    assert.equal(
        (
            await resolveKey(model('openai', { id: 'x', endpoint: 'http://api.openai.com:80/v1' }), undefined, r80.confirm, {
                OPENAI_API_KEY: KEY,
            })
        ).ok,
        false,
    );
    assert.equal(r80.asked.length, 1);
});

test('https://api.openai.com (with or without :443) gets OPENAI_API_KEY without asking', async () => {
    const never: ConfirmHost = async () => {
        throw new Error('must not ask');
    };
    for (const endpoint of ['https://api.openai.com/v1', 'https://API.openai.com:443/v1']) {
        assert.deepEqual(await resolveKey(model('openai', { id: 'x', endpoint }), undefined, never, { OPENAI_API_KEY: KEY }), {
            ok: true,
            key: KEY,
            from: '$OPENAI_API_KEY',
        });
    }
});

test("OpenAI's key is not sent to OpenRouter, over http or https, without confirmation", async () => {
    for (const endpoint of ['http://openrouter.ai/api/v1', 'https://openrouter.ai/api/v1']) {
        const r = refusing();
        const res = await resolveKey(
            model('openrouter', { id: 'x', endpoint, key_env: 'OPENAI_API_KEY' }),
            undefined,
            r.confirm,
            { OPENAI_API_KEY: KEY },
        );
        assert.equal(res.ok, false, endpoint);
        assert.equal(r.asked.length, 1, endpoint);
    }
    // OpenRouter's own key goes to OpenRouter.
    const own = await resolveKey(model('openrouter', { id: 'x' }), undefined, refusing().confirm, { OPENROUTER_API_KEY: KEY });
    assert.deepEqual(own, { ok: true, key: KEY, from: '$OPENROUTER_API_KEY' });
});

test('a local provider gets no key unless the user confirms the one the spec names', async () => {
    const r = refusing();
    const res = await resolveKey(model('ollama', { id: 'llama3.1', key_env: 'SOME_KEY' }), undefined, r.confirm, {
        SOME_KEY: KEY,
    });
    assert.deepEqual(res, { ok: true, key: 'not-needed', from: 'none' });
    assert.deepEqual(r.asked, ['$SOME_KEY -> http://localhost:11434']);
    // No key_env: nothing is even offered, whatever the environment holds.
    const none = refusing();
    assert.deepEqual(
        await resolveKey(model('vllm', { id: 'x' }), undefined, none.confirm, { VLLM_API_KEY: KEY, OPENAI_API_KEY: KEY }),
        { ok: true, key: 'not-needed', from: 'none' },
    );
    assert.deepEqual(none.asked, []);
});

test('a custom key variable is bound to the origin it was first confirmed for', async () => {
    const bindings = memoryBindings();
    const m = model('openai', { id: 'x', endpoint: 'https://proxy.example/v1', key_env: 'MY_KEY' });
    const first = refusing();
    assert.equal((await resolveKey(m, undefined, first.confirm, { MY_KEY: KEY }, bindings)).ok, false, 'a new binding is asked');
    assert.equal(first.asked.length, 1);
    assert.equal((await resolveKey(m, undefined, async () => true, { MY_KEY: KEY }, bindings)).ok, true);
    assert.deepEqual([...bindings.all], [['$MY_KEY', 'https://proxy.example']]);
    const again = refusing();
    assert.equal((await resolveKey(m, undefined, again.confirm, { MY_KEY: KEY }, bindings)).ok, true);
    assert.deepEqual(again.asked, [], 'the confirmed binding is not asked again');
    const elsewhere = refusing();
    assert.equal(
        (
            await resolveKey(
                model('openai', { id: 'x', endpoint: 'https://other.example/v1', key_env: 'MY_KEY' }),
                undefined,
                elsewhere.confirm,
                { MY_KEY: KEY },
                bindings,
            )
        ).ok,
        false,
    );
    assert.equal(elsewhere.asked.length, 1);
});

test('Azure keys go to Azure resource hosts only', async () => {
    const ok = await resolveKey(
        model('azure', { id: 'x', endpoint: 'https://res1.openai.azure.com/openai/v1' }),
        undefined,
        refusing().confirm,
        { AZURE_OPENAI_API_KEY: KEY },
    );
    assert.equal(ok.ok, true);
    for (const endpoint of [
        'https://res1.openai.azure.com.evil.example/v1',
        'http://res1.openai.azure.com/openai/v1',
        'https://evilopenai.azure.com/v1',
    ]) {
        const r = refusing();
        assert.equal(
            (await resolveKey(model('azure', { id: 'x', endpoint }), undefined, r.confirm, { AZURE_OPENAI_API_KEY: KEY })).ok,
            false,
            endpoint,
        );
    }
});

test('a saved key is bound to https on its host', async () => {
    const saved = { get: async () => ({ key: KEY, host: 'proxy.example' }) };
    assert.equal(
        (await resolveKey(model('openai', { id: 'x', endpoint: 'https://proxy.example/v1' }), saved, refusing().confirm, {})).ok,
        true,
    );
    assert.equal(
        (await resolveKey(model('openai', { id: 'x', endpoint: 'http://proxy.example/v1' }), saved, refusing().confirm, {})).ok,
        false,
    );
});

/** The runner spec with its model block replaced. */
function specWith(modelBlock: string, url: string): string {
    const spec = writeSpec(url);
    const text = readFileSync(spec, 'utf8').replace(/model local openai \{[^}]*\}/, modelBlock);
    writeFileSync(spec, text);
    return spec;
}

test('through the CLI against a real server: the Authorization header carries the key only where it is bound', async () => {
    const server = await startOpenAIServer();
    const configDir = tempDir('hp-config-');
    try {
        const origin = new URL(server.url).origin;
        const hostPort = new URL(server.url).host;
        const run = async (block: string, env: NodeJS.ProcessEnv, extra: string[] = []) => {
            const spec = specWith(block, server.url);
            const before = server.log.length;
            const res = await cli(
                ['run', spec, '--db', path.join(path.dirname(spec), 'r.db'), '--limit', '2', '--no-verify', ...extra],
                { HALLUPROBE_CONFIG_DIR: configDir, ...env },
            );
            return { res, auth: server.log.slice(before).map(r => r.authorization ?? '') };
        };
        const openaiBlock = `model local openai { id "t" endpoint "${server.url}" key_env "OPENAI_API_KEY" }`;
        // A trusted host without a scheme trusts https only: this endpoint is plain http.
        const hostOnly = await run(openaiBlock, { OPENAI_API_KEY: KEY, HALLUPROBE_TRUSTED_HOSTS: hostPort });
        assert.notEqual(hostOnly.res.code, 0);
        assert.ok(
            hostOnly.auth.every(a => !a.includes(KEY)),
            'the key went over plain http to a host trusted for https only',
        );
        assert.match(
            hostOnly.res.stderr + hostOnly.res.stdout,
            /bound to https:\/\/api\.openai\.com/,
            JSON.stringify(hostOnly.res),
        );
        const httpTrusted = await run(openaiBlock, { OPENAI_API_KEY: KEY, HALLUPROBE_TRUSTED_HOSTS: origin });
        assert.equal(httpTrusted.res.code, 0, httpTrusted.res.stderr);
        assert.ok(httpTrusted.auth.length > 0 && httpTrusted.auth.every(a => a === `Bearer ${KEY}`));

        // A local provider with a named key: not sent unless confirmed, sent with --yes.
        const ollamaBlock = `model local ollama { id "t" endpoint "${server.url}" key_env "SOME_KEY" }`;
        const unconfirmed = await run(ollamaBlock, { SOME_KEY: KEY });
        assert.equal(unconfirmed.res.code, 0, unconfirmed.res.stderr);
        assert.ok(unconfirmed.auth.length > 0 && unconfirmed.auth.every(a => !a.includes(KEY)));
        const confirmed = await run(ollamaBlock, { SOME_KEY: KEY }, ['--yes']);
        assert.ok(confirmed.auth.length > 0 && confirmed.auth.every(a => a === `Bearer ${KEY}`));
        assert.match(confirmed.res.stderr, /sending the key from \$SOME_KEY/);
        // That confirmation bound $SOME_KEY to this origin: the next run sends it without asking.
        const bound = await run(ollamaBlock, { SOME_KEY: KEY });
        assert.ok(bound.auth.length > 0 && bound.auth.every(a => a === `Bearer ${KEY}`));
        assert.deepEqual(JSON.parse(readFileSync(path.join(configDir, 'key-bindings.json'), 'utf8')), { $SOME_KEY: origin });
    } finally {
        await server.close();
    }
});
