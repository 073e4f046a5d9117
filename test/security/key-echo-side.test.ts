// Issue 29, items 1–2: a key echoed by a model-based side step (claim extraction with `extract_with`) — in its
// answer, its finish reason or its error — in any of its encodings (plain, JSON-escaped, URL-encoded, base64 of
// "Bearer KEY" or "user:KEY") never gets into the store, the cache or any report.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startOpenAIServer } from '../support/openai-server.js';
import { rulesSpecWithExtractor } from '../support/rules-extractor-spec.js';
import { cli } from '../support/cli-process.js';

const KEY = 'sk-side/echo+Key=0123456789abcdef';

/** The echo forms an endpoint might send back, given the Authorization header it received. */
function echoes(authorization: string): string[] {
    const key = authorization.replace(/^Bearer /, '');
    const b64 = (s: string) => Buffer.from(s).toString('base64');
    return [
        key,
        key.replaceAll('/', '\\/'),
        encodeURIComponent(key),
        b64(key),
        b64(authorization),
        `Basic ${b64(`me:${key}`)}`,
        Buffer.from(`user:${key}`).toString('base64url'),
        JSON.stringify({ auth: authorization }).replaceAll('/', '\\/'),
    ];
}

/** What a reader could recover the key from: the forms above, plus the key inside any base64 run. */
function leaks(text: string): string[] {
    const found = echoes(`Bearer ${KEY}`).filter(f => text.includes(f));
    for (const run of text.match(/[A-Za-z0-9+/_-]{16,}={0,2}/g) ?? []) {
        if (Buffer.from(run.replaceAll('-', '+').replaceAll('_', '/'), 'base64').toString('latin1').includes(KEY))
            found.push(`base64 ${run}`);
    }
    return found;
}

test('a key echoed by the extract_with model is stored, cached and reported redacted', { timeout: 120_000 }, async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'halluprobe-side-echo-'));
    let n = 0;
    const server = await startOpenAIServer({
        answer: info => {
            const all = echoes(info.authorization ?? '');
            const form = all[n++ % all.length]!;
            // Half prose (an unreadable extraction, quoted in the reports), half JSON with the key as a claim.
            return n % 2
                ? `Sure! debug auth=${form}`
                : `{"triples":[{"subject":"${form.replaceAll('"', '\\"')}","relation":"club","object":"x"}]}`;
        },
        finishReason: info => `stop-${(info.authorization ?? '').replace(/^Bearer /, '')}`,
        error: info => (info.n % 7 === 0 ? { status: 400, message: `bad request for ${info.authorization}` } : undefined),
    });
    try {
        const file = rulesSpecWithExtractor(
            dir,
            { name: 'extractor', id: 'extract-model', url: server.url, keyEnv: 'ECHO_SIDE_KEY' },
            false,
        );
        const db = path.join(dir, 'echo.db');
        const env = { ECHO_SIDE_KEY: KEY };
        const r = await cli(['run', file, '--db', db, '--yes'], env);
        assert.ok(r.code === 0 || r.code === 1, r.stdout + r.stderr);
        assert.ok(
            server.log.length > 10 && server.log.every(e => e.authorization === `Bearer ${KEY}`),
            'the server saw the key (so it could echo it)',
        );
        const printed = [r.stdout, r.stderr];
        for (const format of ['md', 'html', 'json', 'jsonl', 'csv']) {
            const rep = await cli(['report', '--db', db, '--format', format], env);
            printed.push(rep.stdout, rep.stderr);
        }
        const stored = readdirSync(dir)
            .filter(f => f.startsWith('echo.db'))
            .map(f => readFileSync(path.join(dir, f)).toString('latin1'))
            .join('\n');
        assert.match(stored, /\[redacted\]/, 'the echoes were stored, redacted');
        assert.deepEqual(leaks(stored), [], 'the store holds the key');
        assert.deepEqual(leaks(printed.join('\n')), [], 'a report or the terminal shows the key');
    } finally {
        await server.close();
        rmSync(dir, { recursive: true, force: true });
    }
});
